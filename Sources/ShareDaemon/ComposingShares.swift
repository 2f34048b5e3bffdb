import ShareCore
import ShareDBus
import ShareHost
import SharePOSIX
import ShareProtocol
import Synchronization

/// `Share` with a service that declares a compose sheet: the sheet program (the service never
/// links GTK) or, without a display, the defaults, then the share, on the request's own thread.
/// `Cancel` before Post closes the sheet; after, it stops the plugin as for any share.
extension RequestTable {
  /// What starts the compose step and then the share, once the handle is queued; the rule was
  /// checked already, so that a refusal is still the call's error.
  func composeThenShare(
    path: String, service: ShareService, selection: PreparedSelection, types: TypeSystem,
    history: HistoryStore, environment: [String: String], step: ComposeStep, waker: Waker,
    owner: String
  ) -> () -> Void {
    let composing = ComposingShare(prompt: ComposePrompts.desktop(environment: environment))
    requests[path] = ActiveRequest(owner: owner, work: .composing(composing))
    let outbox = self.outbox
    return {
      DetachedThread.start {
        let compose: ComposePayload?
        switch step.run(service: service, items: selection.items.map(\.item), prompt: composing.prompt) {
        case .notDeclared: compose = nil
        case .posted(let payload, _): compose = payload
        case .cancelled:
          outbox.post(.finished(path: path, response: Self.composeResponse(code: 1, Self.cancelledMessage)))
          waker.wake()
          return
        case .failed(let failure):
          outbox.post(.finished(path: path, response: Self.composeResponse(code: 2, failure.message)))
          waker.wake()
          return
        }
        guard !composing.isCancelled else {
          outbox.post(.finished(path: path, response: Self.composeResponse(code: 1, Self.cancelledMessage)))
          waker.wake()
          return
        }
        let session: ShareSession
        do throws(ShareRefusal) {
          session = try ShareSession(
            service: service, selection: selection, types: types, history: history, environment: environment,
            compose: compose)
        } catch {
          outbox.post(.finished(path: path, response: Self.composeResponse(code: 2, BusError(error).message)))
          waker.wake()
          return
        }
        composing.begin(session)
        let outcome = session.run { fraction, text in
          outbox.post(.progress(path: path, fraction: fraction ?? -1, message: text ?? ""))
          waker.wake()
        }
        outbox.post(.finished(path: path, response: Self.response(outcome, requestID: session.id)))
        waker.wake()
      }
    }
  }

  /// The message of a request cancelled in its compose sheet, as of one cancelled later.
  static let cancelledMessage = "cancelled"

  /// The `Response` of a share that ended before its request started.
  static func composeResponse(code: UInt32, _ message: String) -> [DBusValue] {
    [.uint32(code), .vardict([("message", .string(message))])]
  }
}

/// A share whose compose sheet is open, then whose plugin runs: what `Cancel` stops.
final class ComposingShare: Sendable {
  let prompt: any ComposePrompt
  private let state = Mutex<(session: ShareSession?, cancelled: Bool)>((nil, false))

  init(prompt: any ComposePrompt) {
    self.prompt = prompt
  }

  var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// The plugin runs now; one cancelled meanwhile is stopped at once.
  func begin(_ session: ShareSession) {
    let cancelled = state.withLock { state in
      state.session = session
      return state.cancelled
    }
    if cancelled { session.cancel() }
  }

  func cancel() {
    let session = state.withLock { state in
      state.cancelled = true
      return state.session
    }
    if let session { session.cancel() } else { prompt.cancel() }
  }
}
