/// A property-list value, typed, so that a wrong type in an Info.plist can be reported exactly.
/// ``PropertyListReader`` reads one from XML, binary and old-style property lists.
public enum PropertyListValue: Sendable, Hashable {
  case string(String)
  case integer(Int)
  case real(Double)
  case boolean(Bool)
  /// Seconds since 2001-01-01T00:00:00Z, the reference date of Apple's property lists.
  case date(Double)
  case data([UInt8])
  case array([PropertyListValue])
  case dictionary([String: PropertyListValue])

  var dictionaryValue: [String: PropertyListValue]? {
    if case .dictionary(let value) = self { value } else { nil }
  }

  var stringValue: String? {
    if case .string(let value) = self { value } else { nil }
  }
}
