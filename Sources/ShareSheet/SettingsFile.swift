import FoundationEssentials
import ShareCore
import SharePOSIX

/// `$XDG_CONFIG_HOME/xdg-share/settings.ini`, where pins and hidden services are kept.
///
/// Every change is made to the file as it is on disk at that moment (read, change, write): a
/// change made meanwhile by hand or by another picker is kept. The file is replaced atomically.
struct SettingsFile: Sendable {
  let path: String

  init(paths: SearchPaths) {
    path = paths.settingsFile
  }

  /// The settings; none when the file is missing or unreadable.
  func read() -> UserSettings {
    UserSettings(parsing: contents() ?? "")
  }

  /// Applies `change` to the settings on disk and writes the result; returns the settings now.
  @discardableResult
  func update(_ change: (inout UserSettings) -> Void) throws -> UserSettings {
    let text = contents() ?? ""
    var settings = UserSettings(parsing: text)
    change(&settings)
    let written = settings.written(over: text)
    guard written != text else { return settings }
    if let slash = path.lastIndex(of: "/") {
      try FileManager.default.createDirectory(
        atPath: String(path[..<slash]), withIntermediateDirectories: true)
    }
    // A file the user made private stays private.
    let mode = (try? FileSystem.status(Array(path.utf8)).permissions) ?? 0o644
    try FileSystem.writeAtomically(Array(written.utf8), to: Array(path.utf8), mode: mode)
    return settings
  }

  private func contents() -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
  }
}
