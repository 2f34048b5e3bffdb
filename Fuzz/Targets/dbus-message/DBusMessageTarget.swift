import FuzzDBusSupport
import FuzzSupport
import ShareDBus
import ShareDaemon

/// A D-Bus message off the wire, as a peer could send it to the service: libdbus validates it,
/// ShareDBus decodes its arguments, and the service decodes each as the items of `Share`, from the
/// value and straight from the message alike. The arguments sent on again must read back the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDBusMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let message = try? DBusMessage.demarshal(inputBytes(data, size)) else { return 0 }
  _ = (message.kind, message.path, message.interface, message.member, message.signature)
  let arguments = message.arguments()
  // Each argument read where it lies in the message, as the service reads QueryItems, must
  // decode as its value does (arguments() leaves out what it cannot decode, a Unix descriptor).
  var cursor = message.cursor(atArgument: 0)
  var index = 0
  while cursor.kind != .end {
    if cursor.kind != .other, cursor.kind != .unixFD, index < arguments.count {
      let argument = arguments[index]
      let decoded = Result { () throws(BusError) in try ItemArguments.decode(argument, argument: "items") }
      expect(cursor.value() == argument, "argument \(index) reads differently through a cursor")
      let read = Result { () throws(BusError) in try ItemArguments.decode(cursor, argument: "items") }
      expect(read == decoded, "argument \(index) decodes differently through a cursor: \(read), \(decoded)")
      index += 1
    }
    cursor.next()
  }
  if let again = wireRoundTrip(arguments) {
    expect(same(again, arguments), "arguments read back differently: \(arguments) → \(again)")
  }
  return 0
}
