import Foundation
import ShareKit

/// A configuration file in the desktop's key-file ("INI") format:
///
/// ```ini
/// # a comment
/// [WebDAV]
/// URL=https://cloud.example/remote.php/dav/files/me/
/// ```
///
/// Spaces around `=` are ignored; values may use the key-file escapes `\s`, `\n`, `\t`, `\r` and
/// `\\` (any other backslash is kept as it is). Later keys win over earlier ones.
struct KeyFile: Sendable, Equatable {
  private(set) var groups: [String: [String: String]] = [:]

  init(parsing text: String) {
    var group: String?
    for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    {
      let line = rawLine.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
      if line.hasPrefix("[") {
        if let end = line.firstIndex(of: "]") {
          group = String(line[line.index(after: line.startIndex)..<end])
        }
        continue
      }
      guard let group, let equals = line.firstIndex(of: "=") else { continue }
      let key = line[..<equals].trimmingCharacters(in: .whitespaces)
      let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
      guard !key.isEmpty else { continue }
      groups[group, default: [:]][key] = Self.unescape(value)
    }
  }

  /// The file at `path`, or `nil` when there is none.
  ///
  /// - Throws: ``ShareError`` when the file exists but cannot be read as UTF-8 text.
  static func load(_ path: String) throws -> KeyFile? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    guard let data = FileManager.default.contents(atPath: path),
      let text = String(data: data, encoding: .utf8)
    else {
      throw ShareError("Cannot read \(path): it is not a readable UTF-8 text file")
    }
    return KeyFile(parsing: text)
  }

  /// The value of `key` in `group`, or `nil` when it is missing or empty.
  subscript(group: String, key: String) -> String? {
    groups[group]?[key].flatMap { $0.isEmpty ? nil : $0 }
  }

  static func unescape(_ value: String) -> String {
    guard value.contains("\\") else { return value }
    var result = ""
    var iterator = value.makeIterator()
    while let character = iterator.next() {
      guard character == "\\" else {
        result.append(character)
        continue
      }
      switch iterator.next() {
      case "s": result.append(" ")
      case "n": result.append("\n")
      case "t": result.append("\t")
      case "r": result.append("\r")
      case "\\": result.append("\\")
      case let other?: result += "\\" + String(other)
      case nil: result.append("\\")
      }
    }
    return result
  }
}
