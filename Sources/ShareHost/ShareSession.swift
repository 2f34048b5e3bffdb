import Foundation
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
  case cannotRecord(String)
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

  /// Prepares a share of `items` with the service `serviceID`.
  ///
  /// - Throws: ``ShareRefusal`` when the service is unknown, a file cannot be read, or the rule
  ///   refuses the selection.
  public convenience init(
    serviceID: String, items: [ShareItem], registry: ServiceRegistry, types: TypeSystem,
    inspector: some FileInspector, history: HistoryStore, environment: [String: String],
    userInfo: [String: JSONValue] = [:], requestID: String = RequestBuilder.newRequestID()
  ) throws(ShareRefusal) {
    try self.init(
      serviceID: serviceID, requested: items.map { RequestedItem($0) }, registry: registry, types: types,
      inspector: inspector, history: history, environment: environment, userInfo: userInfo,
      requestID: requestID)
  }

  /// Prepares a share of `requested` items (with the MIME types callers gave).
  public init(
    serviceID: String, requested: [RequestedItem], registry: ServiceRegistry, types: TypeSystem,
    inspector: some FileInspector, history: HistoryStore, environment: [String: String],
    userInfo: [String: JSONValue] = [:], requestID: String = RequestBuilder.newRequestID()
  ) throws(ShareRefusal) {
    guard let service = registry.service(withID: serviceID) else { throw .noSuchService(serviceID) }
    let items = requested.map(\.item)
    let (attachments, problems) = types.attachments(for: requested, inspector: inspector)
    guard problems.isEmpty else { throw .unreadableFiles(problems) }
    if let rejection = service.rule.rejection(of: attachments, types: types) {
      throw .notAccepted(service: service, rejection: rejection)
    }
    let request = RequestBuilder.request(
      id: requestID, service: service, attachments: attachments, userInfo: userInfo)
    let record = HistoryRecord(
      id: requestID, serviceId: service.id, serviceName: service.name, items: items.map(RecordedItem.init),
      started: Date(), status: .running, log: history.logPath(for: requestID),
      host: ProcessStatus.currentProcess)
    do {
      try history.save(record)
    } catch {
      throw .cannotRecord(error.localizedDescription)
    }
    self.service = service
    self.request = request
    self.history = history
    self.initialRecord = record
    self.runner = PluginRunner(
      service: service, request: request, environment: environment, logPath: history.logPath(for: requestID))
  }

  public var id: String { request.requestId }

  /// Runs the plugin to its end and records the outcome. Blocks: call it on a thread of its own.
  public func run(progress: (Double?, String?) -> Void = { _, _ in }) -> ShareOutcome {
    let outcome = runner.run(progress: progress)
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
      record.message = "stopped after \(seconds) seconds"
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
