import FoundationEssentials
import ShareCore
import ShareKit

/// The services' configuration files are key files (`[WebDAV]` / `URL=…`), read with ShareCore's
/// reader.
extension KeyFile {
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
    value(key, in: group).flatMap { $0.isEmpty ? nil : $0 }
  }
}
