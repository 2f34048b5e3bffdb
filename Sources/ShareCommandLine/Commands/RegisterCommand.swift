import Foundation
import ShareCore
import ShareDesktop
import ShareGLib
import ShareHost

/// `xdg-share register` and `xdg-share unregister`: the Share entries of every file manager.
enum RegisterCommand {
  static func register(system: Bool, context: ToolContext) -> ExitCode {
    guard let executable = currentExecutable() else {
      context.output.error(Wording.describe(.ownPathUnknown))
      return .failure
    }
    let catalog = context.loadCatalog()
    let location = FileManagerIntegration.Location(scope: system ? .system : .user, paths: context.paths)
    let report: RegistrationReport
    do {
      let rendering = try FileManagerIntegration.render(
        services: catalog.offered, executable: executable, catalog: mimeCatalog(types: catalog.types))
      report = try FileManagerIntegration.register(
        rendering, executable: executable, at: location,
        software: SystemSoftware(environment: context.environment))
    } catch {
      context.output.error(RegisterWording.describe(error))
      return .failure
    }
    for line in RegisterWording.lines(for: report) { context.output.line(line) }
    for failure in report.failures {
      context.output.error(Wording.describe(.cannotUpdate(failure.path, reason: failure.reason)))
    }
    return report.failures.isEmpty ? .success : .failure
  }

  static func unregister(system: Bool, context: ToolContext) -> ExitCode {
    let location = FileManagerIntegration.Location(scope: system ? .system : .user, paths: context.paths)
    let report: UnregistrationReport?
    do {
      report = try FileManagerIntegration.unregister(at: location)
    } catch {
      context.output.error(RegisterWording.describe(error))
      return .failure
    }
    guard let report else {
      context.output.line(
        "Nothing to remove: xdg-share has not registered anything in \(location.dataFolder)")
      return .success
    }
    for line in RegisterWording.lines(for: report) { context.output.line(line) }
    for failure in report.failures {
      context.output.error(Wording.describe(.cannotRemove(failure.path, reason: failure.reason)))
    }
    return report.failures.isEmpty ? .success : .failure
  }

  /// Brings the user's file-manager entries up to date after `install` or `uninstall`, when
  /// `register` was run before; silent.
  static func resync(context: ToolContext, catalog: ServiceCatalog? = nil) {
    // Nothing registered, nothing to bring up to date: no need to load every service for it.
    guard FileManagerIntegration.isRegistered(at: .init(scope: .user, paths: context.paths)) else { return }
    let catalog = catalog ?? context.loadCatalog(reportProblems: false)
    FileManagerIntegration.sync(
      services: catalog.offered, catalog: mimeCatalog(types: catalog.types), paths: context.paths,
      software: SystemSoftware(environment: context.environment))
  }

  /// Every MIME type of the directories GIO reads.
  static func mimeCatalog(types: TypeSystem) -> MIMECatalog {
    MIMECatalog.load(types: types, mimeDirectories: SharedMIMEDatabase.directories())
  }

  /// The absolute path of the running program, which the entries will run.
  static func currentExecutable() -> String? {
    guard var path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
      return nil
    }
    // The binary was replaced while running (an upgrade): the new one is at the same path.
    if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
    return path
  }
}

/// The words of `register` and `unregister`.
enum RegisterWording {
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
    for advice in report.advice {
      switch advice {
      case .installPackage(let package, _, let program):
        lines.append("  \(program) shows the entries only with \(package): sudo apt install \(package)")
      case .restart(let command, let family):
        lines.append(
          "  \(label(family)): the entries show after a restart (if running: `\(command)`, then open it again)"
        )
      }
    }
    return lines
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

  private static func label(_ family: FileManagerFamily) -> String {
    switch family {
    case .dolphin: "Dolphin"
    case .nautilus: "Nautilus"
    case .thunar: "Thunar"
    case .nemo: "Nemo"
    case .desktopActions: "Caja, PCManFM, PCManFM-Qt"
    case .dbus: "D-Bus"
    }
  }

  private static func summary(_ family: FileManagerFamily, files: [GeneratedFile]) -> String {
    guard let first = files.first else { return "nothing" }
    let folder = (first.path as NSString).deletingLastPathComponent
    let count = files.count
    switch family {
    case .dolphin:
      return "\(count) service \(count == 1 ? "menu" : "menus") in \(folder), in the Share submenu"
    case .thunar: return "\(count) Send To \(count == 1 ? "entry" : "entries") in \(folder)"
    case .nemo: return "\(count) \(count == 1 ? "action" : "actions") in \(folder)"
    case .desktopActions:
      return "a Share menu with \(count - 1) \(count == 2 ? "action" : "actions") in \(folder)"
    case .nautilus: return first.path + " (asks the D-Bus service when the menu opens)"
    case .dbus: return first.path
    }
  }
}
