internal import CDBus
public import SharePOSIX

/// Reads a message's arguments where they lie in it, without building ``DBusValue``s.
///
/// Why: a request of 1,000 items decoded into a value tree first cost more than all the rest of
/// answering it (an enum box, an array and a dictionary per item, then read a second time). A
/// cursor hands over only what the reader asks for. It keeps its message alive.
public struct DBusCursor {
  private let message: DBusMessage
  private var iterator: DBusMessageIter

  /// The D-Bus type of the value under the cursor.
  public enum Kind: Equatable, Sendable {
    case byte, boolean, int16, uint16, int32, uint32, int64, uint64, double
    case string, objectPath, signature
    case array, dictionaryEntry, structure, variant
    /// A Unix file descriptor (`h`): ``fileDescriptor()`` takes it.
    case unixFD
    /// A type this module does not decode.
    case other
    /// Past the last value.
    case end
  }

  init(message: DBusMessage, iterator: DBusMessageIter) {
    self.message = message
    self.iterator = iterator
  }

  /// The type of the value under the cursor.
  public var kind: Kind {
    var iterator = self.iterator
    return switch dbus_message_iter_get_arg_type(&iterator) {
    case CDBUS_TYPE_INVALID: .end
    case CDBUS_TYPE_BYTE: .byte
    case CDBUS_TYPE_BOOLEAN: .boolean
    case CDBUS_TYPE_INT16: .int16
    case CDBUS_TYPE_UINT16: .uint16
    case CDBUS_TYPE_INT32: .int32
    case CDBUS_TYPE_UINT32: .uint32
    case CDBUS_TYPE_INT64: .int64
    case CDBUS_TYPE_UINT64: .uint64
    case CDBUS_TYPE_DOUBLE: .double
    case CDBUS_TYPE_STRING: .string
    case CDBUS_TYPE_OBJECT_PATH: .objectPath
    case CDBUS_TYPE_SIGNATURE: .signature
    case CDBUS_TYPE_ARRAY: .array
    case CDBUS_TYPE_DICT_ENTRY: .dictionaryEntry
    case CDBUS_TYPE_STRUCT: .structure
    case CDBUS_TYPE_VARIANT: .variant
    case CDBUS_TYPE_UNIX_FD: .unixFD
    default: .other
    }
  }

  /// Moves to the next value of the same container; false when there is none.
  @discardableResult
  public mutating func next() -> Bool {
    dbus_message_iter_next(&iterator) != 0
  }

  /// A cursor on the first value inside the container (array, dictionary entry, structure or
  /// variant) under this one; at ``Kind/end`` for an empty one.
  public func contents() -> DBusCursor {
    var iterator = self.iterator
    var child = DBusMessageIter()
    dbus_message_iter_recurse(&iterator, &child)
    return DBusCursor(message: message, iterator: child)
  }

  /// The string, object path or signature under the cursor; nil for any other type.
  public func string() -> String? {
    switch kind {
    case .string, .objectPath, .signature:
      var iterator = self.iterator
      var pointer: UnsafePointer<CChar>? = nil
      dbus_message_iter_get_basic(&iterator, &pointer)
      return pointer.map { String(cString: $0) } ?? ""
    default:
      return nil
    }
  }

  /// The file descriptor under the cursor, as a descriptor of this process's own (libdbus hands
  /// over a duplicate each time it is asked, which the result closes); nil for any other type.
  public func fileDescriptor() -> FileDescriptor? {
    var iterator = self.iterator
    guard dbus_message_iter_get_arg_type(&iterator) == CDBUS_TYPE_UNIX_FD else { return nil }
    var raw: Int32 = -1
    dbus_message_iter_get_basic(&iterator, &raw)
    return raw >= 0 ? FileDescriptor(adopting: raw) : nil
  }

  /// The bytes of the `ay` under the cursor; nil for any other type.
  public func bytes() -> [UInt8]? {
    var iterator = self.iterator
    guard dbus_message_iter_get_arg_type(&iterator) == CDBUS_TYPE_ARRAY,
      dbus_message_iter_get_element_type(&iterator) == CDBUS_TYPE_BYTE
    else { return nil }
    var child = DBusMessageIter()
    dbus_message_iter_recurse(&iterator, &child)
    var pointer: UnsafeRawPointer? = nil
    var count: Int32 = 0
    dbus_message_iter_get_fixed_array(&child, &pointer, &count)
    guard let pointer, count > 0 else { return [] }
    return Array(UnsafeRawBufferPointer(start: pointer, count: Int(count)))
  }

  /// The signature of the value under the cursor, as libdbus gives it.
  public var signature: String {
    var iterator = self.iterator
    guard let pointer = dbus_message_iter_get_signature(&iterator) else { return "" }
    defer { dbus_free(pointer) }
    return String(cString: pointer)
  }

  /// The value under the cursor, decoded as ``DBusMessage/arguments()`` decodes it; nil for a
  /// type this module does not decode.
  public func value() -> DBusValue? {
    var iterator = self.iterator
    return DBusMessage.read(&iterator)
  }
}

extension DBusMessage {
  /// A cursor on argument number `index` (from 0), at ``DBusCursor/Kind/end`` when the message
  /// has no such argument.
  public func cursor(atArgument index: Int) -> DBusCursor {
    // Without arguments, libdbus's iterator still reads as the end; so does one stepped past
    // the last value.
    var iterator = DBusMessageIter()
    dbus_message_iter_init(raw, &iterator)
    var cursor = DBusCursor(message: self, iterator: iterator)
    for _ in 0..<index where !cursor.next() { break }
    return cursor
  }
}
