internal import CDBus
public import SharePOSIX

/// A D-Bus message. Owns its libdbus message; the pointer never leaves this module.
public final class DBusMessage: @unchecked Sendable {
  // @unchecked: a message is built by one thread and then handed over whole (libdbus messages are
  // safe to pass between threads once no one mutates them); no two threads use one at once.
  let raw: OpaquePointer

  init(taking raw: OpaquePointer) {
    self.raw = raw
  }

  deinit {
    dbus_message_unref(raw)
  }

  public enum Kind: Sendable {
    case methodCall, methodReturn, error, signal, other
  }

  /// A method call to `destination` (or to no one in particular when `nil`).
  public static func methodCall(
    destination: String?, path: String, interface: String?, member: String
  ) -> DBusMessage {
    let raw = withOptionalCString(destination) { destination in
      withOptionalCString(interface) { interface in
        path.withCString { path in
          member.withCString { dbus_message_new_method_call(destination, path, interface, $0) }
        }
      }
    }
    return DBusMessage(taking: raw!)
  }

  /// A signal from `path`.
  public static func signal(path: String, interface: String, member: String) -> DBusMessage {
    let raw = path.withCString { path in
      interface.withCString { interface in member.withCString { dbus_message_new_signal(path, interface, $0) }
      }
    }
    return DBusMessage(taking: raw!)
  }

  /// A successful reply to this call.
  public func reply(_ values: [DBusValue] = []) -> DBusMessage {
    let message = DBusMessage(taking: dbus_message_new_method_return(raw)!)
    message.append(values)
    return message
  }

  /// An error reply to this call.
  public func errorReply(name: String, message text: String) -> DBusMessage {
    DBusMessage(
      taking: name.withCString { name in text.withCString { dbus_message_new_error(raw, name, $0) } }!)
  }

  public var kind: Kind {
    switch dbus_message_get_type(raw) {
    case Int32(DBUS_MESSAGE_TYPE_METHOD_CALL): .methodCall
    case Int32(DBUS_MESSAGE_TYPE_METHOD_RETURN): .methodReturn
    case Int32(DBUS_MESSAGE_TYPE_ERROR): .error
    case Int32(DBUS_MESSAGE_TYPE_SIGNAL): .signal
    default: .other
    }
  }

  public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
  public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
  public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
  public var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
  public var destination: String? { dbus_message_get_destination(raw).map { String(cString: $0) } }
  public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
  /// The signature of the arguments.
  public var signature: String { dbus_message_get_signature(raw).map { String(cString: $0) } ?? "" }

  /// Whether the caller waits for no reply.
  public var expectsNoReply: Bool { dbus_message_get_no_reply(raw) != 0 }

  /// Asks the bus not to start the destination by activation.
  public func setAutoStart(_ autoStart: Bool) {
    dbus_message_set_auto_start(raw, autoStart ? 1 : 0)
  }

  /// Appends arguments.
  public func append(_ values: [DBusValue]) {
    var iterator = DBusMessageIter()
    dbus_message_iter_init_append(raw, &iterator)
    for value in values { Self.append(value, to: &iterator) }
  }

  /// Appends a file descriptor argument (`h`): libdbus sends a duplicate, so `descriptor` stays
  /// this process's to close.
  public func append(_ descriptor: FileDescriptor) {
    var iterator = DBusMessageIter()
    dbus_message_iter_init_append(raw, &iterator)
    descriptor.withRawValue { fd in
      var value = fd
      _ = dbus_message_iter_append_basic(&iterator, CDBUS_TYPE_UNIX_FD, &value)
    }
  }

  /// The arguments, decoded.
  public func arguments() -> [DBusValue] {
    var iterator = DBusMessageIter()
    guard dbus_message_iter_init(raw, &iterator) != 0 else { return [] }
    var values: [DBusValue] = []
    repeat {
      if let value = Self.read(&iterator) { values.append(value) }
    } while dbus_message_iter_next(&iterator) != 0
    return values
  }

  // MARK: Encoding

  private static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) {
    func basic<T: BitwiseCopyable>(_ type: Int32, _ value: T) {
      withUnsafeBytes(of: value) { _ = dbus_message_iter_append_basic(&iterator, type, $0.baseAddress) }
    }
    func string(_ type: Int32, _ text: String) {
      text.withCString { pointer in
        var pointer: UnsafePointer<CChar>? = pointer
        dbus_message_iter_append_basic(&iterator, type, &pointer)
      }
    }
    func container(_ type: Int32, _ signature: String?, _ body: (inout DBusMessageIter) -> Void) {
      var child = DBusMessageIter()
      _ = withOptionalCString(signature) { dbus_message_iter_open_container(&iterator, type, $0, &child) }
      body(&child)
      dbus_message_iter_close_container(&iterator, &child)
    }
    switch value {
    case .byte(let v): basic(CDBUS_TYPE_BYTE, v)
    case .boolean(let v): basic(CDBUS_TYPE_BOOLEAN, dbus_bool_t(v ? 1 : 0))
    case .int16(let v): basic(CDBUS_TYPE_INT16, v)
    case .uint16(let v): basic(CDBUS_TYPE_UINT16, v)
    case .int32(let v): basic(CDBUS_TYPE_INT32, v)
    case .uint32(let v): basic(CDBUS_TYPE_UINT32, v)
    case .int64(let v): basic(CDBUS_TYPE_INT64, v)
    case .uint64(let v): basic(CDBUS_TYPE_UINT64, v)
    case .double(let v): basic(CDBUS_TYPE_DOUBLE, v)
    case .string(let v): string(CDBUS_TYPE_STRING, v)
    case .objectPath(let v): string(CDBUS_TYPE_OBJECT_PATH, v)
    case .signature(let v): string(CDBUS_TYPE_SIGNATURE, v)
    case .bytes(let bytes):
      container(CDBUS_TYPE_ARRAY, "y") { child in
        bytes.withUnsafeBufferPointer { buffer in
          var pointer = buffer.baseAddress
          dbus_message_iter_append_fixed_array(&child, CDBUS_TYPE_BYTE, &pointer, Int32(buffer.count))
        }
      }
    case .array(let element, let values):
      container(CDBUS_TYPE_ARRAY, element) { child in values.forEach { append($0, to: &child) } }
    case .dictionary(let key, let valueSignature, let entries):
      container(CDBUS_TYPE_ARRAY, "{" + key + valueSignature + "}") { child in
        for entry in entries {
          var pair = DBusMessageIter()
          dbus_message_iter_open_container(&child, CDBUS_TYPE_DICT_ENTRY, nil, &pair)
          append(entry.key, to: &pair)
          append(entry.value, to: &pair)
          dbus_message_iter_close_container(&child, &pair)
        }
      }
    case .structure(let fields):
      container(CDBUS_TYPE_STRUCT, nil) { child in fields.forEach { append($0, to: &child) } }
    case .variant(let inner):
      container(CDBUS_TYPE_VARIANT, inner.signature) { child in append(inner, to: &child) }
    }
  }

  // MARK: Decoding

  static func read(_ iterator: inout DBusMessageIter) -> DBusValue? {
    func basic<T: BitwiseCopyable>(_ initial: T) -> T {
      var value = initial
      withUnsafeMutableBytes(of: &value) { dbus_message_iter_get_basic(&iterator, $0.baseAddress) }
      return value
    }
    func text() -> String {
      var pointer: UnsafePointer<CChar>? = nil
      dbus_message_iter_get_basic(&iterator, &pointer)
      return pointer.map { String(cString: $0) } ?? ""
    }
    switch dbus_message_iter_get_arg_type(&iterator) {
    case CDBUS_TYPE_BYTE: return .byte(basic(UInt8(0)))
    case CDBUS_TYPE_BOOLEAN: return .boolean(basic(dbus_bool_t(0)) != 0)
    case CDBUS_TYPE_INT16: return .int16(basic(Int16(0)))
    case CDBUS_TYPE_UINT16: return .uint16(basic(UInt16(0)))
    case CDBUS_TYPE_INT32: return .int32(basic(Int32(0)))
    case CDBUS_TYPE_UINT32: return .uint32(basic(UInt32(0)))
    case CDBUS_TYPE_INT64: return .int64(basic(Int64(0)))
    case CDBUS_TYPE_UINT64: return .uint64(basic(UInt64(0)))
    case CDBUS_TYPE_DOUBLE: return .double(basic(Double(0)))
    case CDBUS_TYPE_STRING: return .string(text())
    case CDBUS_TYPE_OBJECT_PATH: return .objectPath(text())
    case CDBUS_TYPE_SIGNATURE: return .signature(text())
    case CDBUS_TYPE_VARIANT:
      var child = DBusMessageIter()
      dbus_message_iter_recurse(&iterator, &child)
      return read(&child).map(DBusValue.variant)
    case CDBUS_TYPE_STRUCT:
      var child = DBusMessageIter()
      dbus_message_iter_recurse(&iterator, &child)
      var fields: [DBusValue] = []
      while dbus_message_iter_get_arg_type(&child) != CDBUS_TYPE_INVALID {
        if let field = read(&child) { fields.append(field) }
        dbus_message_iter_next(&child)
      }
      return .structure(fields)
    case CDBUS_TYPE_ARRAY:
      let elementSignature =
        dbus_message_iter_get_signature(&iterator).map { pointer -> String in
          defer { dbus_free(pointer) }
          return String(String(cString: pointer).dropFirst())
        } ?? ""
      var child = DBusMessageIter()
      dbus_message_iter_recurse(&iterator, &child)
      if elementSignature == "y" {
        var pointer: UnsafeRawPointer? = nil
        var count: Int32 = 0
        dbus_message_iter_get_fixed_array(&child, &pointer, &count)
        guard let pointer, count > 0 else { return .bytes([]) }
        return .bytes(Array(UnsafeRawBufferPointer(start: pointer, count: Int(count))))
      }
      if elementSignature.hasPrefix("{") {
        let inner = elementSignature.dropFirst().dropLast()
        let key = String(inner.prefix(1))
        var entries: [DBusValue.DictionaryEntry] = []
        while dbus_message_iter_get_arg_type(&child) == CDBUS_TYPE_DICT_ENTRY {
          var pair = DBusMessageIter()
          dbus_message_iter_recurse(&child, &pair)
          let k = read(&pair)
          dbus_message_iter_next(&pair)
          let v = read(&pair)
          if let k, let v { entries.append(.init(k, v)) }
          dbus_message_iter_next(&child)
        }
        return .dictionary(keySignature: key, valueSignature: String(inner.dropFirst()), entries)
      }
      var values: [DBusValue] = []
      while dbus_message_iter_get_arg_type(&child) != CDBUS_TYPE_INVALID {
        if let value = read(&child) { values.append(value) }
        dbus_message_iter_next(&child)
      }
      return .array(elementSignature: elementSignature, values)
    default:
      return nil
    }
  }
}

/// Calls `body` with `string`'s C string, or with `nil`.
func withOptionalCString<T>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
  guard let string else { return body(nil) }
  return string.withCString(body)
}
