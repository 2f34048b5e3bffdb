import FoundationEssentials
public import ShareCore
import SharePOSIX
public import ShareProtocol

/// Why a share cannot start, as data.
public enum ShareRefusal: Error, Equatable, Sendable {
  case noSuchService(String)
  /// The service's rule refuses the selection (re-checked here: a file manager may hand over anything).
  case notAccepted(service: ShareService, rejection: RuleRejection)
  /// Files that cannot be looked at.
  case unreadableFiles([FileProblem])
  /// The history record could not be written, so the request is not started.
  case cannotRecord(HistoryStore.RecordFailure)
}

/// One share, from the selection to the outcome: re-checks the rule, records the request, runs
/// the plugin and records how it ended.
public final class ShareSession: Sendable {
  public let service: ShareService
  public let request: PluginRequest
  /// Where the service's program writes its standard error.
  public var logPath: String { history.logPath(for: request.requestId) }
  private let history: HistoryStore
  private let runner: PluginRunner
  private let initialRecord: HistoryRecord

  /// Prepares a share of `selection` with `service`: re-checks the service's rule and records
  /// the request.
  ///
  /// - Throws: ``ShareRefusal`` when the rule refuses the selection or the request cannot be
  ///   recorded.
  public init(
    service: ShareService, selection: PreparedSelection, types: TypeSystem, history: HistoryStore,
    environment: [String: String], userInfo: [String: JSONValue] = [:], compose: ComposePayload? = nil,
    requestID: String = RequestBuilder.newRequestID(), retryOf: String? = nil
  ) throws(ShareRefusal) {
    if let rejection = service.rule.rejection(of: selection.attachments, types: types) {
      throw .notAccepted(service: service, rejection: rejection)
    }
    let request = RequestBuilder.request(
      id: requestID, service: service, attachments: selection.attachments, userInfo: userInfo,
      compose: compose)
    let record = HistoryRecord(
      id: requestID, serviceId: service.id, serviceName: service.name,
      items: selection.items.map { RecordedItem($0.item) }, started: Date(), status: .running,
      log: history.logPath(for: requestID), host: ProcessStatus.currentProcess,
      hostStarted: ProcessStatus.startTime(of: ProcessStatus.currentProcess), retryOf: retryOf,
      compose: compose.map { Self.withoutSecrets($0, of: service) })
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

  /// Prepares a share of `requested` items with `service`, looking at the files first: for
  /// callers that did not match the items against services (a named service, a retry).
  public convenience init(
    service: ShareService, requested: [RequestedItem], types: TypeSystem, inspector: some FileInspector,
    history: HistoryStore, environment: [String: String], userInfo: [String: JSONValue] = [:],
    compose: ComposePayload? = nil, requestID: String = RequestBuilder.newRequestID()
  ) throws(ShareRefusal) {
    let selection: PreparedSelection
    do {
      selection = try PreparedSelection(requested, types: types, inspector: inspector)
    } catch {
      throw .unreadableFiles(error.problems)
    }
    try self.init(
      service: service, selection: selection, types: types, history: history, environment: environment,
      userInfo: userInfo, compose: compose, requestID: requestID)
  }

  public var id: String { request.requestId }

  /// `compose` without the values of the service's secure items, as history keeps it.
  public static func withoutSecrets(_ compose: ComposePayload, of service: ShareService) -> ComposePayload {
    let secure = service.composeSheet?.secureIdentifiers ?? []
    return ComposePayload(
      contentText: compose.contentText,
      configuration: compose.configuration.filter { !secure.contains($0.key) })
  }

  /// Runs the plugin to its end and records the outcome, calling `progress` for each progress
  /// event and `posted` when the plugin's sheet is gone and the work goes on in the background.
  /// Blocks: call it on a thread of its own.
  public func run(
    progress: (Double?, String?) -> Void = { _, _ in }, posted: () -> Void = {}
  ) -> ShareOutcome {
    let outcome = runner.run(progress: progress, posted: posted)
    var record = initialRecord
    record.finished = Date()
    switch outcome {
    case .completed(let items):
      record.status = .completed
      record.returningItems = items
    case .cancelled(_, let message):
      record.status = .cancelled
      record.message = message
    case .failed(let failure):
      record.status = .failed
      record.message = failure.message
    case .timedOut(let seconds):
      record.status = .timedOut
      record.message = ShareOutcome.timedOutMessage("it", seconds: seconds)
    }
    // The outcome stands even when it cannot be recorded; the record still says "running".
    try? history.save(record)
    return outcome
  }

  /// Cancels on the user's behalf.
  public func cancel() {
    runner.cancel()
  }
}
