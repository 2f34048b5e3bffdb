import FoundationEssentials
public import ShareCore
import SharePOSIX
public import ShareProtocol
import Synchronization

/// A selection that a service's rule accepts. Only ``Share/prepare(_:_:types:)`` makes one, so
/// a share cannot start unless the rule ran: a file manager or a D-Bus caller may hand over
/// anything.
public struct AcceptedSelection: Sendable {
  public let service: ShareService
  public let selection: PreparedSelection

  fileprivate init(service: ShareService, selection: PreparedSelection) {
    self.service = service
    self.selection = selection
  }
}

/// What a share reports while it runs, for its front end to render: on the share's own thread,
/// in this order.
public enum ShareEvent: Sendable {
  /// What the compose step could not remember or read; the share goes on.
  case composeWarning(ComposeWarning)
  /// The compose sheet was posted: the share starts.
  case composed
  /// The request is recorded; its program starts.
  case started
  /// The program's progress.
  case progress(fraction: Double?, message: String?)
  /// The program's own sheet is done; its work goes on in the background.
  case posted
}

/// One share, from an accepted selection to its end: the compose step of a service that declares
/// a sheet, the request recorded in the history, the program run, the outcome recorded. Every
/// front end (the command line, the D-Bus service, the share sheet) shares through this type and
/// renders its ``ShareEvent``s and its ``ShareEnd``.
///
/// ``cancel()`` may come from any thread at any time: before the compose sheet opens, while it
/// shows (it closes, nothing is shared), between Post and the program's start, or while the
/// program runs (its process group is stopped).
public final class Share: Sendable {
  public let service: ShareService
  /// The request's identifier, given before it is recorded.
  public let requestID: String
  /// Where the service's program writes its standard error.
  public var logPath: String { history.logPath(for: requestID) }

  private let accepted: AcceptedSelection
  private let compose: ComposeStep
  private let prompt: any ComposePrompt
  private let recorded: ComposePayload?
  private let history: HistoryStore
  private let environment: [String: String]
  private let userInfo: [String: JSONValue]
  private let retryOf: String?
  private let caller: String?
  /// The direct target chosen, if any.
  public let target: TargetPayload?
  private let state = Mutex<State>(State())

  private struct State {
    var phase = Phase.waiting
    var cancelled = false
  }

  private enum Phase {
    case waiting
    case composing(any ComposePrompt)
    /// Recorded by ``recordAtOnce()``, not yet run.
    case recorded(ShareSession)
    case running(ShareSession)
    case ended
  }

  /// Checks `service`'s rule against `selection`, then that this user may read each of its files.
  ///
  /// - Throws: ``ShareRefusal/notAccepted(service:refusal:)`` when the rule refuses it, with
  ///   the terms of its trace; ``ShareRefusal/unreadableFiles(_:)`` naming each file that is there
  ///   but cannot be read.
  public static func prepare(
    _ service: ShareService, _ selection: PreparedSelection, types: TypeSystem
  ) throws(ShareRefusal) -> AcceptedSelection {
    let activation = ActivationSelection(attachments: selection.attachments, types: types)
    // The evaluator answers; the trace, which answers alike, only says why.
    if !service.rule.accepts(activation) {
      let refusal = service.rule.trace(activation).refusal
      throw .notAccepted(
        service: service, refusal: refusal ?? RuleRefusal(takes: .rule(service.rule.source), given: .nothing))
    }
    let unreadable = selection.items.compactMap { unreadableProblem($0.item) }
    guard unreadable.isEmpty else { throw .unreadableFiles(unreadable) }
    return AcceptedSelection(service: service, selection: selection)
  }

  /// Why the file `item` cannot be read by this user, if it cannot. Looking at a file needs
  /// only its folder's permission (`stat`), so a `chmod 000` file passes inspection and the
  /// rule; its service would then fail or cancel in its own words ("Cannot read …"), or share
  /// nothing and complete. Every front end prepares through here, so each refuses it the same
  /// way, before anything is recorded or run. A link that leads nowhere is no file to read, and
  /// is left to its service as before.
  private static func unreadableProblem(_ item: ShareItem) -> FileProblem? {
    guard case .file(let path) = item, !FileSystem.isReadable(path.bytes),
      (try? FileSystem.status(path.bytes)) != nil
    else { return nil }
    return FileProblem(path: path, reason: .permissionDenied)
  }

  /// Looks at `requested` items, then checks `service`'s rule against them: for callers that did
  /// not match the items against services (a named service, a retry).
  ///
  /// - Throws: ``ShareRefusal/unreadableFiles(_:)`` or ``ShareRefusal/notAccepted(service:refusal:)``.
  public static func prepare(
    _ service: ShareService, requested: [RequestedItem], types: TypeSystem, inspector: some FileInspector
  ) throws(ShareRefusal) -> AcceptedSelection {
    let selection: PreparedSelection
    do {
      selection = try PreparedSelection(requested, types: types, inspector: inspector)
    } catch {
      throw .unreadableFiles(error.problems)
    }
    return try prepare(service, selection, types: types)
  }

  /// A share of `accepted`, not yet started.
  ///
  /// - Parameters:
  ///   - compose: remembers and checks the compose sheet's values.
  ///   - prompt: shows the compose sheet of a service that declares one.
  ///   - recorded: the values of a request made before (`retry`): sent again without a sheet.
  ///   - retryOf: the request this one runs again.
  ///   - caller: who asked for it, for the history (an application's id, a web site).
  ///   - target: the direct target chosen, one the service published: it goes in the request,
  ///     and the compose sheet is not shown (the target is what it would have asked for).
  public init(
    _ accepted: AcceptedSelection, compose: ComposeStep, prompt: any ComposePrompt,
    recorded: ComposePayload? = nil, history: HistoryStore, environment: [String: String],
    userInfo: [String: JSONValue] = [:], retryOf: String? = nil, caller: String? = nil,
    target: TargetPayload? = nil, requestID: String = RequestBuilder.newRequestID()
  ) {
    self.caller = caller
    self.target = target
    self.accepted = accepted
    self.service = accepted.service
    self.compose = compose
    self.prompt = prompt
    self.recorded = recorded
    self.history = history
    self.environment = environment
    self.userInfo = userInfo
    self.retryOf = retryOf
    self.requestID = requestID
  }

  /// Whether the share goes through the service's compose sheet: it declares one, and no direct
  /// target was chosen (the target is what the sheet would have asked for).
  public var asksCompose: Bool { service.composeSheet != nil && target == nil }

  /// Whether the compose sheet is open: nothing is shared yet, and ``cancel()`` closes it.
  public var isComposing: Bool {
    state.withLock { if case .composing = $0.phase { true } else { false } }
  }

  /// Records the request now, when the service declares no compose sheet (nothing is left to
  /// ask): the D-Bus `Share` call then answers a request that cannot be recorded with an error,
  /// and records it before its reply, as a terminal's share does before it starts. With a
  /// compose sheet, the request is recorded once the sheet is posted.
  ///
  /// - Throws: ``ShareRefusal/cannotRecord(_:)``.
  public func recordAtOnce() throws(ShareRefusal) {
    guard !asksCompose else { return }
    let session = try ShareSession(
      accepted, history: history, environment: environment, userInfo: userInfo, requestID: requestID,
      retryOf: retryOf, caller: caller, target: target)
    state.withLock { $0.phase = .recorded(session) }
  }

  /// Runs the share to its end, telling `report` how it goes. Blocks (a compose sheet waits for
  /// the user, a program may run for minutes): call it on a thread of its own. Runs once.
  public func run(_ report: (ShareEvent) -> Void = { _ in }) -> ShareEnd {
    defer { state.withLock { $0.phase = .ended } }
    var payload: ComposePayload?
    if asksCompose {
      let outcome: ComposeOutcome
      if let recorded {
        outcome = compose.replay(recorded, service: service)
      } else {
        guard enter(.composing(prompt)) else { return .composeCancelled }
        outcome = compose.run(service: service, items: accepted.selection.items.map(\.item), prompt: prompt)
      }
      switch outcome {
      case .notDeclared: break
      case .posted(let posted, let warnings):
        for warning in warnings { report(.composeWarning(warning)) }
        payload = posted
      case .cancelled: return .composeCancelled
      case .failed(let failure): return .composeFailed(failure)
      }
      // Cancelled after Post, before anything was recorded: nothing was shared.
      guard enter(.waiting) else { return .composeCancelled }
      if recorded == nil { report(.composed) }
    }
    let session: ShareSession
    if case .recorded(let recorded) = state.withLock({ $0.phase }) {
      session = recorded
    } else {
      do {
        session = try ShareSession(
          accepted, history: history, environment: environment, userInfo: userInfo, compose: payload,
          requestID: requestID, retryOf: retryOf, caller: caller, target: target)
      } catch {
        return .refused(error)
      }
    }
    // Cancelled while the request was recorded: its program starts stopped and ends cancelled,
    // so that the record says so.
    if !enter(.running(session)) { session.cancel() }
    report(.started)
    let outcome = session.run(
      progress: { fraction, message in report(.progress(fraction: fraction, message: message)) },
      posted: { report(.posted) })
    return .finished(outcome, requestID: requestID)
  }

  /// Cancels on the user's behalf: closes the compose sheet, or stops the program.
  public func cancel() {
    let phase = state.withLock { state in
      state.cancelled = true
      return state.phase
    }
    switch phase {
    case .composing(let prompt): prompt.cancel()
    case .running(let session): session.cancel()
    case .waiting, .recorded, .ended: break
    }
  }

  /// Moves to `phase`; false when the share was cancelled before (the phase is entered anyway).
  private func enter(_ phase: Phase) -> Bool {
    state.withLock { state in
      state.phase = phase
      return !state.cancelled
    }
  }
}

extension Share {
  /// A share of `accepted` on this desktop, as every front end makes one: the compose step's
  /// values remembered in `$XDG_CONFIG_HOME/xdg-share/configuration` (secure ones in `secrets`,
  /// the desktop's keyring unless one is handed in), its sheet shown through `prompt` (unless
  /// one is handed in, the sheet's program when there is a display, else the values as
  /// remembered), the request recorded in `$XDG_STATE_HOME/xdg-share`. The other parameters are
  /// ``init(_:compose:prompt:recorded:history:environment:userInfo:retryOf:caller:target:requestID:)``'s.
  public static func desktop(
    _ accepted: AcceptedSelection, environment: [String: String], secrets: (any SecretStore)? = nil,
    prompt: (any ComposePrompt)? = nil, recorded: ComposePayload? = nil, retryOf: String? = nil,
    caller: String? = nil, target: TargetPayload? = nil
  ) -> Share {
    let paths = SearchPaths.system(environment: environment)
    return Share(
      accepted,
      compose: ComposeStep(
        configuration: ConfigurationStore(configHome: paths.configHomeLocation),
        secrets: secrets ?? KeyringSecretStore(environment: environment),
        earlier: EarlierSettings(configHome: paths.configHomeLocation, environment: environment)),
      prompt: prompt ?? ComposePrompts.desktop(environment: environment), recorded: recorded,
      history: HistoryStore(stateHome: paths.stateHomeLocation), environment: environment, retryOf: retryOf,
      caller: caller, target: target)
  }
}
