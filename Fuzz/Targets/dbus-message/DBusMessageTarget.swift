import FuzzDBusSupport
import FuzzSupport
import ShareDBus
import ShareDaemon

/// A D-Bus message off the wire, as a peer could send it to the service: libdbus validates it,
/// ShareDBus decodes its arguments, and the service decodes each as the items of `Share`. The
/// arguments sent on again must read back the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDBusMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let message = try? DBusMessage.demarshal(inputBytes(data, size)) else { return 0 }
  _ = (message.kind, message.path, message.interface, message.member, message.signature)
  let arguments = message.arguments()
  for argument in arguments {
    _ = try? ItemArguments.decode(argument, argument: "items")
  }
  if let again = wireRoundTrip(arguments) {
    expect(same(again, arguments), "arguments read back differently: \(arguments) → \(again)")
  }
  return 0
}
