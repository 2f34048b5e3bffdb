/// The XDG user folders `$XDG_CONFIG_HOME/user-dirs.dirs` names, read as `xdg-user-dir` reads
/// them, by bytes: `XDG_PUBLICSHARE_DIR="$HOME/Public"`, a value in double quotes with backslash
/// escapes, `$HOME` at its start meaning the home folder.
///
/// One reader for the host (Save to Folder's default, the folders a sandbox binds) and the
/// services, so that they agree on which folder is meant.
public struct UserDirectories: Sendable {
  /// What the file says of one folder.
  public enum Entry: Equatable, Sendable {
    /// This folder.
    case folder(FilePath)
    /// Set to the home folder itself ("disabled", as `xdg-user-dir` reads it) or to a path that
    /// is not absolute.
    case disabled
    /// Not named: the folder's default applies.
    case notNamed
  }

  /// The file's contents (empty when there is none).
  public let file: [UInt8]
  public let home: FilePath

  public init(file: [UInt8], home: FilePath) {
    self.file = file
    self.home = home
  }

  /// What the file says of `XDG_<name>_DIR` (`PUBLICSHARE`, `DOWNLOAD`, `PICTURES`, …); the first
  /// line that names it with a quoted value counts.
  public func entry(_ name: String) -> Entry {
    let key = Array("XDG_\(name)_DIR=".utf8)
    for rawLine in file.split(separator: UInt8(ascii: "\n")) {
      let line = Self.trimmingBlanks(rawLine)
      guard line.starts(with: key), let value = Self.quotedValue(line.dropFirst(key.count)) else { continue }
      let homeWord = Array("$HOME".utf8)
      let folder = value.starts(with: homeWord) ? home.bytes + value.dropFirst(homeWord.count) : value
      guard folder.first == UInt8(ascii: "/") else { return .disabled }
      let trimmed = FilePath(bytes: folder).trimmingTrailingSlashes
      return trimmed.bytes == home.trimmingTrailingSlashes.bytes ? .disabled : .folder(trimmed)
    }
    return .notNamed
  }

  private static func trimmingBlanks(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == 0x0D }
    guard let first = line.firstIndex(where: { !blank($0) }), let last = line.lastIndex(where: { !blank($0) })
    else { return [] }
    return line[first...last]
  }

  /// A value in double quotes, its backslash escapes undone; `nil` when it is not quoted.
  private static func quotedValue(_ raw: ArraySlice<UInt8>) -> [UInt8]? {
    let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    guard raw.count >= 2, raw.first == quote, raw.last == quote else { return nil }
    var value: [UInt8] = []
    var escaped = false
    for byte in raw.dropFirst().dropLast() {
      if !escaped && byte == backslash {
        escaped = true
      } else {
        value.append(byte)
        escaped = false
      }
    }
    return value
  }
}
