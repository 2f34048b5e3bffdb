import Dispatch
import ShareCore
import ShareHost
import Synchronization

/// How a share ended.
enum ShareEnd: Sendable {
  /// It could not start: the rule refused the items, a file went, the history cannot be written.
  case refused(ShareRefusal)
  case finished(ShareOutcome, requestID: String)

  func result(serviceID: String) -> SheetResult {
    switch self {
    case .refused(let refusal): .refused(refusal, serviceID: serviceID)
    case .finished(let outcome, let requestID): .outcome(outcome, serviceID: serviceID, requestID: requestID)
    }
  }
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
    var cancelled = false
  }

  private init(serviceID: String, progress: @escaping @Sendable @MainActor (Double?, String?) -> Void) {
    self.serviceID = serviceID
    progressRelay = ProgressRelay(deliver: progress)
  }

  /// Starts sharing `items` with `serviceID`.
  static func start(
    serviceID: String, items: [ShareItem], loaded: LoadedSelection, environment: [String: String],
    progress: @escaping @Sendable @MainActor (Double?, String?) -> Void,
    posted: @escaping @Sendable @MainActor () -> Void,
    end: @escaping @Sendable @MainActor (ShareEnd) -> Void
  ) -> ShareRun {
    let run = ShareRun(serviceID: serviceID, progress: progress)
    DispatchQueue.global(qos: .userInitiated).async {
      let finished: ShareEnd
      do throws(ShareRefusal) {
        let session = try ServiceSource.session(
          serviceID: serviceID, loaded: loaded, environment: environment)
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

  /// Stops the service's program (its whole process group); the share ends cancelled.
  func cancel() {
    let session = state.withLock { state in
      state.cancelled = true
      return state.session
    }
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
