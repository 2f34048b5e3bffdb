import ShareCore
import SharePOSIX
import ShareProtocol

/// Save to Folder's folder, settled on the host's side (docs/sandbox.md, "Chosen folders"): in
/// its sandbox the service sees neither the user's `save-to-folder.ini` nor `user-dirs.dirs` (its
/// `XDG_CONFIG_HOME` is its container), and only the folder it is to save into is bound. So the
/// host works out that folder as the service would unconfined, hands it in the request as the
/// `folder` configuration item, and the sandbox binds that folder and no other.
enum SaveToFolderChoice {
  /// The bundled Save to Folder service.
  static let serviceID = "org.xdgshare.save-to-folder"
  /// Its `folder` item's `Default`, which stands for "the folder used without a choice".
  static let defaultSetting = "~/Public"

  /// `request` with its `folder` item settled: a direct target (a folder saved to before) or a
  /// folder the user chose is kept; the default becomes `Folder=` of the host's
  /// `save-to-folder.ini`, else the desktop's Public Share folder, else `~/Public`, which is
  /// created when it is missing (as the service creates it). Other services' requests are
  /// returned as they are.
  static func settled(_ request: PluginRequest, service: ShareService, environment: [String: String])
    -> PluginRequest
  {
    guard service.id == serviceID, request.target == nil, let home = environment["HOME"], home.hasPrefix("/")
    else { return request }
    let value = request.compose?.configuration["folder"]
    guard value == nil || value == "" || value == defaultSetting else { return request }
    let paths = SearchPaths(environment: environment, inherited: CurrentProcess.environmentBytes)
    let homeLocation = FilePath(home)
    let ini = paths.configHomeLocation.appending("xdg-share").appending("save-to-folder.ini")
    let folder: FilePath
    if let bytes = FileSystem.contents(ofRegularFile: ini.bytes, maximumSize: 1 << 20),
      let text = String(validating: bytes, as: UTF8.self),
      let configured = KeyFile(parsing: text).value("Folder", in: "Save to Folder")
    {
      folder = expandingHome(configured, home: homeLocation)
    } else {
      folder = publicShareFolder(configHome: paths.configHomeLocation, home: homeLocation)
      if (try? FileSystem.status(folder.bytes)) == nil { try? FileSystem.makeDirectories(folder.bytes) }
    }
    guard let text = folder.string else { return request }
    var settled = request
    var compose = request.compose ?? ComposePayload(contentText: "")
    compose.configuration["folder"] = text
    settled.compose = compose
    return settled
  }

  /// The folder a direct target of Save to Folder names (a folder saved to before), bound as a
  /// chosen folder: only the bundled service's, only an absolute path.
  static func targetFolder(of request: PluginRequest, service: ShareService) -> FilePath? {
    guard service.id == serviceID, let id = request.target?.id, id.hasPrefix("/") else { return nil }
    return FilePath(id)
  }

  /// `~`, `$HOME` or `${HOME}` at the start is `home`; a relative path is relative to it.
  private static func expandingHome(_ path: String, home: FilePath) -> FilePath {
    if path == "~" || path == "$HOME" || path == "${HOME}" { return home }
    for prefix in ["~/", "$HOME/", "${HOME}/"] where path.hasPrefix(prefix) {
      return FilePath(bytes: home.bytes + [UInt8(ascii: "/")] + path.dropFirst(prefix.count).utf8)
    }
    return path.hasPrefix("/")
      ? FilePath(path) : FilePath(bytes: home.bytes + [UInt8(ascii: "/")] + path.utf8)
  }

  /// `XDG_PUBLICSHARE_DIR` from `user-dirs.dirs`, else `~/Public`; one set to the home folder
  /// itself means "disabled", as `xdg-user-dir` reads it.
  private static func publicShareFolder(configHome: FilePath, home: FilePath) -> FilePath {
    let file =
      FileSystem.contents(ofRegularFile: configHome.appending("user-dirs.dirs").bytes, maximumSize: 1 << 20)
      ?? []
    if case .folder(let folder) = UserDirectories(file: file, home: home).entry("PUBLICSHARE") {
      return folder
    }
    return home.appending("Public")
  }
}
