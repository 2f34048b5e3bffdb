/// How ``JSONValue/text(_:)`` lays a value out: the product's one JSON writer, in the few
/// layouts whose bytes people and programs already compare.
package struct JSONStyle: Sendable {
  /// The keys written first, in this order; the others follow, sorted.
  package var keyOrder: [String] = []
  /// Between a key and its value.
  package var colon = " : "
  /// Whether an empty array or object is written open, a blank line, and closed, as
  /// `JSONEncoder` writes it; otherwise `[]` and `{}`.
  package var emptyOnLines = false
  /// Whether the line and paragraph separators and DEL are escaped too, and every other control
  /// character as `\u00XX` (`\b` and `\f` included): text any reader, a JavaScript one too, takes
  /// as one line whatever a name holds.
  package var escapesSeparators = false
  /// Whether the text ends with a newline, as a file does.
  package var endsWithNewline = false

  /// Byte for byte what FoundationEssentials' `JSONEncoder` writes with `[.prettyPrinted,
  /// .sortedKeys, .withoutEscapingSlashes]`: keys sorted, two spaces a level, `"key" : value`, a
  /// string escaped as RFC 8259 requires and no further (`xdg-share share --json`).
  package static let encoder = JSONStyle(emptyOnLines: true)

  /// The reports (`xdg-share list`, `why` and `doctor --json`, the files of direct targets): as
  /// ``encoder``, but an empty array or object as `[]` and `{}`.
  package static let report = JSONStyle()

  /// The files other programs read (KDE Purpose's `metadata.json`, the browsers' manifests):
  /// `"key": value`, the members in `keyOrder`, every separator escaped, a newline at the end.
  package static func file(keyOrder: [String] = []) -> JSONStyle {
    JSONStyle(keyOrder: keyOrder, colon: ": ", escapesSeparators: true, endsWithNewline: true)
  }
}

extension JSONValue {
  /// The value as JSON text, laid out in `style`.
  ///
  /// Why not `JSONEncoder`: `xdg-share list --json` lives about 10 ms, and the encoder's first use
  /// (its generic containers made on the spot by the Swift runtime) was a twentieth of it.
  package func text(_ style: JSONStyle) -> String {
    var text = ""
    Self.write(self, style: style, indent: 0, into: &text)
    return style.endsWithNewline ? text + "\n" : text
  }

  private static func write(_ value: JSONValue, style: JSONStyle, indent: Int, into text: inout String) {
    let inner = String(repeating: "  ", count: indent + 1)
    func list(_ count: Int, _ open: String, _ close: String, _ element: (Int, inout String) -> Void) {
      guard count > 0 else {
        text +=
          style.emptyOnLines ? open + "\n\n" + String(repeating: "  ", count: indent) + close : open + close
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
    case .null: text += "null"
    case .bool(let bool): text += bool ? "true" : "false"
    case .number(let number):
      // A whole number as digits, as the encoder writes an integer.
      if number.rounded() == number, abs(number) < 0x1p53 {
        text += String(Int64(number))
      } else {
        text += "\(number)"
      }
    case .string(let string): quote(string, escapingSeparators: style.escapesSeparators, into: &text)
    case .array(let values):
      list(values.count, "[", "]") { Self.write(values[$0], style: style, indent: indent + 1, into: &$1) }
    case .object(let members):
      let listed = style.keyOrder.filter { members[$0] != nil }
      let keys = listed + members.keys.filter { !listed.contains($0) }.sorted()
      list(keys.count, "{", "}") { index, text in
        quote(keys[index], escapingSeparators: style.escapesSeparators, into: &text)
        text += style.colon
        Self.write(members[keys[index]]!, style: style, indent: indent + 1, into: &text)
      }
    }
  }

  /// `string` between quotes: the quote, the backslash and the C0 controls escaped (by their
  /// short names where JSON has one), and with `escapingSeparators` DEL, U+2028 and U+2029 too.
  private static func quote(_ string: String, escapingSeparators: Bool, into text: inout String) {
    text += "\""
    let utf8 = string.utf8
    var plainStart = utf8.startIndex
    var index = utf8.startIndex
    while index < utf8.endIndex {
      let byte = utf8[index]
      var next = utf8.index(after: index)
      let escape: String
      switch byte {
      case UInt8(ascii: "\""): escape = "\\\""
      case UInt8(ascii: "\\"): escape = "\\\\"
      case UInt8(ascii: "\n"): escape = "\\n"
      case UInt8(ascii: "\r"): escape = "\\r"
      case UInt8(ascii: "\t"): escape = "\\t"
      case 0x08 where !escapingSeparators: escape = "\\b"
      case 0x0C where !escapingSeparators: escape = "\\f"
      case ..<0x20: escape = hex(UInt32(byte))
      case 0x7F where escapingSeparators: escape = hex(0x7F)
      // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
      case 0xE2 where escapingSeparators:
        let rest = utf8[next...].prefix(2)
        guard rest.elementsEqual([0x80, 0xA8]) || rest.elementsEqual([0x80, 0xA9]) else {
          index = next
          continue
        }
        escape = hex(rest.last == 0xA8 ? 0x2028 : 0x2029)
        next = utf8.index(next, offsetBy: 2)
      default:
        index = next
        continue
      }
      // Through `String(…)`: `+=` of a `Substring` is the generic `append(contentsOf:)`,
      // unspecialized here, whose first call has the runtime look up associated types (a tenth
      // of a millisecond).
      text += String(string[plainStart..<index])
      text += escape
      index = next
      plainStart = next
    }
    text += String(string[plainStart...])
    text += "\""
  }

  /// `\uXXXX`, lowercase.
  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
  }
}
