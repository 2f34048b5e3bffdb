import Foundation
import ShareCore
import ShareGLib
import ShareHost
import SharePOSIX
import ShareProtocol

/// `xdg-share share` and the short form: pick a service, run it, report the outcome.
enum ShareCommand {
  static func run(_ options: ShareOptions, context: ToolContext) -> ExitCode {
    let catalog = context.loadCatalog()
    let items = context.resolve(options.selection)
    let reporter = OutcomeReporter.make(context: context, json: options.json)

    let serviceID: String
    if let chosen = options.service {
      serviceID = chosen
    } else {
      guard let attachments = context.attachments(for: options.selection, catalog: catalog) else {
        return .failure
      }
      let candidates = catalog.services(
        accepting: ActivationSelection(attachments: attachments, types: catalog.types))
      guard !candidates.isEmpty else {
        reporter.noServiceAccepts(items: items)
        return .notAccepted
      }
      switch context.picker.choose(from: candidates, output: context.output) {
      case .chosen(let service): serviceID = service.id
      case .cancelled: return .cancelled
      case .noOneToAsk: return .noServiceChosen
      }
    }
    return perform(
      serviceID: serviceID, items: items, registry: catalog.registry, types: catalog.types,
      reporter: reporter,
      context: context)
  }

  /// Runs one share to its end; shared with `retry`.
  static func perform(
    serviceID: String, items: [ShareItem], registry: ServiceRegistry, types: TypeSystem,
    reporter: OutcomeReporter,
    context: ToolContext
  ) -> ExitCode {
    let session: ShareSession
    do {
      session = try ShareSession(
        serviceID: serviceID, items: items, registry: registry, types: types, inspector: GIOFileInspector(),
        history: HistoryStore(stateHome: context.paths.stateHome), environment: context.environment)
    } catch {
      return reporter.refused(error, registry: registry)
    }
    // Ctrl-C, or the session ending, stops the plugin's whole process group before we go.
    SignalWatcher.onTermination { _ in session.cancel() }
    defer { SignalWatcher.onTermination(nil) }
    reporter.started(session)
    let outcome = session.run { fraction, message in reporter.progress(fraction, message) }
    return reporter.finished(session, outcome)
  }
}

/// How the choice of a service is made: behind an interface, so a graphical picker can come.
protocol ServicePicker {
  func choose(from services: [ShareService], output: Output) -> ServiceChoice
}

enum ServiceChoice {
  case chosen(ShareService)
  /// The user chose none (Enter, or the end of input).
  case cancelled
  /// There is no one to ask.
  case noOneToAsk
}

/// Numbered list on the terminal, answer on standard input.
struct TerminalPicker: ServicePicker {
  func choose(from services: [ShareService], output: Output) -> ServiceChoice {
    for (index, service) in services.enumerated() {
      output.writeError("  \(index + 1). \(service.name)  (\(service.id))\n")
    }
    while true {
      output.writeError(Wording.pickerPrompt(count: services.count))
      guard let answer = readLine()?.trimmingCharacters(in: .whitespaces), !answer.isEmpty else {
        return .cancelled
      }
      if let number = Int(answer), services.indices.contains(number - 1) {
        return .chosen(services[number - 1])
      }
      if let service = services.first(where: { $0.id == answer }) { return .chosen(service) }
      output.writeError(Wording.pickerHint(answer, count: services.count))
    }
  }
}

/// Without a terminal there is no one to ask: print the services and let the caller choose.
struct ListingPicker: ServicePicker {
  func choose(from services: [ShareService], output: Output) -> ServiceChoice {
    for service in services { output.line("\(service.id)\t\(service.name)") }
    output.error(Wording.chooseWithService)
    return .noOneToAsk
  }
}
