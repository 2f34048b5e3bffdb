import ShareCore

/// The application entry, `applications/org.xdgshare.Share.desktop` (Desktop Entry
/// Specification 1.4): "Share" in application menus and launchers, which opens the share sheet
/// with the files it is given, and a desktop action per service that goes straight to it.
///
/// It lists no `MimeType`: GIO makes a user's application that lists a type the default for it,
/// and a Share entry must never become the program that opens a PNG.
enum ApplicationEntry {
  static let path = "applications/\(FileManagerIntegration.busName).desktop"

  /// The name, comment and keywords, in English and in the translations given, by locale.
  static let names = [("", "Share"), ("de", "Teilen"), ("fr", "Partager")]
  static let comments = [
    ("", "Share files with a service"), ("de", "Dateien mit einem Dienst teilen"),
    ("fr", "Partager des fichiers avec un service"),
  ]
  static let keywords = [
    ("", ["share", "send"]), ("de", ["teilen", "senden"]), ("fr", ["partager", "envoyer"]),
  ]

  static func file(for entries: [MenuEntry], executable: String) -> GeneratedFile {
    func localized(_ key: String, _ values: [(String, String)]) -> [String] {
      values.map { locale, value in key + (locale.isEmpty ? "" : "[\(locale)]") + "=" + value }
    }
    let actions = actionIDs(for: entries.map(\.service.id))
    var lines = ["[Desktop Entry]", "Type=Application"]
    lines += localized("Name", names)
    lines += localized("Comment", comments)
    lines += [
      "Icon=" + ShareService.defaultIcon,
      "TryExec=" + DesktopEntry.escape(executable),
      "Exec=" + DesktopEntry.pickerExec(executable: executable),
      "Terminal=false",
      "StartupNotify=true",
      "Categories=Utility;",
    ]
    lines += localized("Keywords", keywords.map { ($0, DesktopEntry.list($1)) })
    if !actions.isEmpty { lines.append("Actions=" + DesktopEntry.list(actions)) }
    for (action, entry) in zip(actions, entries) {
      lines += DesktopEntry.actionGroup(
        action, name: entry.service.name, icon: entry.service.icon,
        exec: DesktopEntry.launcherExec(executable: executable, serviceID: entry.service.id))
    }
    return GeneratedFile(
      path: path, lines: lines, family: .application)
  }

  /// One action identifier per service identifier, in order: every character the specification
  /// does not allow in one (it allows `A-Z a-z 0-9 -`) made `-`, and `-2`, `-3`… appended to one
  /// taken already, so that `org.example.a_b` and `org.example.a-b` both get an action.
  static func actionIDs(for serviceIDs: [String]) -> [String] {
    var taken: Set<String> = []
    return serviceIDs.map { id in
      let base = String(
        id.unicodeScalars.map { scalar -> Character in
          switch scalar {
          case "A"..."Z", "a"..."z", "0"..."9", "-": Character(scalar)
          default: "-"
          }
        })
      var candidate = base
      var suffix = 2
      while !taken.insert(candidate).inserted {
        candidate = "\(base)-\(suffix)"
        suffix += 1
      }
      return candidate
    }
  }
}
