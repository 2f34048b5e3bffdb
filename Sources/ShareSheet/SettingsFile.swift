import ShareCore
import SharePOSIX

/// `$XDG_CONFIG_HOME/xdg-share/settings.ini`, where pins and hidden services are kept.
///
/// Every change is made to the file as it is on disk at that moment (read, change, write): a
/// change made meanwhile by hand or by another picker is kept. The file is replaced atomically,
/// by bytes: a configuration folder whose path is not UTF-8 is written like any other.
struct SettingsFile: Sendable {
  let path: FilePath

  init(paths: SearchPaths) {
    path = paths.settingsFileLocation
  }

  /// The settings; none when the file is missing or unreadable.
  func read() -> UserSettings {
    UserSettings(parsing: contents() ?? "")
  }

  /// Applies `change` to the settings on disk and writes the result; returns the settings now.
  @discardableResult
  func update(_ change: (inout UserSettings) -> Void) throws -> UserSettings {
    // A file that is there but cannot be read (too large, not a regular file, no permission) is
    // left alone: writing over it would lose whatever else it holds.
    guard let text = contents() ?? (exists ? nil : "") else {
      throw SystemError.notReadable(path.text)
    }
    var settings = UserSettings(parsing: text)
    change(&settings)
    let written = settings.written(over: text)
    guard written != text else { return settings }
    if let slash = path.bytes.lastIndex(of: UInt8(ascii: "/")), slash > 0 {
      try FileSystem.makeDirectories(Array(path.bytes[..<slash]))
    }
    // A file the user made private stays private.
    let mode = (try? FileSystem.status(path.bytes).permissions) ?? 0o644
    try FileSystem.writeAtomically(Array(written.utf8), to: path.bytes, mode: mode)
    return settings
  }

  /// Whether anything is at the path (a link that leads nowhere counts as nothing).
  private var exists: Bool {
    (try? FileSystem.status(path.bytes)) != nil
  }

  /// Read as the catalog reads it (ShareHost's `ServiceCatalog`): a regular file of at most 1 MiB.
  private func contents() -> String? {
    FileSystem.contents(ofRegularFile: path.bytes, maximumSize: 1 << 20).map {
      String(decoding: $0, as: UTF8.self)
    }
  }
}
