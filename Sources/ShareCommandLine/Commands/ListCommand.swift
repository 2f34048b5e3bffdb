import FoundationEssentials
import ShareCore
import ShareHost
import SharePOSIX

/// `xdg-share list`: every offered service, or those that accept the given items.
enum ListCommand {
  static func run(_ options: ListOptions, context: ToolContext) -> ExitCode {
    let catalog = context.loadCatalog()
    let services: [ShareService]
    if options.selection.isEmpty {
      services = catalog.offered
    } else {
      guard let match = context.match(options.selection, in: catalog) else { return .failure }
      services = match.services
    }
    if options.json {
      context.output.line(JSONText.array(services.map { ServiceSummary($0).fields }))
    } else {
      let width = services.map(\.id.count).max() ?? 0
      for service in services {
        context.output.line(
          service.id.padded(to: width) + "  " + service.name)
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

/// JSON output: sorted keys, no escaped slashes, so it is stable and readable. Objects of
/// strings go through ``JSONText`` (same text, without the encoder's start-up).
enum JSON {
  static func encode(_ object: [String: String]) -> String {
    JSONText.object(object)
  }

  static func encode(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return "null" }
    return String(decoding: data, as: UTF8.self)
  }
}
