import ShareDBus

/// `org.freedesktop.DBus.Properties` of the service object, and the check of a call's signature.
extension ShareDaemon {
  static func properties(_ message: DBusMessage, member: String) throws(BusError) -> DBusMessage? {
    let arguments = message.arguments()
    switch member {
    case "Get":
      try expect(message, "ss", names: "(s interface_name, s property_name)")
      // An empty name means "whichever has it" (the D-Bus specification).
      guard arguments[0] == .string(interface) || arguments[0] == .string("") else {
        throw .unknownInterface(arguments[0].stringValue ?? "")
      }
      guard arguments[1] == .string("Version") else { throw .unknownProperty(arguments[1].stringValue ?? "") }
      return message.reply([.variant(.uint32(version))])
    case "GetAll":
      try expect(message, "s", names: "(s interface_name)")
      guard arguments[0] == .string(interface) || arguments[0] == .string("") else {
        throw .unknownInterface(arguments[0].stringValue ?? "")
      }
      return message.reply([.vardict([("Version", .uint32(version))])])
    case "Set":
      try expect(message, "ssv", names: "(s interface_name, s property_name, v value)")
      throw .readOnlyProperty(arguments[1].stringValue ?? "")
    default:
      return nil
    }
  }

  static func expect(_ message: DBusMessage, _ signature: String, names: String) throws(BusError) {
    guard message.signature == signature else {
      throw .invalidArgument(message.member ?? "call", .signature(expected: names, found: message.signature))
    }
  }
}
