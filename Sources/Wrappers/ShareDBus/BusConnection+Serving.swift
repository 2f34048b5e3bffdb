internal import CDBus

extension BusConnection {
  /// The socket to poll before ``ingest()``, for an event loop.
  public var pollDescriptor: Int32? {
    var descriptor: Int32 = -1
    return dbus_connection_get_unix_fd(raw, &descriptor) != 0 ? descriptor : nil
  }

  /// Reads what has arrived, without waiting; `false` once disconnected.
  @discardableResult
  public func ingest() -> Bool {
    dbus_connection_read_write(raw, 0) != 0
  }

  /// Hands every message read so far to the handler (and libdbus's own `Peer` answers).
  public func dispatchPending() {
    while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
  }

  /// Sends every message through `handler`, on the thread that calls ``dispatchPending()``;
  /// it returns whether it handled the message. A method call nobody handles gets libdbus's
  /// `UnknownMethod` error.
  public func setMessageHandler(_ handler: @escaping (DBusMessage) -> Bool) {
    let box = HandlerBox(handler)
    messageHandler = box
    dbus_connection_add_filter(
      raw,
      { _, message, userData in
        guard let message, let userData else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        let box = Unmanaged<HandlerBox>.fromOpaque(userData).takeUnretainedValue()
        dbus_message_ref(message)
        return box.handler(DBusMessage(taking: message))
          ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
      }, Unmanaged.passUnretained(box).toOpaque(), nil)
  }

  /// Queues `message` for sending; ``flush()`` or the next turn writes it out.
  public func enqueue(_ message: DBusMessage) {
    dbus_connection_send(raw, message.raw, nil)
  }
}

/// Keeps the handler alive for as long as the connection holds a pointer to it.
final class HandlerBox {
  let handler: (DBusMessage) -> Bool

  init(_ handler: @escaping (DBusMessage) -> Bool) {
    self.handler = handler
  }
}

extension DBusMessage {
  /// A reply to `call` whose arguments are those of `template` (another reply): the marshalled
  /// body is copied as bytes, which is much cheaper than building it again.
  public func replyCopying(_ template: DBusMessage) -> DBusMessage {
    let copy = DBusMessage(taking: dbus_message_copy(template.raw)!)
    dbus_message_set_reply_serial(copy.raw, dbus_message_get_serial(raw))
    _ = withOptionalCString(sender) { dbus_message_set_destination(copy.raw, $0) }
    return copy
  }
}

extension DBusMessage {
  /// The bytes the message takes on the wire (header and body), for caches bounded by size.
  public var marshalledSize: Int {
    var data: UnsafeMutablePointer<CChar>?
    var length: Int32 = 0
    guard dbus_message_marshal(raw, &data, &length) != 0 else { return 0 }
    dbus_free(data)
    return Int(length)
  }
}
