import FoundationEssentials
import ShareCore
import SharePOSIX
import ShareProtocol

/// A recorded request: the history record written before the program starts, the program run,
/// the outcome recorded. Only ``Share`` makes one, after the rule and the compose step.
final class ShareSession: Sendable {
  let service: ShareService
  let request: PluginRequest
  private let history: HistoryStore
  private let runner: PluginRunner
  private let initialRecord: HistoryRecord

  /// The folders of files handed over as bytes, which the history records by name.
  static func privateFolders(_ environment: [String: String]) -> [FilePath] {
    let paths = SearchPaths.system(environment: environment)
    return [RequestFolder.Kind.handedOver, .webShare].map { RequestFolder.parent(of: $0, paths: paths) }
  }

  /// Records the request of sharing `accepted`.
  ///
  /// - Throws: ``ShareRefusal/cannotRecord(_:)`` when the request cannot be recorded.
  init(
    _ accepted: AcceptedSelection, history: HistoryStore, environment: [String: String],
    userInfo: [String: JSONValue] = [:], compose: ComposePayload? = nil,
    requestID: String = RequestBuilder.newRequestID(), retryOf: String? = nil, caller: String? = nil,
    target: TargetPayload? = nil
  ) throws(ShareRefusal) {
    let service = accepted.service
    let selection = accepted.selection
    let request = RequestBuilder.request(
      id: requestID, service: service, attachments: selection.attachments, userInfo: userInfo,
      compose: compose, target: target)
    let record = HistoryRecord(
      id: requestID, serviceId: service.id, serviceName: service.name,
      items: selection.items.map { RecordedItem($0.item, privateFolders: Self.privateFolders(environment)) },
      started: Date(), status: .running,
      log: history.logPath(for: requestID), host: ProcessStatus.currentProcess,
      hostStarted: ProcessStatus.startTime(of: ProcessStatus.currentProcess), retryOf: retryOf,
      caller: caller,
      compose: compose.map { Self.withoutSecrets($0, of: service) }, target: target)
    do {
      try history.save(record)
    } catch {
      throw .cannotRecord(error)
    }
    self.service = service
    self.request = request
    self.history = history
    self.initialRecord = record
    self.runner = PluginRunner(
      service: service, request: request, environment: environment,
      logLocation: history.logLocation(for: requestID))
  }

  var id: String { request.requestId }

  /// `compose` without the values of the service's secure items, as history keeps it.
  static func withoutSecrets(_ compose: ComposePayload, of service: ShareService) -> ComposePayload {
    let secure = service.composeSheet?.secureIdentifiers ?? []
    return ComposePayload(
      contentText: compose.contentText,
      configuration: compose.configuration.filter { !secure.contains($0.key) })
  }

  /// Runs the plugin to its end and records the outcome, calling `progress` for each progress
  /// event and `posted` when the plugin's sheet is gone and the work goes on in the background.
  /// Blocks: call it on a thread of its own.
  func run(progress: (Double?, String?) -> Void = { _, _ in }, posted: () -> Void = {}) -> ShareOutcome {
    let outcome = runner.run(progress: progress, posted: posted)
    var record = initialRecord
    record.finished = Date()
    record.status = outcome.historyStatus
    if case .completed(let items) = outcome { record.returningItems = items }
    record.message = ShareEnd.finished(outcome, requestID: id).message()
    // The outcome stands even when it cannot be recorded; the record still says "running".
    try? history.save(record)
    return outcome
  }

  /// Cancels on the user's behalf.
  func cancel() {
    runner.cancel()
  }
}
