/// A D-Bus value with its type, as it travels in a message.
public indirect enum DBusValue: Equatable, Sendable {
  case byte(UInt8)
  case boolean(Bool)
  case int16(Int16)
  case uint16(UInt16)
  case int32(Int32)
  case uint32(UInt32)
  case int64(Int64)
  case uint64(UInt64)
  case double(Double)
  case string(String)
  case objectPath(String)
  case signature(String)
  /// An array of values of one type; `elementSignature` types an empty array.
  case array(elementSignature: String, [DBusValue])
  /// `ay`, kept as bytes: file paths travel this way.
  case bytes([UInt8])
  /// A dictionary `a{kv}`, entries in order.
  case dictionary(keySignature: String, valueSignature: String, [DictionaryEntry])
  case structure([DBusValue])
  case variant(DBusValue)

  public struct DictionaryEntry: Equatable, Sendable {
    public var key: DBusValue
    public var value: DBusValue

    public init(_ key: DBusValue, _ value: DBusValue) {
      self.key = key
      self.value = value
    }
  }

  /// The value's D-Bus type signature.
  public var signature: String {
    switch self {
    case .byte: "y"
    case .boolean: "b"
    case .int16: "n"
    case .uint16: "q"
    case .int32: "i"
    case .uint32: "u"
    case .int64: "x"
    case .uint64: "t"
    case .double: "d"
    case .string: "s"
    case .objectPath: "o"
    case .signature: "g"
    case .array(let element, _): "a" + element
    case .bytes: "ay"
    case .dictionary(let key, let value, _): "a{" + key + value + "}"
    case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
    case .variant: "v"
    }
  }

  /// An `a{sv}` dictionary, the usual shape of options and results.
  public static func vardict(_ entries: [(String, DBusValue)]) -> DBusValue {
    .dictionary(
      keySignature: "s", valueSignature: "v", entries.map { DictionaryEntry(.string($0.0), .variant($0.1)) })
  }

  /// The entries of an `a{sv}`, unwrapped; `nil` when this is no `a{sv}`.
  public var vardictEntries: [(key: String, value: DBusValue)]? {
    guard case .dictionary("s", "v", let entries) = self else { return nil }
    return entries.compactMap { entry in
      guard case .string(let key) = entry.key, case .variant(let value) = entry.value else { return nil }
      return (key, value)
    }
  }

  public var stringValue: String? {
    if case .string(let value) = self { value } else { nil }
  }
}
