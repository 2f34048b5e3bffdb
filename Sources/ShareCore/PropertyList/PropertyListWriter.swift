/// Writes ``PropertyListValue``s as XML property lists, the form Apple's tools write and every
/// reader accepts, with the standard library alone. ``PropertyListReader`` reads back exactly the
/// value written (a real's digits are Swift's shortest round-tripping ones).
public enum PropertyListWriter {
  /// `value` as an XML property list, indented with tabs as Xcode indents.
  ///
  /// Dictionary keys come in the order of `positions` (where each value began in the text it was
  /// read from, as ``PropertyListDocument/positions`` gives them), so that a file read and written
  /// again keeps its order; keys without a position follow, sorted.
  public static func xml(_ value: PropertyListValue, positions: [[String]: TextPosition] = [:]) -> String {
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#,
      #"<plist version="1.0">"#,
    ]
    // Nesting is followed with an explicit stack, as the reader does: no input can make it recurse.
    enum Work {
      case value(PropertyListValue, path: [String], depth: Int)
      case line(String)
    }
    var stack: [Work] = [.value(value, path: [], depth: 0)]
    // Key paths only matter for finding positions; without any, each level need not copy one.
    func child(_ path: [String], _ component: String) -> [String] {
      positions.isEmpty ? [] : path + [component]
    }
    while let work = stack.popLast() {
      switch work {
      case .line(let line):
        lines.append(line)
      case .value(let value, let path, let depth):
        let indent = String(repeating: "\t", count: depth)
        switch value {
        case .dictionary(let values) where values.isEmpty:
          lines.append(indent + "<dict/>")
        case .dictionary(let values):
          lines.append(indent + "<dict>")
          var pending: [Work] = []
          for key in orderedKeys(values, path: path, positions: positions) {
            pending.append(.line(indent + "\t<key>" + escaped(key) + "</key>"))
            if let element = values[key] {
              pending.append(.value(element, path: child(path, key), depth: depth + 1))
            }
          }
          stack.append(.line(indent + "</dict>"))
          stack += pending.reversed()
        case .array(let elements) where elements.isEmpty:
          lines.append(indent + "<array/>")
        case .array(let elements):
          lines.append(indent + "<array>")
          stack.append(.line(indent + "</array>"))
          for (index, element) in elements.enumerated().reversed() {
            stack.append(.value(element, path: child(path, String(index)), depth: depth + 1))
          }
        case .string(let text): lines.append(indent + "<string>" + escaped(text) + "</string>")
        case .integer(let number): lines.append(indent + "<integer>\(number)</integer>")
        case .real(let number): lines.append(indent + "<real>" + real(number) + "</real>")
        case .boolean(let flag): lines.append(indent + (flag ? "<true/>" : "<false/>"))
        case .date(let seconds): lines.append(indent + "<date>" + date(seconds) + "</date>")
        case .data(let bytes): lines.append(indent + "<data>" + base64(bytes) + "</data>")
        }
      }
    }
    lines.append("</plist>")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The keys of the dictionary at `path`: those read from a file in the file's order, then the
  /// others sorted.
  static func orderedKeys(
    _ values: [String: PropertyListValue], path: [String], positions: [[String]: TextPosition]
  ) -> [String] {
    var placed: [(key: String, position: TextPosition)] = []
    var others: [String] = []
    for key in values.keys {
      if let position = positions[path + [key]] { placed.append((key, position)) } else { others.append(key) }
    }
    placed.sort { ($0.position, $0.key) < ($1.position, $1.key) }
    return placed.map(\.key) + others.sorted()
  }

  /// Text as XML character data: `&`, `<` and `>` as entities, and the characters XML 1.0 cannot
  /// hold or would change (other control characters, a carriage return) as character references.
  static func escaped(_ text: String) -> String {
    text.replacingScalars { scalar in
      switch scalar {
      case "&": "&amp;"
      case "<": "&lt;"
      case ">": "&gt;"
      case "\t", "\n": nil
      case _
      where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
        "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
      default: nil
      }
    }
  }

  /// A real as CoreFoundation's reader takes it: Swift's shortest round-tripping digits, and
  /// `nan`, `+infinity`, `-infinity`.
  static func real(_ number: Double) -> String {
    if number.isNaN { return "nan" }
    if number.isInfinite { return number < 0 ? "-infinity" : "+infinity" }
    return "\(number)"
  }

  /// Seconds since 2001-01-01T00:00:00Z as `YYYY-MM-DDTHH:MM:SSZ`, whole seconds (what XML
  /// property lists hold), rounded down.
  static func date(_ seconds: Double) -> String {
    guard seconds.isFinite, abs(seconds) < 1e15 else { return "2001-01-01T00:00:00Z" }
    let reference = PropertyListScalars.daysFromCivil(year: 2001, month: 1, day: 1)
    let whole = Int(seconds.rounded(.down))
    let (days, secondOfDay) = floorDivision(whole, 86_400)
    let (year, month, day) = civil(fromDays: days + reference)
    func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
    let yearText = year < 0 ? "-" + four(-year) : four(year)
    return
      "\(yearText)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
  }

  private static func four(_ number: Int) -> String {
    String(repeating: "0", count: max(0, 4 - String(number).count)) + String(number)
  }

  private static func floorDivision(_ a: Int, _ b: Int) -> (Int, Int) {
    let remainder = ((a % b) + b) % b
    return ((a - remainder) / b, remainder)
  }

  /// The civil date of a day counted from 1970-01-01 (Howard Hinnant's algorithm; the inverse
  /// of ``PropertyListScalars/daysFromCivil(year:month:day:)``).
  static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  static func base64(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index < bytes.count {
      let chunk = bytes[index..<min(index + 3, bytes.count)]
      let group = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * $1.offset) }
      for digit in 0..<4 {
        out.append(digit <= chunk.count ? alphabet[Int(group >> (18 - 6 * digit) & 0x3F)] : UInt8(ascii: "="))
      }
      index += 3
    }
    return String(decoding: out, as: UTF8.self)
  }
}
