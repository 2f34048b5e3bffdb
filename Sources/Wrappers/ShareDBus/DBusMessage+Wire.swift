internal import CDBus

/// A message as it travels on the wire (the D-Bus specification's marshalling), for the fuzz
/// targets, which hand the decoder what a peer could send without a bus in between.
extension DBusMessage {
  /// The message in `bytes`, as libdbus reads it off a connection, validated in full; a
  /// ``DBusFailure`` when libdbus refuses it.
  package static func demarshal(_ bytes: [UInt8]) throws(DBusFailure) -> DBusMessage {
    // libdbus aborts the process on a null buffer (a failed precondition), which empty gives.
    guard !bytes.isEmpty else { throw notAMessage }
    let raw = try withDBusError { error in
      bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { text in
          dbus_message_demarshal(text.baseAddress, Int32(clamping: text.count), error)
        }
      }
    }
    guard let raw else { throw notAMessage }
    return DBusMessage(taking: raw)
  }

  private static var notAMessage: DBusFailure {
    DBusFailure(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "not a D-Bus message")
  }

  /// The message's bytes, as libdbus writes them to a connection; empty when it runs out of memory.
  /// A message not yet sent gets serial 1, as a connection would give it one.
  package func marshal() -> [UInt8] {
    if dbus_message_get_serial(raw) == 0 { dbus_message_set_serial(raw, 1) }
    var pointer: UnsafeMutablePointer<CChar>? = nil
    var count: Int32 = 0
    guard dbus_message_marshal(raw, &pointer, &count) != 0, let pointer else { return [] }
    defer { dbus_free(pointer) }
    return UnsafeRawBufferPointer(start: pointer, count: Int(count)).map { $0 }
  }
}
