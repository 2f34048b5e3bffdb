internal import CDBus

/// What the D-Bus service asks of the bus besides serving: a method call and its reply, and a
/// match rule for the signals it listens to. ``BusConnection`` is the bus; a test hands in a
/// double that records the calls and answers as scripted.
public protocol BusCalls: AnyObject {
  /// Sends `message` and waits at most `timeout` seconds for the reply; an error reply is thrown.
  func call(_ message: DBusMessage, timeout: Double) throws(DBusFailure) -> DBusMessage
  /// Asks the bus for the signals `rule` matches.
  func addMatch(_ rule: String) throws(DBusFailure)
}

extension BusConnection: BusCalls {}

extension DBusMessage {
  /// Gives a message that was never sent a serial, as a connection does when it sends one, so
  /// that ``reply(_:)`` and ``errorReply(name:message:)`` can answer it (a bus double's calls).
  package func assignSerial(_ serial: UInt32) {
    if dbus_message_get_serial(raw) == 0 { dbus_message_set_serial(raw, serial) }
  }
}
