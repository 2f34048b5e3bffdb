/// A reader for the `[Group]` / `Key=Value` format of desktop entries and GLib key files.
public struct KeyFile: Sendable, Equatable {
  /// Groups in file order, each with its entries in file order.
  public private(set) var groups: [(name: String, entries: [(key: String, value: String)])] = []

  public init(parsing text: String) {
    for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
      let line = rawLine.drop { $0 == " " || $0 == "\t" }
      // `;` starts a comment in the INI files people write by hand, as `#` does in key files.
      if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
      if line.hasPrefix("["), let end = line.lastIndex(of: "]") {
        groups.append((String(line[line.index(after: line.startIndex)..<end]), []))
      } else if let equals = line.firstIndex(of: "="), !groups.isEmpty {
        let key = line[..<equals].trimmingSpaces()
        let value = line[line.index(after: equals)...].trimmingSpaces()
        groups[groups.count - 1].entries.append((String(key), Self.unescape(value)))
      }
    }
  }

  /// The value of `key` in `group`, unescaped; the last one when a key repeats.
  public func value(_ key: String, in group: String) -> String? {
    groups.last { $0.name == group }?.entries.last { $0.key == key }?.value
  }

  /// A `;`-separated list, as `Hidden=a;b;`.
  public func list(_ key: String, in group: String) -> [String] {
    guard let raw = groups.last(where: { $0.name == group })?.entries.last(where: { $0.key == key })?.value
    else { return [] }
    return raw.split(separator: ";").map(String.init).filter { !$0.isEmpty }
  }

  public static func == (lhs: KeyFile, rhs: KeyFile) -> Bool {
    lhs.groups.elementsEqual(rhs.groups) { a, b in
      a.name == b.name && a.entries.elementsEqual(b.entries) { $0 == $1 }
    }
  }

  private static func unescape(_ value: Substring) -> String {
    var out = ""
    var iterator = value.makeIterator()
    while let character = iterator.next() {
      guard character == "\\", let next = iterator.next() else {
        out.append(character)
        continue
      }
      switch next {
      case "s": out.append(" ")
      case "n": out.append("\n")
      case "t": out.append("\t")
      case "r": out.append("\r")
      case "\\": out.append("\\")
      default: out.append("\\"); out.append(next)
      }
    }
    return out
  }
}

extension Substring {
  fileprivate func trimmingSpaces() -> Substring {
    var result = self
    while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
    while let last = result.last, last == " " || last == "\t" { result.removeLast() }
    return result
  }
}
