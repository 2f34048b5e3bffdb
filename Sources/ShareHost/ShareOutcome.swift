import ShareCore
public import ShareProtocol

/// How a share request ended.
public enum ShareOutcome: Equatable, Sendable {
  /// The plugin completed; what it returned (an uploaded file's URL, a saved path).
  case completed(returningItems: [ItemPayload])
  /// The plugin cancelled, with its error; or the user cancelled (``userCancelledCode``).
  case cancelled(code: Int, message: String)
  /// The plugin failed.
  case failed(PluginFailure)
  /// The plugin ran past its time limit and was stopped.
  case timedOut(seconds: Double)

  /// The error code of a request the user (not the plugin) cancelled.
  public static let userCancelledCode = -1

  /// What stopping at the time limit is, for people: "Upload took longer than 4 seconds and was
  /// stopped", with `subject` as its first words.
  static func timedOutMessage(_ subject: String, seconds: Double) -> String {
    let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    return "\(subject) took longer than \(shown) \(seconds == 1 ? "second" : "seconds") and was stopped"
  }
}

/// Why a plugin failed, as data.
public enum PluginFailure: Equatable, Sendable {
  /// The program could not be started.
  case couldNotStart(program: String, reason: String)
  /// It exited with a non-zero status before saying how the request ended.
  case exitStatus(Int32)
  /// It was killed by a signal before saying how the request ended.
  case signal(name: String)
  /// It exited successfully without a final `complete` or `cancel` event.
  case noFinalEvent
  /// A line of its output is not a protocol event.
  case unreadableOutput(line: String, problem: OutputProblem)
  /// It said the service or its server failed (a `fail` event), in its own words.
  case reported(code: Int, message: String)
  /// It was not started: it runs sandboxed and no sandbox can be made here.
  case noSandbox(SandboxUnavailable)
}

extension PluginFailure {
  /// What went wrong, for people: "it was killed by SIGSEGV".
  public var message: String {
    switch self {
    case .couldNotStart(let program, let reason): "cannot start \(program): \(reason)"
    case .exitStatus(let status): "it exited with status \(status) without finishing the request"
    case .signal(let name): "it was killed by \(name)"
    case .noFinalEvent: "it exited without saying whether it completed or cancelled"
    case .unreadableOutput(let line, let problem):
      "it wrote output that is not a protocol event (\(problem.message)): \(Diagnostics.quoted(line))"
    case .reported(_, let message): message
    case .noSandbox(let problem): problem.message
    }
  }
}

/// Why a line of a plugin's output is not a protocol event.
public enum OutputProblem: Error, Equatable, Sendable {
  case notJSON
  /// A member the event needs is missing (its key path).
  case missing(String)
  /// A member holds a value of the wrong type (its key path).
  case wrongValue(String)
  /// The protocol's own checks refuse it, at a key path when there is one.
  case invalid(at: String?, String)
  /// JSON, but none of the events.
  case notAnEvent
  /// A line longer than the host reads.
  case tooLong(limit: Int)

  /// What is wrong, for people: "'progress' has a wrong value".
  public var message: String {
    switch self {
    case .notJSON: "not JSON"
    case .missing(let path): "\(path) is missing"
    case .wrongValue(let path): "\(path) has a wrong value"
    case .invalid(nil, let reason): reason
    case .invalid(let path?, let reason): "\(path): \(reason)"
    case .notAnEvent: "not a protocol event"
    case .tooLong(let limit): "a line longer than \(limit) bytes"
    }
  }
}
