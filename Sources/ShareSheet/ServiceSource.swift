import FoundationEssentials
import ShareCore
import ShareDBus
import ShareDesktop
import ShareGLib
import ShareHost

// The picker's one use of ShareHost's service engine, kept in this file so that it can follow
// ShareHost when a single "which services accept these items" entry point replaces the sequence
// below (catalog, attachments, rule check).

/// What the picker knows once the services are loaded: made on a background thread while GTK
/// starts.
struct LoadedSelection: Sendable {
  /// The selection as services see it; empty when a file cannot be read.
  var attachments: [Attachment]
  /// Files that cannot be read.
  var problems: [FileProblem]
  /// The services whose rules accept the selection and whose requirements are met, hidden ones
  /// included (edit mode shows them, to be shown again).
  var accepting: [ShareService]
  var settings: UserSettings
  var kinds: Set<ServiceRanking.Kind>
  var uses: [ServiceRanking.Use]
  var summary: SelectionSummary
  /// Icon names for the summary's content type, when it shows one.
  var summaryIcons: [String]
  var registry: ServiceRegistry
  var types: TypeSystem
}

enum ServiceSource {
  /// Loads the services of the desktop `environment` describes and matches them to `items`.
  static func load(items: [ShareItem], environment: [String: String], text: SheetText) -> LoadedSelection {
    let catalog = ServiceCatalog(environment: environment, types: SharedMIMEDatabase.typeSystem()) {
      PickerServiceEnvironment(environment: environment, services: $0)
    }
    let settings = SettingsFile(paths: catalog.paths).read()
    let (attachments, problems) = catalog.attachments(
      for: items.map { RequestedItem($0) }, inspector: GIOFileInspector())
    let selection = ActivationSelection(attachments: attachments, types: catalog.types)
    let hidden = catalog.withheld.filter { $0.reason == .hidden }.map(\.service)
    let accepting =
      problems.isEmpty ? (catalog.offered + hidden).filter { $0.rule.accepts(selection) } : []
    let uses = HistoryStore(stateHome: catalog.paths.stateHome).records().compactMap {
      ServiceRanking.use(
        of: $0, types: catalog.types, contentType: GIOFileInspector.guessContentType(forName:))
    }
    let summary = SelectionSummary(
      attachments: attachments, text: text, describe: ContentTypeInfo.description)
    var summaryIcons: [String] = []
    if case .contentType(let type) = summary.picture { summaryIcons = ContentTypeInfo.iconNames(for: type) }
    return LoadedSelection(
      attachments: attachments, problems: problems, accepting: accepting, settings: settings,
      kinds: ServiceRanking.kinds(of: selection), uses: uses, summary: summary,
      summaryIcons: summaryIcons + ["text-x-generic"], registry: catalog.registry, types: catalog.types)
  }

  /// Prepares the share of `items` with `serviceID`: re-checks the rule and records the request.
  static func session(
    serviceID: String, items: [ShareItem], loaded: LoadedSelection, environment: [String: String]
  ) throws(ShareRefusal) -> ShareSession {
    try ShareSession(
      serviceID: serviceID, items: items, registry: loaded.registry, types: loaded.types,
      inspector: GIOFileInspector(),
      history: HistoryStore(stateHome: SearchPaths(environment: environment).stateHome),
      environment: environment)
  }
}

/// Whether a service's requirements are met on this desktop: programs on `PATH`, names owned or
/// activatable on the session bus. A copy of ShareDaemon's `DesktopServiceEnvironment`, so that
/// the picker does not link the D-Bus service.
struct PickerServiceEnvironment: ServiceEnvironment {
  let searchPath: [String]
  let busNames: [String: Bool]

  init(environment: [String: String], services: [ShareService]) {
    searchPath = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(
      String.init)
    busNames = BusNames.availability(of: Set(services.flatMap(\.requirements.busNames)).sorted())
  }

  func isProgramAvailable(_ name: String) -> Bool {
    searchPath.contains { FileManager.default.isExecutableFile(atPath: $0 + "/" + name) }
  }

  func isBusNameAvailable(_ name: String) -> Bool {
    busNames[name] ?? false
  }
}

extension ServiceSource {
  /// Brings the file managers' Share entries in line with the services now hidden, when the user
  /// registered them (`xdg-share register`); quiet, as the D-Bus service does on a change.
  static func followHiddenServices(environment: [String: String]) {
    let types = SharedMIMEDatabase.typeSystem()
    let catalog = ServiceCatalog(environment: environment, types: types) {
      PickerServiceEnvironment(environment: environment, services: $0)
    }
    FileManagerIntegration.sync(
      services: catalog.offered,
      catalog: MIMECatalog.load(types: types, mimeDirectories: SharedMIMEDatabase.directories()),
      paths: catalog.paths)
  }
}
