/// The D-Bus activation file, `dbus-1/services/org.xdgshare.Share.service`: the session bus starts
/// `xdg-share daemon` when the Nautilus extension (or anyone) calls `org.xdgshare.Share`.
///
/// `dbus-daemon` splits Exec like a shell without running one, so the path is single-quoted when
/// it needs to be.
enum DBusActivationFile {
  static var path: String { "dbus-1/services/\(FileManagerIntegration.busName).service" }

  static func file(executable: String) -> GeneratedFile {
    let lines = [
      "[D-BUS Service]",
      "Name=" + FileManagerIntegration.busName,
      "Exec=" + dbusExecWord(executable) + " daemon",
    ]
    return GeneratedFile(path: path, lines: lines, family: .dbus)
  }
}
