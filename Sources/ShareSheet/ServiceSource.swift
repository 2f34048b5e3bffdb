import FoundationEssentials
import ShareCore
import ShareDBus
import ShareDesktop
import ShareGLib
import ShareHost
import ShareProtocol

// The picker's one use of ShareHost's service engine: ServiceCatalog's one way from items to
// services, and a share of the selection already prepared.

/// What the picker knows once the services are loaded: made on a background thread while GTK
/// starts.
struct LoadedSelection: Sendable {
  /// The selection, looked at once; nil when a file cannot be read.
  var prepared: PreparedSelection?
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
  /// The direct targets of the accepting services (hidden ones aside) that take the selection,
  /// as their services published them; the model orders them.
  var targets: [(service: ShareService, target: DirectTarget)] = []

  /// The selection's attachments; none when a file cannot be read.
  var attachments: [Attachment] { prepared?.attachments ?? [] }
}

enum ServiceSource {
  /// A content type's name for people: shared-mime-info's (`PNG image`); bytes nothing recognised
  /// (a binary file handed over as a descriptor, say) are a binary file, as GNOME's Files says,
  /// not "unknown".
  static func describe(_ contentType: String, text: SheetText) -> String {
    ContentTypeInfo.isUnknown(contentType)
      ? text("Binary file") : ContentTypeInfo.description(of: contentType)
  }

  /// Loads the services of the desktop `environment` describes and matches them to `items`.
  ///
  /// - Parameters:
  ///   - filter: which services a caller lets the sheet offer.
  ///   - preview: an image a caller gave to show instead of the first item's.
  static func load(
    items: [ShareItem], environment: [String: String], text: SheetText,
    filter: ServiceFilter = ServiceFilter(),
    preview: FilePath? = nil
  ) -> LoadedSelection {
    let catalog = ServiceCatalog.desktop(environment: environment)
    let settings = SettingsFile(paths: catalog.paths).read()
    var prepared: PreparedSelection?
    var problems: [FileProblem] = []
    do {
      prepared = try catalog.inspect(items.map { RequestedItem($0) }, inspector: GIOFileInspector())
    } catch {
      problems = error.problems
    }
    let match = prepared.map(catalog.match)
    let activation =
      match?.activation ?? ActivationSelection(attachments: [], types: catalog.types)
    let hidden = catalog.withheld.filter { $0.reason == .hidden }.map(\.service)
    let accepting = ((match?.services ?? []) + hidden.filter { match != nil && $0.rule.accepts(activation) })
      .filter(filter.admits)
    let uses = HistoryStore(stateHome: catalog.paths.stateHomeLocation).records().compactMap {
      ServiceRanking.use(
        of: $0, types: catalog.types, contentType: GIOFileInspector.guessContentType(forName:))
    }
    var summary = SelectionSummary(
      attachments: prepared?.attachments ?? [], text: text, describe: { describe($0, text: text) })
    if let preview { summary.picture = .thumbnail(preview) }
    var summaryIcons: [String] = []
    if case .contentType(let type) = summary.picture { summaryIcons = ContentTypeInfo.iconNames(for: type) }
    // Read as they were published: nothing is started to ask (the services' programs run only
    // when they publish, or are chosen).
    let targets =
      match == nil
      ? []
      : catalog.directTargets(
        of: accepting.filter { $0.kind == .share && !settings.hiddenServices.contains($0.id) },
        accepting: activation)
    return LoadedSelection(
      prepared: prepared, problems: problems, accepting: accepting, settings: settings,
      kinds: ServiceRanking.kinds(of: activation), uses: uses, summary: summary,
      summaryIcons: summaryIcons + ["text-x-generic"], registry: catalog.registry, types: catalog.types,
      targets: targets)
  }

  /// The share of the loaded selection with `service`, its compose sheet through `prompt`;
  /// the rule checked again.
  static func share(
    _ service: ShareService, loaded: LoadedSelection, environment: [String: String],
    prompt: any ComposePrompt, caller: SheetCaller? = nil, target: DirectTarget? = nil
  ) throws(ShareRefusal) -> Share {
    guard let prepared = loaded.prepared else { throw .unreadableFiles(loaded.problems) }
    let paths = SearchPaths.system(environment: environment)
    let accepted = try Share.prepare(service, prepared, types: loaded.types)
    // The target as the sheet read it, checked against the items as any other front end does.
    let checked = try target.map { target throws(ShareRefusal) in
      try Share.target(target.id, of: accepted, store: DirectTargetStore(paths: paths), types: loaded.types)
    }
    return Share.desktop(
      accepted, environment: environment, prompt: prompt, caller: caller.flatMap(\.historyName),
      target: checked?.payload)
  }
}

extension ServiceSource {
  /// Brings the file managers' Share entries in line with the services now hidden, when the user
  /// registered them (`xdg-share register`); quiet, as the D-Bus service does on a change.
  static func followHiddenServices(environment: [String: String]) {
    let catalog = ServiceCatalog.desktop(environment: environment)
    FileManagerIntegration.sync(
      services: catalog.offered,
      catalog: MIMECatalog.load(types: catalog.types, mimeDirectories: SharedMIMEDatabase.directories()),
      paths: catalog.paths)
  }
}
