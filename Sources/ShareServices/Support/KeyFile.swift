import FoundationEssentials
import ShareCore
import ShareKit
import SharePOSIX

/// The services' configuration files are key files (`[WebDAV]` / `URL=…`), read with ShareCore's
/// reader.
extension KeyFile {
  /// The file at `path`, or `nil` when there is none.
  ///
  /// - Throws: ``ShareError`` when the file exists but cannot be read as UTF-8 text.
  static func load(_ path: FilePath) throws -> KeyFile? {
    guard (try? FileSystem.status(path.bytes)) != nil else { return nil }
    guard let bytes = FileSystem.contents(ofRegularFile: path.bytes, maximumSize: maximumSize),
      let text = String(validating: bytes, as: UTF8.self)
    else {
      throw ShareError("Cannot read \(path.text): it is not a readable UTF-8 text file")
    }
    return KeyFile(parsing: text)
  }

  /// The largest configuration file read: far more than any service's settings.
  static let maximumSize = 1 << 20

  /// The value of `key` in `group`, or `nil` when it is missing or empty.
  subscript(group: String, key: String) -> String? {
    value(key, in: group).flatMap { $0.isEmpty ? nil : $0 }
  }
}
