internal import CDBus

/// Which well-known names the session bus can reach: owned now, or startable by activation.
public enum BusNames {
  /// For each of `names`, whether it is owned or activatable on the session bus. All false when
  /// there is no session bus.
  public static func availability(of names: [String]) -> [String: Bool] {
    var result = Dictionary(uniqueKeysWithValues: names.map { ($0, false) })
    guard !names.isEmpty,
      let connection = try? withDBusError({ dbus_bus_get_private(DBUS_BUS_SESSION, $0) })
    else { return result }
    dbus_connection_set_exit_on_disconnect(connection, 0)
    defer {
      dbus_connection_close(connection)
      dbus_connection_unref(connection)
    }
    let activatable = Set(activatableNames(on: connection))
    for name in names {
      let owned =
        (try? withDBusError { error in name.withCString { dbus_bus_name_has_owner(connection, $0, error) } })
      result[name] = owned.map { $0 != 0 } == true || activatable.contains(name)
    }
    return result
  }

  /// `org.freedesktop.DBus.ListActivatableNames`.
  private static func activatableNames(on connection: OpaquePointer) -> [String] {
    guard
      let call = dbus_message_new_method_call(
        "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListActivatableNames")
    else { return [] }
    defer { dbus_message_unref(call) }
    guard
      let reply = try? withDBusError({ dbus_connection_send_with_reply_and_block(connection, call, 2000, $0) }
      )
    else { return [] }
    defer { dbus_message_unref(reply) }
    var iterator = DBusMessageIter()
    var element = DBusMessageIter()
    guard dbus_message_iter_init(reply, &iterator) != 0,
      dbus_message_iter_get_arg_type(&iterator) == CDBUS_TYPE_ARRAY
    else { return [] }
    dbus_message_iter_recurse(&iterator, &element)
    var names: [String] = []
    while dbus_message_iter_get_arg_type(&element) == CDBUS_TYPE_STRING {
      var value: UnsafePointer<CChar>? = nil
      dbus_message_iter_get_basic(&element, &value)
      if let value { names.append(String(cString: value)) }
      dbus_message_iter_next(&element)
    }
    return names
  }
}
