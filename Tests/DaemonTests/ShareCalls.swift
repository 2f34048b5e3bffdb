import ShareDBus

/// A method call to the D-Bus service's `org.xdgshare.Share1` interface.
func shareMethod(_ member: String, _ arguments: [DBusValue]) -> DBusMessage {
  let message = DBusMessage.methodCall(
    destination: "org.xdgshare.Share", path: "/org/xdgshare/Share", interface: "org.xdgshare.Share1",
    member: member)
  message.append(arguments)
  return message
}

/// Calls `member` of the D-Bus service's `org.xdgshare.Share1` with `arguments`; its reply.
func call(_ client: BusConnection, _ member: String, _ arguments: [DBusValue]) throws -> DBusMessage {
  try client.call(shareMethod(member, arguments), timeout: 10)
}
