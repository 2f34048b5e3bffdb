public import ShareCore
public import ShareProtocol

/// Why a share cannot start, as data; ``message(naming:among:)`` words it.
public enum ShareRefusal: Error, Equatable, Sendable {
  case noSuchService(String)
  /// The service's rule refuses the selection.
  case notAccepted(service: ShareService, refusal: RuleRefusal)
  /// The service has no direct target with that identifier (`service` nil: no service has);
  /// the targets it has, for the words.
  case noSuchTarget(String, service: String?, known: [String])
  /// The direct target does not take these items (its `contentTypes`).
  case targetRefuses(DirectTarget, service: ShareService)
  /// Files that cannot be looked at.
  case unreadableFiles([FileProblem])
  /// The history record could not be written, so the request is not started.
  case cannotRecord(HistoryStore.RecordFailure)
}

/// How a share ended, or why it never started: what ``Share/run(_:)`` returns, and what a
/// picker ends with before there is a share. The one table of what each end is for the desktop
/// (``exitCode``, ``response``, ``historyStatus``) and the one place its words are made
/// (``message(naming:)``, ``sentence(service:)``, ``notification(service:)``); front ends only
/// render them.
public enum ShareEnd: Equatable, Sendable {
  /// The program ran to an outcome; its request is in the history as `requestID`.
  case finished(ShareOutcome, requestID: String)
  /// The share could not start.
  case refused(ShareRefusal)
  /// The compose sheet was cancelled: nothing was shared.
  case composeCancelled
  /// The compose step stopped the share before it started (a value missing, the sheet failed).
  case composeFailed(ComposeFailure)
  /// No service accepts the items (`itemCount` of them).
  case noServiceAccepts(itemCount: Int)
  /// No service was chosen.
  case notChosen(NoChoice)

  public enum NoChoice: Equatable, Sendable {
    /// The user chose none: the picker closed, Enter at the terminal's question.
    case declined
    /// There was no one to ask: no terminal, no display.
    case noOneToAsk
    /// The share sheet had no display to open on: none named (`[]`), or none of `displays`
    /// (`WAYLAND_DISPLAY`, `DISPLAY`) could be opened.
    case noDisplay([String])
  }

  /// What a D-Bus `Response` says in its first argument, as xdg-desktop-portal's requests do.
  public enum Response: UInt32, Sendable {
    case completed = 0
    /// By the user, before or after choosing, or by the service.
    case cancelled = 1
    /// Any other end: failed, timed out, refused, nothing accepts.
    case ended = 2
  }

  /// The exit status of `xdg-share` and of the share sheet.
  public var exitCode: ExitCode {
    switch self {
    case .finished(let outcome, _):
      switch outcome {
      case .completed: .success
      case .cancelled: .cancelled
      case .failed: .pluginFailed
      case .timedOut: .timedOut
      }
    case .refused(.noSuchService), .refused(.noSuchTarget): .noSuchService
    case .refused(.notAccepted), .refused(.targetRefuses), .noServiceAccepts: .notAccepted
    case .refused(.unreadableFiles), .refused(.cannotRecord), .composeFailed: .failure
    case .composeCancelled, .notChosen(.declined): .cancelled
    case .notChosen(.noOneToAsk), .notChosen(.noDisplay): .noServiceChosen
    }
  }

  /// The `Response` code.
  public var response: Response {
    switch self {
    case .finished(.completed, _): .completed
    case .finished(.cancelled, _), .composeCancelled, .notChosen(.declined): .cancelled
    default: .ended
    }
  }

  /// How the history records it: only a request that was recorded has a status.
  public var historyStatus: HistoryRecord.Status? {
    if case .finished(let outcome, _) = self { outcome.historyStatus } else { nil }
  }

  /// What kind of end it is, as every front end names it (``Status/word(in:)``).
  public var status: Status { Status(exitCode: exitCode, response: response) }

  /// Its status for KDE Purpose's job (`xdg-share-purpose`), whose host shows the words of a
  /// failed job but not those of a cancelled one: a service's own cancel that says why ("not
  /// signed in") is a failure there, so that its words are seen. A share sheet needs no such
  /// rendering: it showed the words itself.
  public var purposeStatus: Status {
    if case .finished(.cancelled(let code, let message), _) = self, code != ShareOutcome.userCancelledCode,
      !message.isEmpty
    {
      return .failed
    }
    return status
  }

  /// The request's id in the history, once it was recorded.
  public var requestID: String? {
    if case .finished(_, let requestID) = self { requestID } else { nil }
  }

  /// What the service returned, each attachment as the plugin protocol writes it; nil unless it
  /// completed.
  public var returnedAttachments: [AttachmentPayload]? {
    if case .finished(.completed(let items), _) = self { items.flatMap(\.attachments) } else { nil }
  }

  /// Why it did not complete, in a line: the history's `message`, a D-Bus `Response`'s, the
  /// sheet's; `nil` for a share that completed.
  ///
  /// - Parameter naming: how a refusal names its service.
  public func message(naming: ShareRefusal.Naming = .name) -> String? {
    switch self {
    case .finished(.completed, _): nil
    case .finished(.cancelled(let code, let message), _):
      code == ShareOutcome.userCancelledCode && message.isEmpty ? Self.cancelled : message
    case .finished(.failed(let failure), _): failure.message
    case .finished(.timedOut(let seconds), _): ShareOutcome.timedOutMessage("it", seconds: seconds)
    case .refused(let refusal): refusal.message(naming: naming)
    case .composeCancelled: Self.cancelled
    case .composeFailed(let failure): failure.message
    case .noServiceAccepts(let count):
      count == 1
        ? "no installed service accepts this item"
        : "no installed service accepts these \(count) items together"
    case .notChosen(.declined): "closed before a service was chosen"
    case .notChosen(.noOneToAsk): "no terminal to ask on; choose one with --service ID"
    case .notChosen(.noDisplay(let displays)):
      displays.isEmpty
        ? "no display to show the share sheet on (neither WAYLAND_DISPLAY nor DISPLAY is set)"
        : "cannot open the display \(displays.joined(separator: " or ")) to show the share sheet"
    }
  }

  /// What a terminal says of it, naming the service `service`: "Upload failed: it was killed by
  /// SIGSEGV"; `nil` when there is nothing to say (it completed; the user chose none).
  public func sentence(service: String) -> String? {
    switch self {
    case .finished(.completed, _), .notChosen(.declined): nil
    case .finished(.cancelled(ShareOutcome.userCancelledCode, _), _): Self.cancelled
    case .finished(.cancelled(_, let message), _):
      message.isEmpty ? "\(service) cancelled" : "\(service) cancelled: \(message)"
    case .finished(.failed(let failure), _): "\(service) failed: " + failure.message
    case .finished(.timedOut(let seconds), _): ShareOutcome.timedOutMessage(service, seconds: seconds)
    default: message()
    }
  }

  /// The desktop notification telling it where no window or terminal does; `nil` when nothing
  /// needs telling (the user cancelled in the compose sheet, or chose none).
  ///
  /// - Parameter returned: what the service returned, a line each, for a share that completed.
  public func notification(service: String, returned: [String] = []) -> (summary: String, body: String)? {
    switch self {
    case .finished(.completed, _): ("Shared with \(service)", returned.joined(separator: "\n"))
    case .finished(.cancelled(_, let message), _): ("\(service) cancelled", message)
    case .finished(.failed(let failure), _): ("Sharing with \(service) failed", failure.message)
    case .finished(.timedOut, _): ("Sharing with \(service) failed", sentence(service: service) ?? "")
    case .refused, .composeFailed, .noServiceAccepts: ("Cannot share", message() ?? "")
    case .composeCancelled, .notChosen: nil
    }
  }

  private static let cancelled = "cancelled"
}

extension ShareEnd {
  /// What kind of end a share had: the one table of the words each front end says it in
  /// (``word(in:)``). It follows from the exit status and the `Response` code alone, so that an
  /// end the share sheet told in its result line, which carries only these, is the same status
  /// as the ``ShareEnd`` it was made from.
  public enum Status: Equatable, Sendable, CaseIterable {
    case completed
    /// By the user (before or after choosing, the compose sheet) or by the service.
    case cancelled
    /// The service's program failed; or there was no one to ask which service to choose.
    case failed
    /// The service ran past its time limit and was stopped.
    case timedOut
    /// The service's rule (or its direct target) does not take the items, or no service does.
    case notAccepted
    /// There is no such service, or no such direct target (exit status 6).
    case noSuchService
    /// It could not start: files that cannot be read, the request not recorded, the compose step
    /// failed.
    case notStarted

    /// The status of an end with `exitCode` and `response` (``ShareEnd/exitCode``,
    /// ``ShareEnd/response``).
    public init(exitCode: ExitCode, response: Response) {
      switch (response, exitCode) {
      case (.completed, _): self = .completed
      case (.cancelled, _): self = .cancelled
      case (.ended, .timedOut): self = .timedOut
      case (.ended, .notAccepted): self = .notAccepted
      case (.ended, .noSuchService): self = .noSuchService
      case (.ended, .failure): self = .notStarted
      case (.ended, _): self = .failed
      }
    }

    /// Where a status is said in a word; each medium keeps the words its documentation gives.
    public enum Medium: Sendable, CaseIterable {
      /// A D-Bus `Response`'s `outcome` (data/org.xdgshare.Request1.xml): `completed`,
      /// `cancelled`, `failed`, `timed-out`.
      case dbus
      /// `xdg-share share --json`'s `status`: the history's words, `no-such-service` for what
      /// exit status 6 says, and `refused` for another share that never ran.
      case commandLine
      /// The Web Share host's `outcome` (docs/web-share.md): `completed`, `cancelled`, `failed`,
      /// `no-service`; a page learns no time limit.
      case webShare
    }

    /// The status in `medium`'s word.
    public func word(in medium: Medium) -> String {
      switch (self, medium) {
      case (.completed, _): "completed"
      case (.cancelled, _): "cancelled"
      case (.timedOut, .dbus), (.timedOut, .commandLine): HistoryRecord.Status.timedOut.rawValue
      case (.notAccepted, .webShare): "no-service"
      case (.noSuchService, .commandLine): "no-such-service"
      case (.notAccepted, .commandLine), (.notStarted, .commandLine): "refused"
      case (.failed, _), (.timedOut, .webShare), (.notAccepted, .dbus), (.notStarted, _), (.noSuchService, _):
        "failed"
      }
    }
  }
}

extension ShareOutcome {
  /// How the history records it.
  public var historyStatus: HistoryRecord.Status {
    switch self {
    case .completed: .completed
    case .cancelled: .cancelled
    case .failed: .failed
    case .timedOut: .timedOut
    }
  }
}

extension ShareRefusal {
  /// How a refusal names the service: people know it by its name, D-Bus callers by its
  /// identifier.
  public enum Naming: Sendable {
    case name
    case identifier
  }

  /// What it is, in a line; several unreadable files are joined by "; ".
  ///
  /// - Parameter known: identifiers a mistyped one may have meant; asked only then.
  public func message(naming: Naming = .name, among known: () -> [String] = { [] }) -> String {
    lines(naming: naming, among: known).joined(separator: "; ")
  }

  /// What it is, a line each: one for each file that cannot be read, as a terminal prints them.
  public func lines(naming: Naming = .name, among known: () -> [String] = { [] }) -> [String] {
    switch self {
    case .noSuchService(let id):
      let suggestion = Suggestion.nearest(to: id, in: known())
      return ["no share service '\(id)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")]
    case .notAccepted(let service, let refusal):
      return [Diagnostics.message(for: refusal, service: naming == .name ? service.name : service.id)]
    case .noSuchTarget(let id, let service, let known):
      let subject =
        service.map { "\($0) has no direct target '\(id)'" } ?? "no service has a direct target '\(id)'"
      let suggestion = Suggestion.nearest(to: id, in: known)
      return [subject + (suggestion.map { "; did you mean '\($0)'?" } ?? "")]
    case .targetRefuses(let target, let service):
      let subject = naming == .name ? service.name : service.id
      let types = target.contentTypes.joined(separator: ", ")
      return ["\(target.title) (\(subject)) takes only \(types)"]
    case .unreadableFiles(let problems):
      return problems.map(Diagnostics.line(for:))
    case .cannotRecord(let failure):
      return ["cannot record the request, so it was not started: \(failure.file): \(failure.reasonText)"]
    }
  }
}
