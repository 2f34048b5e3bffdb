import ShareCore
import ShareGLib
import ShareHost

/// `xdg-share why ID [--json] ITEMS`: why a service is offered for the items, or why not.
enum WhyCommand {
  static func run(_ options: WhyOptions, context: ToolContext) -> ExitCode {
    let catalog = context.loadCatalog(reportProblems: false)
    context.warnWithoutMIMEDatabase()
    let selection: PreparedSelection
    do {
      selection = try catalog.inspect(
        context.resolve(options.selection).map { RequestedItem($0) }, inspector: GIOFileInspector())
    } catch {
      for problem in error.problems { context.output.error(Diagnostics.line(for: problem)) }
      return .failure
    }
    let explanation: ServiceExplanation
    switch options.subject {
    case .service(let id):
      let survey = catalog.survey()
      guard let found = catalog.explain(id, selection, survey: survey) else {
        let known = survey.entries.compactMap(\.identifier)
        context.output.error(ShareRefusal.noSuchService(id).message(among: { known }))
        return .noSuchService
      }
      explanation = found
    case .bundle(let location):
      let outcome = catalog.load(bundleAt: location)
      if let service = outcome.service {
        explanation = catalog.explain(service, selection)
      } else if outcome.problems.contains(where: { if case .notABundle = $0.kind { true } else { false } }) {
        for problem in outcome.problems { context.output.error(Diagnostics.line(for: problem)) }
        return .noSuchService
      } else {
        explanation = ServiceExplanation(
          id: outcome.identifier ?? location.text, name: outcome.name, bundle: location,
          obstacles: [.invalid(outcome.problems.filter { $0.severity == .error })],
          items: selection.attachments.map { ServiceExplanation.Item($0, types: catalog.types) }, rule: nil,
          trace: nil)
      }
    }
    if options.json {
      context.output.line(ReportValue.object(explanation.report).jsonText)
    } else {
      for line in Wording.lines(for: explanation) { context.output.line(line) }
    }
    return explanation.accepted ? .success : .notAccepted
  }
}
