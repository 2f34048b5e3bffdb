import ShareCore
import ShareDesktop
import ShareHost

/// `xdg-share doctor`: every bundle of every folder and what became of it, then every front
/// end's entries against the services; exit 1 when something needs the user.
enum DoctorCommand {
  static func run(json: Bool, context: ToolContext) -> ExitCode {
    let catalog = context.loadCatalog(reportProblems: false)
    let checkup = Checkup(catalog: catalog, context: context)
    if json {
      context.output.line(ReportValue.object(checkup.json).jsonText)
    } else {
      for line in Wording.lines(for: checkup) { context.output.line(line) }
      // Said only when services cannot run: the report is otherwise as it was.
      if let problem = checkup.sandbox {
        context.output.line("")
        context.output.line("Sandbox: \(problem.message)")
      }
    }
    return checkup.needsAttention ? .failure : .success
  }
}

/// What `doctor` found: the bundles, their folders and the files of direct targets (ShareCore's
/// ``DoctorReport``, which holds the report's keys), and each scope's entries (ShareDesktop's
/// ``RegistrationCheck``). This gathers them; `Wording+Doctor.swift` words them.
struct Checkup {
  var report: DoctorReport
  var registrations: [RegistrationCheck]
  /// The logs of the services' last runs to publish their targets that hold something, by service.
  var publishingLogs: [(serviceID: String, log: FilePath)]
  /// Why the services that run sandboxed cannot run here (`bwrap` run once), when one cannot.
  var sandbox: SandboxUnavailable?

  init(catalog: ServiceCatalog, context: ToolContext) {
    let survey = catalog.survey()
    let store = catalog.directTargetStore
    publishingLogs = store.publishingLogs()
    sandbox =
      catalog.offered.contains { !$0.entitlements.unconfined }
      ? SandboxUnavailable.check(environment: context.environment) : nil
    let installed = Set(survey.entries.compactMap(\.identifier))
    report = DoctorReport(
      folders: survey.folders.map {
        DoctorReport.Folder(location: $0, exists: SystemBundleFiles().kind(of: $0) == .directory)
      },
      bundles: survey.entries.map { entry in
        let id = entry.identifier ?? ""
        return DoctorReport.Bundle(
          entry: entry, hidden: catalog.settings.hiddenServices.contains(id),
          pinned: catalog.settings.pinnedServices.contains(id),
          missing: entry.outcome.service.map(catalog.missing(for:)) ?? ([], []))
      },
      settingsFile: catalog.paths.settingsFile, targetsFolder: store.folder.text,
      targets: store.survey().map { found in
        var file = DoctorReport.TargetsFile(name: found.name, file: found.file, installed: false)
        file.installed = installed.contains(file.service)
        return file
      })
    let software = SystemSoftware(environment: context.environment)
    let mime = RegisterCommand.mimeCatalog(types: catalog.types)
    // Every user's entries are written for the services of every user's folders.
    let dataHome = catalog.paths.dataHomeLocation.bytes
    let systemServices = catalog.offered.filter {
      !$0.bundleLocation.bytes.starts(with: dataHome + [UInt8(ascii: "/")])
    }
    registrations = [
      FileManagerIntegration.check(
        services: catalog.offered, catalog: mime, paths: catalog.paths, scope: .user, software: software),
      FileManagerIntegration.check(
        services: systemServices, catalog: mime, paths: catalog.paths, scope: .system, software: software),
    ]
  }

  /// Whether anything needs the user: a bundle, stale entries, a package a file manager needs.
  var needsAttention: Bool {
    report.needsAttention || registrations.contains(where: \.needsAttention) || sandbox != nil
  }

  /// What `doctor --json` prints.
  var json: [String: ReportValue] {
    var json = report.report(
      registrations: registrations.map { $0.report(describe: Wording.describe) },
      frontEnds: registrations.flatMap { $0.frontEnds.map { $0.report(name: Wording.label($0.family)) } },
      frontEndsNeedAttention: registrations.contains(where: \.needsAttention))
    // Only when a log holds something: the report is otherwise as it was.
    if !publishingLogs.isEmpty {
      json["publishingLogs"] = .objects(
        publishingLogs.map { ["service": .string($0.serviceID), "log": .string($0.log.text)] })
    }
    if let sandbox { json["sandbox"] = .string(sandbox.message) }
    return json
  }
}
