internal import CDBus

/// A libdbus error, copied out of its `DBusError` before that is freed.
public struct DBusFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// The D-Bus error name, e.g. `org.freedesktop.DBus.Error.ServiceUnknown`.
  public var name: String
  public var message: String

  public init(name: String, message: String) {
    self.name = name
    self.message = message
  }

  public var description: String { "\(name): \(message)" }
}

/// Runs `body` with an initialised `DBusError` and throws it when set.
///
/// The corresponding C pattern is `DBusError e; dbus_error_init(&e); f(..., &e); if (dbus_error_is_set(&e)) ...`.
func withDBusError<T>(_ body: (UnsafeMutablePointer<DBusError>) -> T) throws(DBusFailure) -> T {
  var error = DBusError()
  dbus_error_init(&error)
  defer { dbus_error_free(&error) }
  let result = body(&error)
  if dbus_error_is_set(&error) != 0 {
    throw DBusFailure(
      name: error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed",
      message: error.message.map { String(cString: $0) } ?? "")
  }
  return result
}
