import FoundationEssentials
import ShareCore
import ShareHost
import SharePOSIX
import ShareProtocol

/// `xdg-share list`: every offered service, or those that accept the given items.
enum ListCommand {
  static func run(_ options: ListOptions, context: ToolContext) -> ExitCode {
    let catalog = context.loadCatalog()
    let services: [ShareService]
    var targets: [String: [DirectTarget]]
    if options.selection.isEmpty {
      services = catalog.offered
      targets = catalog.directTargetStore.targets(of: services)
    } else {
      guard let match = context.match(options.selection, in: catalog) else { return .failure }
      services = match.services
      // Only the targets that take the items, as the sheet offers them.
      targets = Dictionary(
        grouping: catalog.directTargets(of: services, accepting: match.activation), by: \.service.id
      )
      .mapValues { $0.map(\.target) }
    }
    if catalog.settings.suggestions == false { targets = [:] }
    if options.json {
      context.output.line(
        ReportValue.objects(services.map { ServiceSummary($0, targets: targets[$0.id] ?? []).report })
          .jsonText)
    } else {
      let width = services.map(\.id.count).max() ?? 0
      for service in services {
        context.output.line(
          service.id.padded(to: width) + "  " + service.name)
        for target in targets[service.id] ?? [] {
          context.output.line(
            "  --target " + target.id + "  " + target.title + (target.subtitle.map { " (\($0))" } ?? ""))
        }
      }
      // Someone reading the list wonders where an installed service went: say, on the terminal.
      if options.selection.isEmpty, Terminal.isTerminal(2) {
        for withheld in catalog.withheld {
          context.output.error(Wording.notOffered(withheld, settingsFile: catalog.paths.settingsFile))
        }
      }
    }
    return .success
  }
}

/// JSON output: sorted keys, no escaped slashes, so it is stable and readable; written by the
/// one writer, ``JSONValue/text(_:)``, in the layout `JSONEncoder` gave it
/// (``JSONStyle/encoder``).
enum JSON {
  /// Objects of strings, as they are (without the encoder's start-up).
  static func encode(_ object: [String: String]) -> String {
    JSONValue.object(object.mapValues(JSONValue.string)).text(.encoder)
  }

  /// A value through its `Codable` form.
  static func encode(_ value: some Encodable) -> String {
    guard let data = try? JSONEncoder().encode(value),
      let json = try? JSONDecoder().decode(JSONValue.self, from: data)
    else { return "null" }
    return json.text(.encoder)
  }
}
