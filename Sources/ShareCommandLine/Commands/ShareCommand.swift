import FoundationEssentials
import ShareCore
import ShareGLib
import ShareHost
import SharePOSIX
import ShareProtocol

/// `xdg-share share` and the short form: pick a service, run it, report the outcome.
enum ShareCommand {
  static func run(_ options: ShareOptions, context: ToolContext) -> ExitCode {
    let reporter = OutcomeReporter.make(context: context, json: options.json)
    if let serviceID = options.service, !options.picker {
      return perform(
        serviceID: serviceID, items: context.resolve(options.selection), reporter: reporter, context: context)
    }
    if PickerLauncher.isWanted(options, context: context) {
      if let code = PickerLauncher.run(
        items: context.resolve(options.selection), service: options.service, context: context)
      {
        return code
      }
      // Asked for by name, a missing sheet is an error; on a desktop without one, the list below.
      if options.picker {
        context.output.error(Wording.describe(.noSheet))
        return .failure
      }
    }
    let catalog = context.loadCatalog()
    guard let match = context.match(options.selection, in: catalog) else { return .failure }
    guard !match.services.isEmpty else {
      reporter.noServiceAccepts(items: match.selection.items.map(\.item))
      return .notAccepted
    }
    let service: ShareService
    switch context.picker.choose(from: match.services, output: context.output) {
    case .chosen(let chosen): service = chosen
    case .cancelled: return .cancelled
    case .noOneToAsk: return .noServiceChosen
    }
    let compose: ComposePayload?
    switch composeStep(
      service: service, items: match.selection.items.map(\.item), context: context, reporter: reporter)
    {
    case .proceed(let payload): compose = payload
    case .stop(let code): return code
    }
    let session: ShareSession
    do {
      session = try ShareSession(
        service: service, selection: match.selection, types: catalog.types,
        history: HistoryStore(stateHome: context.paths.stateHomeLocation), environment: context.environment,
        compose: compose)
    } catch {
      return reporter.refused(error) { catalog.registry.services.map(\.id) }
    }
    return run(session, reporter: reporter)
  }

  /// Shares `items` with the service `serviceID`, loading only that service; shared with `retry`,
  /// which hands in the `compose` it recorded (sent again as it was, without a sheet).
  static func perform(
    serviceID: String, items: [ShareItem], recorded: ComposePayload? = nil, retryOf: String? = nil,
    reporter: OutcomeReporter, context: ToolContext
  ) -> ExitCode {
    context.warnWithoutMIMEDatabase()
    let knownServices = { context.loadCatalog(reportProblems: false).registry.services.map(\.id) }
    guard let (service, types) = ServiceCatalog.service(withID: serviceID, environment: context.environment)
    else {
      return reporter.refused(.noSuchService(serviceID), knownServices: knownServices)
    }
    // The rule first: no sheet is shown for items the service refuses.
    let selection: PreparedSelection
    do {
      selection = try PreparedSelection(
        items.map { RequestedItem($0) }, types: types, inspector: GIOFileInspector())
    } catch {
      return reporter.refused(.unreadableFiles(error.problems), knownServices: knownServices)
    }
    if let rejection = service.rule.rejection(of: selection.attachments, types: types) {
      return reporter.refused(
        .notAccepted(service: service, rejection: rejection), knownServices: knownServices)
    }
    let compose: ComposePayload?
    switch composeStep(
      service: service, items: items, recorded: recorded, context: context, reporter: reporter)
    {
    case .proceed(let payload): compose = payload
    case .stop(let code): return code
    }
    let session: ShareSession
    do {
      session = try ShareSession(
        service: service, selection: selection, types: types,
        history: HistoryStore(stateHome: context.paths.stateHomeLocation), environment: context.environment,
        compose: compose, retryOf: retryOf)
    } catch {
      return reporter.refused(error, knownServices: knownServices)
    }
    return run(session, reporter: reporter)
  }

  enum ComposeStepResult {
    /// Start the share, with this `compose` (`nil`: the service declares no sheet).
    case proceed(ComposePayload?)
    /// The share does not start; the step said why.
    case stop(ExitCode)
  }

  /// The compose sheet `service` declares, before it runs: shown by the sheet program when there
  /// is a display, else its defaults; for a retry, the `recorded` values again.
  static func composeStep(
    service: ShareService, items: [ShareItem], recorded: ComposePayload? = nil, context: ToolContext,
    reporter: OutcomeReporter
  ) -> ComposeStepResult {
    let step = context.composeStep
    let outcome: ComposeOutcome
    if let recorded {
      outcome = step.replay(recorded, service: service)
    } else {
      let prompt = ComposePrompts.desktop(environment: context.environment)
      // Ctrl-C, or the session ending, closes the sheet: the share is cancelled.
      SignalWatcher.onTermination { _ in prompt.cancel() }
      defer { SignalWatcher.onTermination(nil) }
      outcome = step.run(service: service, items: items, prompt: prompt)
    }
    switch outcome {
    case .notDeclared: return .proceed(nil)
    case .posted(let payload, let warnings):
      for warning in warnings { context.output.error(warning.message) }
      return .proceed(payload)
    case .cancelled: return .stop(reporter.composeCancelled())
    case .failed(let failure): return .stop(reporter.composeFailed(failure))
    }
  }

  /// Runs one share to its end.
  private static func run(_ session: ShareSession, reporter: OutcomeReporter) -> ExitCode {
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
      guard let answer = readLine()?.trimmingSpaces(), !answer.isEmpty else {
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
