internal import CDBus
import SharePOSIX

/// A private connection to a message bus. Owns its libdbus connection and closes it when it goes.
///
/// Not `Sendable`: one thread owns a connection and nothing else touches it.
public final class BusConnection {
  let raw: OpaquePointer
  /// The handler of ``setMessageHandler(_:)``, kept alive while libdbus points to it.
  var messageHandler: HandlerBox?

  private init(raw: OpaquePointer) {
    self.raw = raw
    // A lost bus is an error to report, never a reason for libdbus to exit the process.
    dbus_connection_set_exit_on_disconnect(raw, 0)
  }

  deinit {
    dbus_connection_close(raw)
    dbus_connection_unref(raw)
  }

  /// Connects to the session bus of `DBUS_SESSION_BUS_ADDRESS`.
  public static func session() throws(DBusFailure) -> BusConnection {
    guard let raw = try withDBusError({ dbus_bus_get_private(DBUS_BUS_SESSION, $0) }) else {
      throw DBusFailure(name: "org.freedesktop.DBus.Error.Failed", message: "no session bus")
    }
    return BusConnection(raw: raw)
  }

  /// Connects to the bus at `address` and registers with it.
  public static func connect(address: String) throws(DBusFailure) -> BusConnection {
    guard
      let raw = try withDBusError({ error in address.withCString { dbus_connection_open_private($0, error) } }
      )
    else {
      throw DBusFailure(name: "org.freedesktop.DBus.Error.Failed", message: "cannot connect to \(address)")
    }
    let connection = BusConnection(raw: raw)
    _ = try withDBusError { dbus_bus_register(raw, $0) }
    return connection
  }

  /// The connection's unique name on the bus, such as `:1.42`.
  public var uniqueName: String {
    dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
  }

  /// Sends `message` and waits at most `timeout` seconds for the reply; an error reply is thrown.
  public func call(_ message: DBusMessage, timeout: Double = 25) throws(DBusFailure) -> DBusMessage {
    let reply = try withDBusError { error in
      dbus_connection_send_with_reply_and_block(raw, message.raw, Int32(timeout * 1000), error)
    }
    guard let reply else {
      throw DBusFailure(name: "org.freedesktop.DBus.Error.NoReply", message: "no reply")
    }
    return DBusMessage(taking: reply)
  }

  /// Queues `message` without waiting for a reply, and writes it out.
  public func send(_ message: DBusMessage) {
    dbus_connection_send(raw, message.raw, nil)
    dbus_connection_flush(raw)
  }

  /// The replies to `RequestName` (`DBUS_REQUEST_NAME_REPLY_*`).
  public enum NameReply: Equatable, Sendable {
    case primaryOwner, inQueue, exists, alreadyOwner
  }

  /// Asks the bus for a well-known name, without queueing.
  public func requestName(_ name: String) throws(DBusFailure) -> NameReply {
    let result = try withDBusError { error in
      name.withCString { dbus_bus_request_name(raw, $0, UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE), error) }
    }
    switch result {
    case Int32(DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER): return .primaryOwner
    case Int32(DBUS_REQUEST_NAME_REPLY_IN_QUEUE): return .inQueue
    case Int32(DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER): return .alreadyOwner
    default: return .exists
    }
  }

  /// Gives a well-known name back.
  public func releaseName(_ name: String) {
    _ = try? withDBusError { error in name.withCString { dbus_bus_release_name(raw, $0, error) } }
  }

  /// Subscribes to messages matching `rule` (a match rule such as `type='signal',path='/x'`).
  public func addMatch(_ rule: String) throws(DBusFailure) {
    _ = try withDBusError { error in rule.withCString { dbus_bus_add_match(raw, $0, error) } }
  }

  /// Waits at most `timeout` seconds for traffic, reading and writing; `false` once disconnected.
  public func readWrite(timeout: Double) -> Bool {
    dbus_connection_read_write(raw, Int32(max(0, timeout) * 1000)) != 0
  }

  /// The next received message, if any.
  public func popMessage() -> DBusMessage? {
    dbus_connection_pop_message(raw).map(DBusMessage.init(taking:))
  }

  /// Writes out everything queued.
  public func flush() {
    dbus_connection_flush(raw)
  }

  /// Waits up to `timeout` seconds for a message that `matches`, leaving others aside.
  public func waitForMessage(timeout: Double, where matches: (DBusMessage) -> Bool) -> DBusMessage? {
    let deadline = MonotonicClock.now + timeout
    while true {
      while let message = popMessage() {
        if matches(message) { return message }
      }
      let left = deadline - MonotonicClock.now
      if left <= 0 || !readWrite(timeout: min(left, 0.1)) { return nil }
    }
  }
}
