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
    if let target = options.target, !options.picker {
      // A target named alone is looked for among the services that published one by that name.
      var serviceID = options.service
      if serviceID == nil {
        switch uniqueService(withTarget: target, reporter: reporter, context: context) {
        case .success(let found): serviceID = found
        case .failure(let failed): return failed.code
        }
      }
      guard let serviceID else { return .noSuchService }
      return perform(
        serviceID: serviceID, items: context.resolve(options.selection), target: .named(target),
        reporter: reporter, context: context)
    }
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
      return reporter.ended(.noServiceAccepts(itemCount: match.selection.items.count))
    }
    switch context.picker.choose(from: match.services, output: context.output) {
    case .chosen(let service):
      do {
        return share(try Share.prepare(service, match.selection, types: catalog.types), reporter, context)
      } catch {
        return reporter.ended(.refused(error))
      }
    case .cancelled: return reporter.ended(.notChosen(.declined))
    case .noOneToAsk: return reporter.ended(.notChosen(.noOneToAsk))
    }
  }

  /// The direct target of a share: named on the command line, or as a request recorded it.
  enum TargetChoice {
    case named(String)
    case recorded(TargetPayload)
  }

  /// Why a target named alone names no one service, said already: the exit status to end with.
  struct NoUniqueService: Error {
    var code: ExitCode
  }

  /// The one offered service with a direct target `id`; when none or several have, says so.
  private static func uniqueService(
    withTarget id: String, reporter: OutcomeReporter, context: ToolContext
  ) -> Result<String, NoUniqueService> {
    let services = context.loadCatalog(reportProblems: false).services(withTarget: id)
    if services.isEmpty {
      return .failure(
        NoUniqueService(code: reporter.ended(.refused(.noSuchTarget(id, service: nil, known: [])))))
    }
    guard services.count == 1 else {
      context.output.error(Wording.describe(.ambiguousTarget(id, services: services.map(\.id))))
      return .failure(NoUniqueService(code: .usage))
    }
    return .success(services[0].id)
  }

  /// Shares `items` with the service `serviceID`, loading only that service; shared with `retry`,
  /// which hands in the `compose` it recorded (sent again as it was, without a sheet).
  static func perform(
    serviceID: String, items: [ShareItem], recorded: ComposePayload? = nil, retryOf: String? = nil,
    target: TargetChoice? = nil, reporter: OutcomeReporter, context: ToolContext
  ) -> ExitCode {
    context.warnWithoutMIMEDatabase()
    let known = { context.loadCatalog(reportProblems: false).registry.services.map(\.id) }
    guard let (service, types) = ServiceCatalog.service(withID: serviceID, environment: context.environment)
    else {
      return reporter.ended(.refused(.noSuchService(serviceID)), known: known)
    }
    do {
      // The rule first: no sheet is shown for items the service refuses.
      let accepted = try Share.prepare(
        service, requested: items.map { RequestedItem($0) }, types: types, inspector: GIOFileInspector())
      let payload: TargetPayload? =
        switch target {
        case .named(let id)?:
          try Share.target(id, of: accepted, store: DirectTargetStore(paths: context.paths), types: types)
            .payload
        case .recorded(let payload)?: payload
        case nil: nil
        }
      return share(accepted, reporter, context, recorded: recorded, retryOf: retryOf, target: payload)
    } catch {
      return reporter.ended(.refused(error), known: known)
    }
  }

  /// Runs one share to its end: the compose sheet when there is a display (else its values as
  /// remembered), then the service's program.
  private static func share(
    _ accepted: AcceptedSelection, _ reporter: OutcomeReporter, _ context: ToolContext,
    recorded: ComposePayload? = nil, retryOf: String? = nil, target: TargetPayload? = nil
  ) -> ExitCode {
    let share = Share.desktop(
      accepted, environment: context.environment, secrets: context.secrets, recorded: recorded,
      retryOf: retryOf,
      target: target)
    // Ctrl-C, or the session ending, closes the sheet or stops the program's whole process group.
    SignalWatcher.onTermination { _ in share.cancel() }
    defer { SignalWatcher.onTermination(nil) }
    let end = share.run { reporter.show($0, of: share) }
    return reporter.ended(end)
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
    return .noOneToAsk
  }
}
