import Dispatch
import ShareCore
import ShareHost
import ShareProtocol
import Synchronization

/// How a share ended.
enum ShareEnd: Sendable {
  /// It could not start: the rule refused the items, a file went, the history cannot be written.
  case refused(ShareRefusal)
  case finished(ShareOutcome, requestID: String)
  /// The compose sheet was cancelled: the share never started (the picker shows its list again).
  case composeCancelled
  /// The compose step stopped the share before it started (the sheet failed, a value missing).
  case composeFailed(ComposeFailure)

  func result(serviceID: String) -> SheetResult {
    switch self {
    case .refused(let refusal): .refused(refusal, serviceID: serviceID)
    case .finished(let outcome, let requestID): .outcome(outcome, serviceID: serviceID, requestID: requestID)
    case .composeCancelled:
      SheetResult(exitStatus: 3, response: 1, serviceID: serviceID, message: "cancelled")
    case .composeFailed(let failure):
      SheetResult(exitStatus: 1, response: 2, serviceID: serviceID, message: failure.message)
    }
  }
}

/// The compose step before a share with a service that declares a sheet.
struct ComposeStart: Sendable {
  var step: ComposeStep
  var prompt: any ComposePrompt
  var service: ShareService
}

/// One share running on a thread of its own (a plugin may run for minutes), its progress, its
/// `posted` event and its end handed to the main actor. Closing the window does not stop it;
/// ``cancel()`` does.
final class ShareRun: Sendable {
  let serviceID: String
  private let state = Mutex<State>(State())
  private let progressRelay: ProgressRelay

  private struct State {
    var session: ShareSession?
    var prompt: (any ComposePrompt)?
    var cancelled = false
  }

  private init(serviceID: String, progress: @escaping @Sendable @MainActor (Double?, String?) -> Void) {
    self.serviceID = serviceID
    progressRelay = ProgressRelay(deliver: progress)
  }

  /// Whether the compose sheet is open: the share has not started, and Cancel (or the picker
  /// closed) closes the sheet.
  var isComposing: Bool {
    state.withLock { $0.prompt != nil }
  }

  /// Starts sharing `items` with `serviceID`; with `compose`, its sheet first, and `composed`
  /// once the user posted (the share then starts).
  static func start(
    serviceID: String, items: [ShareItem], loaded: LoadedSelection, environment: [String: String],
    compose: ComposeStart? = nil, composed: @escaping @Sendable @MainActor () -> Void = {},
    progress: @escaping @Sendable @MainActor (Double?, String?) -> Void,
    posted: @escaping @Sendable @MainActor () -> Void,
    end: @escaping @Sendable @MainActor (ShareEnd) -> Void
  ) -> ShareRun {
    let run = ShareRun(serviceID: serviceID, progress: progress)
    if let compose { run.state.withLock { $0.prompt = compose.prompt } }
    DispatchQueue.global(qos: .userInitiated).async {
      var payload: ComposePayload?
      if let compose {
        // Blocks while the sheet shows: this thread is the share's own.
        let outcome = compose.step.run(service: compose.service, items: items, prompt: compose.prompt)
        let cancelled = run.state.withLock { state in
          state.prompt = nil
          return state.cancelled
        }
        switch outcome {
        case .notDeclared: break
        case .posted(let posted, let warnings):
          for warning in warnings { SheetApp.printError("xdg-share-sheet: \(warning.message)") }
          payload = posted
        case .cancelled:
          Task { @MainActor in end(.composeCancelled) }
          return
        case .failed(let failure):
          Task { @MainActor in end(.composeFailed(failure)) }
          return
        }
        if cancelled {
          Task { @MainActor in end(.composeCancelled) }
          return
        }
        Task { @MainActor in composed() }
      }
      let finished: ShareEnd
      do throws(ShareRefusal) {
        let session = try ServiceSource.session(
          serviceID: serviceID, loaded: loaded, environment: environment, compose: payload)
        let cancelledEarly = run.state.withLock { state in
          state.session = session
          return state.cancelled
        }
        if cancelledEarly { session.cancel() }
        let outcome = session.run(
          progress: { fraction, message in run.progressRelay.post(fraction, message) },
          posted: { Task { @MainActor in posted() } })
        finished = .finished(outcome, requestID: session.id)
      } catch {
        finished = .refused(error)
      }
      Task { @MainActor in end(finished) }
    }
    return run
  }

  /// Closes the compose sheet while it shows (nothing is shared), else stops the service's program
  /// (its whole process group); the share ends cancelled.
  func cancel() {
    let (session, prompt) = state.withLock { state in
      state.cancelled = true
      return (state.session, state.prompt)
    }
    prompt?.cancel()
    session?.cancel()
  }
}

/// Hands a plugin's progress to the main actor, the latest only: a plugin reporting thousands of
/// times a second costs one main-actor turn at a time.
private final class ProgressRelay: Sendable {
  private let pending = Mutex<(update: (Double?, String?)?, scheduled: Bool)>((nil, false))
  private let deliver: @Sendable @MainActor (Double?, String?) -> Void

  init(deliver: @escaping @Sendable @MainActor (Double?, String?) -> Void) {
    self.deliver = deliver
  }

  func post(_ fraction: Double?, _ message: String?) {
    let schedule = pending.withLock { pending in
      pending.update = (fraction, message)
      defer { pending.scheduled = true }
      return !pending.scheduled
    }
    guard schedule else { return }
    Task { @MainActor in
      let update = self.pending.withLock { pending in
        pending.scheduled = false
        return pending.update.take()
      }
      if let update { self.deliver(update.0, update.1) }
    }
  }
}
