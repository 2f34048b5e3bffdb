import ShareCore
import ShareDesktop

/// The words of `register` and `unregister`.
extension Wording {
  static func nothingRegistered(in folder: String) -> String {
    "Nothing to remove: xdg-share has not registered anything in \(folder)"
  }

  static func describe(_ error: IntegrationError) -> String {
    switch error {
    case .unsuitableExecutable(let path):
      "cannot write entries that run \(FilePath(path).displayString): the path must be absolute, without backslashes or control characters"
    case .unreadableManifest(let path, let reason):
      "\(path): \(reason); remove it to start afresh (files it listed are then left in place)"
    }
  }

  static func lines(for report: RegistrationReport) -> [String] {
    let count = report.rendering.entries.count
    var lines = ["Share entries for \(count) \(count == 1 ? "service" : "services") in \(report.dataFolder):"]
    for family in FileManagerFamily.allCases {
      let files = report.files(of: family)
      lines.append("  \(label(family)): " + summary(family, files: files))
    }
    for path in report.removed { lines.append("Removed \(path)") }
    if let settings = report.changedSettings { lines.append("Set up caja-actions in \(settings)") }
    for skipped in report.rendering.skipped {
      let reason =
        switch skipped.reason {
        case .unsafeIdentifier: "its identifier has characters other than A-Z a-z 0-9 . _ -"
        case .takesNoFiles: "it takes no files, only text or links"
        }
      lines.append("Not in file managers: \(skipped.name) (\(skipped.id)): \(reason)")
    }
    for file in report.leftAlone { lines.append(describe(file)) }
    if !report.advice.isEmpty { lines.append("Still to do:") }
    for advice in report.advice { lines.append("  " + describe(advice)) }
    return lines
  }

  static func describe(_ advice: Advice) -> String {
    switch advice {
    case .installPackage(let package, _, let program):
      "\(program) shows the entries only with \(package): sudo apt install \(package)"
    case .installPackageToRun(let package, _, let program):
      "\(program): the entries work only with \(package): sudo apt install \(package)"
    case .restart(let command, let family):
      "\(label(family)): the entries show after a restart (if running: `\(command)`, then open it again)"
    }
  }

  static func lines(for report: UnregistrationReport) -> [String] {
    var lines = [
      "Removed \(report.removed.count) \(report.removed.count == 1 ? "file" : "files") from \(report.dataFolder)"
    ]
    if let settings = report.restoredSettings {
      lines.append("Restored caja-actions settings in \(settings)")
    }
    for file in report.leftAlone { lines.append(describe(file)) }
    return lines
  }

  private static func describe(_ file: LeftAlone) -> String {
    switch file.reason {
    case .notWrittenByXDGShare: "Left alone \(file.path): xdg-share did not write it"
    case .editedSince: "Left alone \(file.path): it was edited since xdg-share wrote it"
    }
  }

  static func label(_ family: FileManagerFamily) -> String {
    switch family {
    case .dolphin: "Dolphin"
    case .nautilus: "Nautilus"
    case .thunar: "Thunar"
    case .nemo: "Nemo"
    case .desktopActions: "Caja, PCManFM, PCManFM-Qt"
    case .dbus: "D-Bus"
    case .application: "Application menu"
    case .purpose: "KDE applications"
    case .browsers: "Web browsers"
    }
  }

  private static func summary(_ family: FileManagerFamily, files: [GeneratedFile]) -> String {
    guard let first = files.first else { return "nothing" }
    let folder = PathText.parent(of: first.path)
    // The services' entries; "Share…", which opens the share sheet, is named apart.
    let count = files.filter { !$0.opensPicker }.count
    let sheet = files.contains(where: \.opensPicker) ? "Share… and " : ""
    switch family {
    case .dolphin:
      // Only folders' menus, where Purpose's Share menu has the files' services.
      guard first.contents.contains("\nMimeType=inode/directory;\n") else {
        return "\(sheet)\(count) service \(count == 1 ? "menu" : "menus") in \(folder), in the Share submenu"
      }
      return
        "\(sheet)\(count) service \(count == 1 ? "menu" : "menus") for folders in \(folder), in the Share "
        + "submenu; for files, Purpose's Share menu"
    case .thunar: return "\(sheet)\(count) Send To \(count == 1 ? "entry" : "entries") in \(folder)"
    case .nemo: return "\(sheet)\(count) \(count == 1 ? "action" : "actions") in \(folder)"
    case .desktopActions:
      return "a Share menu with \(sheet)\(count - 1) \(count == 2 ? "action" : "actions") in \(folder)"
    case .nautilus: return first.path + " (asks the D-Bus service when the menu opens)"
    case .dbus: return first.path
    case .application: return first.path + " (Share, with an action per service)"
    case .purpose:
      // Three files a plugin, a folder each; "Share…" is named apart, as in the file managers'
      // lines, so that the count and the folders written agree. Purpose's Share menu is every KDE
      // application's, Dolphin's Share submenu included.
      let plugins = files.filter { !$0.opensPicker && $0.path.hasSuffix("/metadata.json") }.count
      return "\(sheet)\(plugins) Purpose \(plugins == 1 ? "plugin" : "plugins") in kpackage/Purpose"
    case .browsers:
      return "the Web Share host (\(NativeMessagingHosts.hostName)) for Chromium, Google Chrome and Firefox"
    }
  }
}
