import FoundationEssentials
import ShareCore
import ShareKit
import SharePOSIX

/// Where Save to Folder saves: the folder the user chose, configured, or the desktop's Public one.
extension SaveToFolderService {
  /// The `folder` configuration item's `Default` in the bundle's `Info.plist`: the sheet shows it
  /// until the user chooses another folder, and it stands for the folder used without a choice
  /// (`Folder=`, else the desktop's Public folder, which may have another name).
  static let defaultFolderSetting = "~/Public"

  /// The folder to save into: `chosen` (the configuration item), else `Folder=`, else the
  /// desktop's Public folder. The Public folder is created when it is missing; a folder the user
  /// chose must exist, so that a typing mistake does not scatter files into a new folder nobody
  /// looks at.
  static func destination(chosen: String?, environment: ServiceEnvironment) throws -> String {
    let configuration = environment.configFile("save-to-folder.ini")
    let choice = chosen.flatMap { $0.isEmpty || $0 == defaultFolderSetting ? nil : $0 }
    let configured = try choice ?? KeyFile.load(configuration)?["Save to Folder", "Folder"]
    let folder = configured.map(environment.expandingHome) ?? publicShareFolder(environment: environment)
    var isDirectory = false
    if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
      guard isDirectory else {
        throw ShareError("Cannot save into \(environment.abbreviated(folder)): it is a file, not a folder")
      }
      return folder
    }
    if choice != nil {
      throw ShareError(
        "The folder \(environment.abbreviated(folder)) chosen in the settings does not exist; choose another: "
          + "xdg-share configure \(identifier)")
    }
    if configured != nil {
      throw ShareError(
        "The folder \(environment.abbreviated(folder)) set in \(environment.abbreviated(configuration)) does not exist"
      )
    }
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw ShareError(
        "Cannot create the folder \(environment.abbreviated(folder)): \(Self.reason(error))")
    }
    return folder
  }

  /// `XDG_PUBLICSHARE_DIR` from `user-dirs.dirs`, else `~/Public`. A folder set to the home
  /// folder itself means "disabled", as `xdg-user-dir` reads it.
  static func publicShareFolder(environment: ServiceEnvironment) -> String {
    let fallback = environment.home + "/Public"
    guard let data = FileManager.default.contents(atPath: environment.configHome + "/user-dirs.dirs"),
      let text = String(data: data, encoding: .utf8)
    else { return fallback }
    for line in text.split(whereSeparator: \.isNewline) {
      let line = line.trimmingSpaces()
      guard line.hasPrefix("XDG_PUBLICSHARE_DIR="), let value = userDirsValue(line.dropFirst(20)) else {
        continue
      }
      let folder = value.hasPrefix("$HOME") ? environment.home + value.dropFirst(5) : value
      guard folder.hasPrefix("/") else { return fallback }
      let trimmed = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
      return trimmed == environment.home ? fallback : trimmed
    }
    return fallback
  }

  /// A `user-dirs.dirs` value: `"$HOME/Public"`, in double quotes, with backslash escapes.
  static func userDirsValue(_ raw: Substring) -> String? {
    guard raw.hasPrefix("\""), raw.count >= 2, raw.hasSuffix("\"") else { return nil }
    var value = ""
    var escaped = false
    for character in raw.dropFirst().dropLast() {
      if escaped {
        value.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else {
        value.append(character)
      }
    }
    return value
  }

  static func reason(_ error: any Error) -> String {
    if let error = error as? CocoaError, let underlying = error.underlying as? POSIXError {
      return SystemError(call: "mkdir", errno: underlying.code.rawValue).reason
    }
    return ShareError.report(for: error).message
  }
}
