import Dispatch
import ShareHost
import Synchronization

/// One share running on a thread of its own (a plugin may run for minutes), its events handed to
/// the main actor. Closing the window does not stop it; ``cancel()`` does.
final class ShareRun: Sendable {
  private let share: Share

  private init(_ share: Share) {
    self.share = share
  }

  /// Whether the compose sheet is open: the share has not started, and Cancel (or the picker
  /// closed) closes the sheet.
  var isComposing: Bool { share.isComposing }

  /// Runs `share`: `composed` once the user posted its compose sheet (the program then starts),
  /// its `progress`, `posted` when the program's own sheet is done, and its `end`.
  static func start(
    _ share: Share, composed: @escaping @Sendable @MainActor () -> Void,
    progress: @escaping @Sendable @MainActor (Double?, String?) -> Void,
    posted: @escaping @Sendable @MainActor () -> Void,
    end: @escaping @Sendable @MainActor (ShareEnd) -> Void
  ) -> ShareRun {
    let run = ShareRun(share)
    let relay = ProgressRelay(deliver: progress)
    // The thread holds the run until the share ends: the window that started it may go first.
    DispatchQueue.global(qos: .userInitiated).async {
      let ended = run.share.run { event in
        switch event {
        case .composeWarning(let warning): SheetApp.printError("xdg-share-sheet: \(warning.message)")
        case .composed: Task { @MainActor in composed() }
        case .started: break
        case .progress(let fraction, let message): relay.post(fraction, message)
        case .posted: Task { @MainActor in posted() }
        }
      }
      Task { @MainActor in end(ended) }
    }
    return run
  }

  /// Closes the compose sheet while it shows (nothing is shared), else stops the service's program
  /// (its whole process group); the share ends cancelled.
  func cancel() {
    share.cancel()
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
