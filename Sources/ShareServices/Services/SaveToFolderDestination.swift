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
  static func destination(chosen: String?, environment: ServiceEnvironment) throws -> FilePath {
    let configuration = environment.configFile("save-to-folder.ini")
    let choice = chosen.flatMap { $0.isEmpty || $0 == defaultFolderSetting ? nil : $0 }
    let configured = try choice ?? KeyFile.load(configuration)?["Save to Folder", "Folder"]
    let folder = configured.map(environment.expandingHome) ?? publicShareFolder(environment: environment)
    if let status = try? FileSystem.status(folder.bytes) {
      guard status.kind == .directory else {
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
      try FileSystem.makeDirectories(folder.bytes)
    } catch {
      throw ShareError("Cannot create the folder \(environment.abbreviated(folder)): \(error.reason)")
    }
    return folder
  }

  /// `XDG_PUBLICSHARE_DIR` from `user-dirs.dirs`, else `~/Public`. A folder set to the home
  /// folder itself means "disabled", as `xdg-user-dir` reads it. The file is read as bytes, so
  /// that a folder in it keeps its name even where it is not UTF-8.
  static func publicShareFolder(environment: ServiceEnvironment) -> FilePath {
    let file =
      FileSystem.contents(
        ofRegularFile: environment.configHome.appending("user-dirs.dirs").bytes, maximumSize: 1 << 20) ?? []
    if case .folder(let folder) = UserDirectories(file: file, home: environment.home).entry("PUBLICSHARE") {
      return folder
    }
    return environment.home.appending("Public")
  }
}
