/// JSON text for objects of strings, as the command line prints them: keys sorted, two spaces of
/// indentation, `"key" : value`, slashes left alone. Byte for byte what FoundationEssentials'
/// `JSONEncoder` writes with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`.
///
/// Why not that encoder: `xdg-share list --json` lives about 10 ms, and the encoder's first use
/// (its generic containers made on the spot by the Swift runtime) was a twentieth of it.
package enum JSONText {
  /// One object: `{`, its members sorted by key, `}`.
  package static func object(_ members: [String: String]) -> String {
    var text = ""
    write(members, indent: 0, into: &text)
    return text
  }

  /// An array of objects.
  package static func array(_ objects: [[String: String]]) -> String {
    var text = "[\n"
    for (index, object) in objects.enumerated() {
      if index > 0 { text += ",\n" }
      text += "  "
      write(object, indent: 1, into: &text)
    }
    // An empty container keeps its blank line, as the encoder writes it.
    text += "\n]"
    return text
  }

  /// A report (``ReportValue``): objects with sorted keys, arrays one element a line, empty
  /// ones as `[]` and `{}`.
  package static func report(_ object: [String: ReportValue]) -> String {
    var text = ""
    write(.object(object), indent: 0, into: &text)
    return text
  }

  /// An array of reports, written as ``array(_:)`` writes objects of strings (an empty one with
  /// its blank line).
  package static func reportArray(_ objects: [[String: ReportValue]]) -> String {
    guard !objects.isEmpty else { return "[\n\n]" }
    var text = ""
    write(.objects(objects), indent: 0, into: &text)
    return text
  }

  private static func write(_ value: ReportValue, indent: Int, into text: inout String) {
    let inner = String(repeating: "  ", count: indent + 1)
    func list(_ count: Int, _ open: String, _ close: String, _ element: (Int, inout String) -> Void) {
      guard count > 0 else {
        text += open + close
        return
      }
      text += open + "\n"
      for index in 0..<count {
        if index > 0 { text += ",\n" }
        text += inner
        element(index, &text)
      }
      text += "\n" + String(repeating: "  ", count: indent) + close
    }
    switch value {
    case .string(let string): quote(string, into: &text)
    case .bool(let bool): text += bool ? "true" : "false"
    case .integer(let integer): text += String(integer)
    case .strings(let strings): list(strings.count, "[", "]") { quote(strings[$0], into: &$1) }
    case .objects(let objects):
      list(objects.count, "[", "]") { write(.object(objects[$0]), indent: indent + 1, into: &$1) }
    case .object(let members):
      let keys = members.keys.sorted()
      list(keys.count, "{", "}") { index, text in
        quote(keys[index], into: &text)
        text += " : "
        write(members[keys[index]]!, indent: indent + 1, into: &text)
      }
    }
  }

  private static func write(_ members: [String: String], indent: Int, into text: inout String) {
    let inner = String(repeating: "  ", count: indent + 1)
    text += "{\n"
    for (index, key) in members.keys.sorted().enumerated() {
      if index > 0 { text += ",\n" }
      text += inner
      quote(key, into: &text)
      text += " : "
      quote(members[key] ?? "", into: &text)
    }
    text += "\n" + String(repeating: "  ", count: indent) + "}"
  }

  /// `string` between quotes, escaped as RFC 8259 requires and no further: the quote, the
  /// backslash and the C0 controls (by their short names where JSON has one).
  private static func quote(_ string: String, into text: inout String) {
    text += "\""
    var plainStart = string.utf8.startIndex
    for index in string.utf8.indices {
      let byte = string.utf8[index]
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
      text += String(string[plainStart..<index])
      switch byte {
      case UInt8(ascii: "\""): text += "\\\""
      case UInt8(ascii: "\\"): text += "\\\\"
      case 0x08: text += "\\b"
      case 0x0C: text += "\\f"
      case UInt8(ascii: "\n"): text += "\\n"
      case UInt8(ascii: "\r"): text += "\\r"
      case UInt8(ascii: "\t"): text += "\\t"
      default:
        let hex = Array("0123456789abcdef".utf8)
        text += "\\u00" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
      }
      plainStart = string.utf8.index(after: index)
    }
    // Through `String(…)`: `+=` of a `Substring` is the generic `append(contentsOf:)`, unspecialized
    // here, whose first call has the runtime look up associated types (a tenth of a millisecond).
    text += String(string[plainStart...])
    text += "\""
  }
}
