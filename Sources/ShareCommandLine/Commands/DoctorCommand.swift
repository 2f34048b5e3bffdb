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
      context.output.line(JSONText.report(checkup.report))
    } else {
      for line in Wording.lines(for: checkup) { context.output.line(line) }
    }
    return checkup.needsAttention ? .failure : .success
  }
}

/// What `doctor` found.
struct Checkup {
  /// One bundle, and what became of it.
  struct Bundle {
    enum State: String {
      case loaded, pinned, hidden, shadowed, invalid
      case requirementsMissing = "requirements-missing"
    }

    var entry: BundleSurvey.Entry
    var state: State
    var hidden: Bool
    var pinned: Bool
    var missing: (programs: [String], busNames: [String])

    /// Whether the user has to do something for it: an invalid bundle, or one that lacks what it
    /// needs (unless they hid it anyway).
    var needsAttention: Bool { state == .invalid || state == .requirementsMissing }
  }

  var folders: [(location: FilePath, exists: Bool)]
  var bundles: [Bundle]
  var registrations: [RegistrationCheck]
  /// Where hidden and pinned services are kept.
  var settingsFile: String
  /// The services' files of direct targets: the folder, and each file with what reading it found
  /// and whether a service of that identifier is installed.
  var targetsFolder: String
  var targets: [(name: String, file: DirectTargetsFile, installed: Bool)]
  /// The logs of the services' last runs to publish their targets that hold something, by service.
  var publishingLogs: [(serviceID: String, log: FilePath)]

  init(catalog: ServiceCatalog, context: ToolContext) {
    let survey = catalog.survey()
    settingsFile = catalog.paths.settingsFile
    let store = catalog.directTargetStore
    targetsFolder = store.folder.text
    publishingLogs = store.publishingLogs()
    let installed = Set(survey.entries.compactMap(\.identifier))
    targets = store.survey().map {
      ($0.name, $0.file, installed.contains(String($0.name.dropLast(".json".count))))
    }
    folders = survey.folders.map { ($0, SystemBundleFiles().kind(of: $0) == .directory) }
    bundles = survey.entries.map { entry in
      let id = entry.identifier ?? ""
      let hidden = catalog.settings.hiddenServices.contains(id)
      let pinned = catalog.settings.pinnedServices.contains(id)
      var missing: (programs: [String], busNames: [String]) = ([], [])
      let state: Bundle.State
      if let service = entry.outcome.service {
        missing = catalog.missing(for: service)
        state =
          entry.shadowedBy != nil
          ? .shadowed
          : hidden
            ? .hidden
            : !missing.programs.isEmpty || !missing.busNames.isEmpty
              ? .requirementsMissing : pinned ? .pinned : .loaded
      } else {
        state = .invalid
      }
      return Bundle(entry: entry, state: state, hidden: hidden, pinned: pinned, missing: missing)
    }
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
    bundles.contains(where: \.needsAttention)
      || registrations.contains { registration in
        registration.unreadableManifest != nil || !registration.advice.isEmpty
          || registration.frontEnds.contains(where: \.needsRegister)
      }
  }

  var report: [String: ReportValue] {
    var report: [String: ReportValue] = [
      "folders": .objects(folders.map { ["path": .string($0.location.text), "exists": .bool($0.exists)] }),
      "bundles": .objects(bundles.map(Self.report)),
      "registrations": .objects(registrations.map(Self.report)),
      "frontEnds": .objects(registrations.flatMap { $0.frontEnds.map(Self.report) }),
      "targets": .objects(
        targets.map { entry in
          [
            "file": .string("\(targetsFolder)/\(entry.name)"),
            "service": .string(String(entry.name.dropLast(5))),
            "installed": .bool(entry.installed), "targets": .integer(entry.file.targets.count),
            "problems": .strings(entry.file.problems.map(\.message)),
          ]
        }),
      "needsAttention": .bool(needsAttention),
    ]
    // Only when a log holds something: the report is otherwise as it was.
    if !publishingLogs.isEmpty {
      report["publishingLogs"] = .objects(
        publishingLogs.map { ["service": .string($0.serviceID), "log": .string($0.log.text)] })
    }
    return report
  }

  private static func report(_ bundle: Bundle) -> [String: ReportValue] {
    let entry = bundle.entry
    var object: [String: ReportValue] = [
      "bundle": .string(entry.location.text), "folder": .string(entry.folder.text),
      "state": .string(bundle.state.rawValue), "hidden": .bool(bundle.hidden), "pinned": .bool(bundle.pinned),
      "needsAttention": .bool(bundle.needsAttention),
      "problems": .strings(entry.errors.map(Diagnostics.line)),
      "warnings": .strings(entry.outcome.problems.filter { $0.severity == .warning }.map(Diagnostics.line)),
      "missingPrograms": .strings(bundle.missing.programs),
      "missingBusNames": .strings(bundle.missing.busNames),
    ]
    if let id = entry.identifier { object["id"] = .string(id) }
    if let name = entry.outcome.service?.name ?? entry.outcome.name { object["name"] = .string(name) }
    if let winner = entry.shadowedBy { object["shadowedBy"] = .string(winner.text) }
    return object
  }

  private static func report(_ registration: RegistrationCheck) -> [String: ReportValue] {
    var object: [String: ReportValue] = [
      "scope": .string(registration.scope == .user ? "user" : "system"),
      "dataFolder": .string(registration.dataFolder),
      "registered": .bool(registration.executable != nil),
      "executableGone": .bool(registration.executableGone),
      "advice": .strings(registration.advice.map(Wording.describe)),
    ]
    if let executable = registration.executable { object["executable"] = .string(executable) }
    if let reason = registration.unreadableManifest { object["unreadableManifest"] = .string(reason) }
    return object
  }

  private static func report(_ status: FrontEndStatus) -> [String: ReportValue] {
    [
      "frontEnd": .string(status.family.rawValue), "name": .string(Wording.label(status.family)),
      "scope": .string(status.scope == .user ? "user" : "system"), "state": .string(status.state.rawValue),
      "upToDate": .integer(status.upToDate), "missing": .strings(status.missing),
      "outdated": .strings(status.outdated), "leftOver": .strings(status.leftOver),
      "usersOwn": .strings(status.usersOwn),
    ]
  }
}
