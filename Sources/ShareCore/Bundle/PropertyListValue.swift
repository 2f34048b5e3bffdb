import Foundation

/// A property-list value, typed, so that a wrong type in an Info.plist can be reported exactly.
public enum PropertyListValue: Sendable, Hashable {
  case string(String)
  case integer(Int)
  case real(Double)
  case boolean(Bool)
  case date(Date)
  case data(Data)
  case array([PropertyListValue])
  case dictionary([String: PropertyListValue])

  /// Converts what `PropertyListSerialization` returns.
  init(_ value: Any) {
    // The common cases first, as the types PropertyListSerialization returns on Linux
    // (`String`, `[AnyHashable: Any]`): a failed or bridging cast (a String tried as NSNumber, an
    // `[AnyHashable: Any]` converted to `[String: Any]`) costs as much as the parse itself.
    if let string = value as? String {
      self = .string(string)
      return
    }
    if let dictionary = value as? [AnyHashable: Any] {
      var entries: [String: PropertyListValue] = [:]
      entries.reserveCapacity(dictionary.count)
      for (key, inner) in dictionary {
        let name = (key.base as? String) ?? "\(key)"
        if entries[name] == nil { entries[name] = PropertyListValue(inner) }
      }
      self = .dictionary(entries)
      return
    }
    switch value {
    case let bool as Bool where type(of: value) == Bool.self: self = .boolean(bool)
    case let number as NSNumber:
      let kind = String(cString: number.objCType)
      self = kind == "d" || kind == "f" ? .real(number.doubleValue) : .integer(number.intValue)
    case let string as String: self = .string(string)
    case let date as Date: self = .date(date)
    case let data as Data: self = .data(data)
    case let array as [Any]: self = .array(array.map(PropertyListValue.init))
    case let dictionary as [String: Any]: self = .dictionary(dictionary.mapValues(PropertyListValue.init))
    case let dictionary as [AnyHashable: Any]:
      self = .dictionary(
        Dictionary(
          dictionary.map { ("\($0.key)", PropertyListValue($0.value)) },
          uniquingKeysWith: { first, _ in first }))
    default: self = .string("\(value)")
    }
  }

  /// Parses an XML, binary or OpenStep property list.
  static func parse(_ data: Data) throws -> PropertyListValue {
    PropertyListValue(try PropertyListSerialization.propertyList(from: data, options: [], format: nil))
  }

  var dictionaryValue: [String: PropertyListValue]? {
    if case .dictionary(let value) = self { value } else { nil }
  }

  var stringValue: String? {
    if case .string(let value) = self { value } else { nil }
  }
}
