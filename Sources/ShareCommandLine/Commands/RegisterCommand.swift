import FoundationEssentials
import ShareCore
import ShareDesktop
import ShareGLib
import ShareHost
import SharePOSIX

/// `xdg-share register` and `xdg-share unregister`: the Share entries of every file manager.
enum RegisterCommand {
  static func register(system: Bool, context: ToolContext) -> ExitCode {
    // The running program, which the entries will run.
    guard let ownPath = HelperProgram.running() else {
      context.output.error(Wording.describe(.ownPathUnknown))
      return .failure
    }
    // The entries are written by bytes, into a data folder or HOME of any name; what they say
    // is UTF-8 text (desktop entries, service menus, Python), so the program they run must have
    // a UTF-8 path. That is the one path they name.
    guard let executable = ownPath.string else {
      context.output.error(Wording.describe(.ownPathNotUTF8(ownPath)))
      return .failure
    }
    let catalog = context.loadCatalog()
    let location = Self.location(system: system, context: context)
    let report: RegistrationReport
    do {
      let software = SystemSoftware(environment: context.environment)
      let rendering = try FileManagerIntegration.render(
        services: catalog.offered, executable: executable, catalog: mimeCatalog(types: catalog.types),
        purpose: FileManagerIntegration.purposeSetup(
          executable: executable, services: catalog.offered, paths: context.paths, software: software),
        webShare: FileManagerIntegration.webShareSetup(
          executable: executable, scope: system ? .system : .user))
      report = try FileManagerIntegration.register(
        rendering, executable: executable, at: location, software: software)
    } catch {
      context.output.error(Wording.describe(error))
      return .failure
    }
    for line in Wording.lines(for: report) { context.output.line(line) }
    for failure in report.failures {
      context.output.error(Wording.describe(.cannotUpdate(failure.path, reason: failure.reason)))
    }
    return report.failures.isEmpty ? .success : .failure
  }

  static func unregister(system: Bool, context: ToolContext) -> ExitCode {
    let location = Self.location(system: system, context: context)
    let report: UnregistrationReport?
    do {
      report = try FileManagerIntegration.unregister(at: location)
    } catch {
      context.output.error(Wording.describe(error))
      return .failure
    }
    guard let report else {
      context.output.line(Wording.nothingRegistered(in: location.dataFolder))
      return .success
    }
    for line in Wording.lines(for: report) { context.output.line(line) }
    for failure in report.failures {
      context.output.error(Wording.describe(.cannotRemove(failure.path, reason: failure.reason)))
    }
    return report.failures.isEmpty ? .success : .failure
  }

  /// Where `register` writes: for this user, or for every user, below `$DESTDIR` when it is set
  /// (a package being built).
  static func location(system: Bool, context: ToolContext) -> FileManagerIntegration.Location {
    guard system else { return .init(scope: .user, paths: context.paths) }
    let staging = context.environment["DESTDIR"].flatMap { $0.hasPrefix("/") ? FilePath($0) : nil }
    return .init(scope: .system, paths: context.paths, staging: staging)
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
}
