/// A reader for the `[Group]` / `Key=Value` format of desktop entries and GLib key files, and an
/// editor that changes one key of such a file and keeps every other line as written.
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

extension KeyFile {
  /// `text` with `key` of the last group `group` (the one ``value(_:in:)`` reads) set to `value`,
  /// escaped, or removed when `value` is `nil`. Other lines stay as they are, comments and line
  /// ends included. The key takes the place of its last line in the group, else comes after the
  /// group's last entry; a missing group is added at the end.
  public static func setting(_ key: String, in group: String, to value: String?, in text: String) -> String {
    let lines = Self.lines(of: text)
    let newline = lines.first?.end.isEmpty == false ? lines[0].end : "\n"
    let entry = value.map { "\(key)=\(escape($0))" }

    // The lines of the last group named `group`: its header, its entries.
    var header: Int?
    var groupEnd = lines.count
    for (index, line) in lines.enumerated() {
      guard let name = groupName(line.content) else { continue }
      if name == group {
        header = index
        groupEnd = lines.count
      } else if header != nil, groupEnd == lines.count {
        groupEnd = index
      }
    }
    guard let header else {
      guard let entry else { return text }
      let separator = text.isEmpty ? "" : (lines.last?.end.isEmpty == true ? newline + newline : newline)
      return text + separator + "[\(group)]" + newline + entry + newline
    }
    var keyLines: [Int] = []
    var lastEntry = header
    for index in (header + 1)..<groupEnd {
      let content = lines[index].content.drop { $0 == " " || $0 == "\t" }
      guard !content.isEmpty, !content.hasPrefix("#"), !content.hasPrefix(";"),
        let equals = content.firstIndex(of: "=")
      else { continue }
      lastEntry = index
      if content[..<equals].trimmingSpaces() == key { keyLines.append(index) }
    }
    var output: [(content: String, end: String)] = lines.map { (String($0.content), $0.end) }
    if let last = keyLines.last {
      if let entry { output[last].content = entry }
      // Earlier lines of the key (which the last one overrode) go, and the last one too when the
      // key is removed: lines, not only their text, so no empty line is left behind.
      let removed = Set(entry == nil ? keyLines : keyLines.dropLast())
      output = output.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
    } else if let entry {
      // A last line without its line end gets one before the entry follows it.
      if output[lastEntry].end.isEmpty { output[lastEntry].end = newline }
      output.insert((entry, newline), at: lastEntry + 1)
    }
    return output.map { $0.content + $0.end }.joined()
  }

  /// The group a line opens, as the reader sees it.
  private static func groupName(_ line: Substring) -> Substring? {
    let line = line.drop { $0 == " " || $0 == "\t" }
    guard line.hasPrefix("["), let end = line.lastIndex(of: "]") else { return nil }
    return line[line.index(after: line.startIndex)..<end]
  }

  /// The lines of `text` with their line ends (`\n`, `\r\n`, …; empty for a last line without).
  private static func lines(of text: String) -> [(content: Substring, end: String)] {
    var lines: [(Substring, String)] = []
    var start = text.startIndex
    var index = text.startIndex
    while index < text.endIndex {
      if text[index].isNewline {
        lines.append((text[start..<index], String(text[index])))
        start = text.index(after: index)
      }
      index = text.index(after: index)
    }
    if start < text.endIndex { lines.append((text[start...], "")) }
    return lines
  }

  /// A `string` value of a key file, a desktop entry's too: what ``value(_:in:)`` and GLib read
  /// back unchanged. Backslash, newline, carriage return and tab are escaped, and a leading space
  /// is kept as `\s`; scalar by scalar, so that a `\r\n` (one `Character`) is escaped too.
  package static func escape(_ value: String) -> String {
    let escaped = value.replacingScalars { scalar in
      switch scalar {
      case "\\": "\\\\"
      case "\n": "\\n"
      case "\r": "\\r"
      case "\t": "\\t"
      default: nil
      }
    }
    // Every escape starts with a backslash: a leading space is one the value had. By scalar: a
    // space and a combining mark after it are one Character, which `hasPrefix(" ")` would miss.
    guard escaped.unicodeScalars.first == " " else { return escaped }
    return "\\s" + String(escaped.unicodeScalars.dropFirst())
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
