import FoundationEssentials
public import ShareCore
public import SharePOSIX
public import ShareProtocol

/// Who asks for the share sheet, when it is not the user at the desktop: the sheet says so above
/// the services.
public enum SheetCaller: Equatable, Sendable {
  /// A web page, by its site (`example.org`): "example.org wants to share".
  case site(String)
  /// An application, by the name people know it by ("Share from Example Notes"), and the id the
  /// history records (a Flatpak app id, a program).
  case application(name: String, id: String?)
}

extension SheetCaller {
  /// How the history records the caller: the site, or the application's id (its name when it
  /// has none).
  public var historyName: String? {
    switch self {
    case .site(let site): site
    case .application(let name, let id): id ?? name
    }
  }
}

/// Which services the sheet offers, beyond what the rules accept: what a caller asked of it.
public struct ServiceFilter: Equatable, Sendable {
  /// Left out (`exclude`, and the caller's own services).
  public var excluded: Set<String>
  /// Only these, when given (`include`).
  public var included: Set<String>?
  /// Only services of these kinds, when given (`kinds`).
  public var kinds: Set<ShareService.Kind>?

  public init(excluded: Set<String> = [], included: Set<String>? = nil, kinds: Set<ShareService.Kind>? = nil)
  {
    self.excluded = excluded
    self.included = included
    self.kinds = kinds
  }

  /// Whether the sheet may offer `service`.
  public func admits(_ service: ShareService) -> Bool {
    !excluded.contains(service.id) && (included?.contains(service.id) ?? true)
      && (kinds?.contains(service.kind) ?? true)
  }

  public var isEmpty: Bool { excluded.isEmpty && included == nil && kinds == nil }
}

/// What the share sheet is asked to show.
public struct SheetRequest: Equatable, Sendable {
  public var items: [ShareItem]
  /// The service to share with at once, without the list.
  public var service: String?
  /// The window to stay above: `x11:<XID>`, `wayland:<handle>` or empty.
  public var parent: String
  public var caller: SheetCaller?
  /// The preview's line, instead of the one made from the items.
  public var title: String?
  /// An image to show instead of the first item's thumbnail.
  public var preview: FilePath?
  public var filter: ServiceFilter
  /// Whether the sheet keeps its parent window from input while it is shown.
  public var modal: Bool

  public init(
    items: [ShareItem], service: String? = nil, parent: String = "", caller: SheetCaller? = nil,
    title: String? = nil, preview: FilePath? = nil, filter: ServiceFilter = ServiceFilter(),
    modal: Bool = false
  ) {
    self.items = items
    self.service = service
    self.parent = parent
    self.caller = caller
    self.title = title
    self.preview = preview
    self.filter = filter
    self.modal = modal
  }
}

/// Starts the share sheet for a front end that is not the terminal: the sheet's own process
/// (``ProcessSheetLauncher``), or a double in tests. Front ends take one, so that their flows run
/// in process against a sheet that answers as a test says.
public protocol SheetLauncher: Sendable {
  /// Starts the sheet for `request`.
  func start(_ request: SheetRequest) throws(SheetSession.StartError) -> any RunningSheet
}

/// A share sheet that was started.
public protocol RunningSheet: Sendable {
  /// Closes the sheet, as its close button would; a share it started goes on in the background
  /// only when the sheet says so itself.
  func cancel()
  /// Waits for the sheet to end. Blocks: call it on a thread of its own.
  func wait() -> SheetSession.End
}

/// The share sheet's program, `xdg-share-sheet`, started as a process of its own (``SheetSession``).
public struct ProcessSheetLauncher: SheetLauncher {
  public var environment: [String: String]
  /// Whether the sheet ends when this process does (a job that a host may kill), rather than
  /// staying open for the user.
  public var endsWithParent: Bool

  public init(environment: [String: String], endsWithParent: Bool = false) {
    self.environment = environment
    self.endsWithParent = endsWithParent
  }

  public func start(_ request: SheetRequest) throws(SheetSession.StartError) -> any RunningSheet {
    try SheetSession.start(request, environment: environment, endsWithParent: endsWithParent)
  }
}

/// The share sheet (`xdg-share-sheet`) started for a front end that is not the terminal (the
/// D-Bus service's `ShowPicker`, KDE's "Share…", a web page's `navigator.share`, `xdg-share
/// --picker`), read back from its result line as it ends. The sheet shares by itself, through
/// ``Share``: this only starts it, closes it on ``cancel()``, and says how it ended.
public final class SheetSession: RunningSheet {
  /// How the sheet ended.
  public enum End: Equatable, Sendable {
    /// It answered how its share ended; its process then ended so.
    case answered(SheetAnswer, ChildProcess.Termination)
    /// It was closed from outside (``cancel()``, the session ending) before it answered.
    case closed
    /// It ended without an answer.
    case noAnswer(ChildProcess.Termination)

    /// What it answered; nil when it did not.
    public var answer: SheetAnswer? {
      if case .answered(let answer, _) = self { answer } else { nil }
    }

    /// How the share ended, as every front end names it: the answer's; closed before it
    /// answered, cancelled; without an answer, failed.
    public var status: ShareEnd.Status {
      switch self {
      case .answered(let answer, _): answer.status
      case .closed: .cancelled
      case .noAnswer: .failed
      }
    }

    /// The `Response` code: the answer's; closed, cancelled; without an answer, ended.
    public var response: ShareEnd.Response {
      switch self {
      case .answered(let answer, _): answer.response
      case .closed: .cancelled
      case .noAnswer: .ended
      }
    }

    /// Why the share did not complete: the answer's words, or why there was no answer.
    public var message: String? {
      if case .answered(let answer, _) = self { answer.message } else { problem }
    }

    /// Why it ended without an answer, in English; nil when it answered.
    public var problem: String? {
      switch self {
      case .answered: nil
      case .closed: "the share sheet was closed"
      case .noAnswer(.exited(let status)): "\(Self.withoutAnswer) (exit status \(status))"
      case .noAnswer(.signalled(let signal)):
        "\(Self.withoutAnswer) (killed by \(ChildProcess.signalName(signal)))"
      }
    }

    /// A sheet that did not answer, however it ended: what KDE Purpose's job tells its host.
    public static let withoutAnswer = "the share sheet ended without an answer"

    /// How its process ended (closed: by `SIGTERM`).
    public var termination: ChildProcess.Termination {
      switch self {
      case .answered(_, let termination), .noAnswer(let termination): termination
      case .closed: .signalled(Signal.terminate)
      }
    }
  }

  /// Why the sheet could not start; ``message`` words it for every front end.
  public enum StartError: Error, Equatable, Sendable {
    /// `xdg-share-sheet` is neither beside this program nor in `../libexec/xdg-share`.
    case notInstalled
    /// The system would not start it: what it said (`Permission denied`).
    case cannotStart(program: String, reason: String)

    /// What went wrong, in a line: "cannot start the share sheet /usr/libexec/xdg-share/
    /// xdg-share-sheet: Permission denied".
    public var message: String {
      switch self {
      case .notInstalled: "the share sheet (\(SheetProgram.name)) is not installed beside xdg-share"
      case .cannotStart(let program, let reason): "cannot start the share sheet \(program): \(reason)"
      }
    }
  }

  private let process: ChildProcess

  private init(process: ChildProcess) {
    self.process = process
  }

  /// Starts the sheet for `request`.
  ///
  /// - Parameter endsWithParent: whether the sheet ends when this process does (a job that a
  ///   host may kill), rather than staying open for the user.
  public static func start(
    _ request: SheetRequest, environment: [String: String], endsWithParent: Bool = false
  ) throws(StartError) -> SheetSession {
    guard let program = SheetProgram.locate(environment: environment) else { throw .notInstalled }
    do {
      // Its result on standard output; what GTK says goes to standard error, as ours.
      let process = try ChildProcess.spawn(
        SheetProgram.arguments(program: program, request: request, resultDescriptor: 1),
        environment: environment, standardOutput: .pipe, endsWithParent: endsWithParent)
      return SheetSession(process: process)
    } catch {
      throw .cannotStart(program: program, reason: error.reason)
    }
  }

  public func cancel() {
    process.signal(Signal.terminate)
  }

  public func wait() -> End {
    let output = (try? process.standardOutput?.readToEnd()) ?? []
    let termination = process.wait()
    return Self.end(output, termination: termination)
  }

  /// How a sheet that wrote `output` and ended with `termination` ended.
  public static func end(_ output: [UInt8], termination: ChildProcess.Termination) -> End {
    if let answer = SheetAnswer(resultOutput: output) { return .answered(answer, termination) }
    return termination == .signalled(Signal.terminate) ? .closed : .noAnswer(termination)
  }
}

/// How a share in the sheet ended, as its result line (``SheetResultLine``) tells it: what a
/// front end that started the sheet answers from. The line carries the end's exit status and
/// `Response` code, not the ``ShareEnd`` itself; its ``status`` follows from them as the
/// ``ShareEnd``'s did.
public struct SheetAnswer: Equatable, Sendable {
  /// The sheet's exit status, as `xdg-share`'s (one it does not know is a failure).
  public var exitCode: ExitCode
  public var response: ShareEnd.Response
  /// The service chosen, if any.
  public var serviceID: String?
  /// The request's id in the history, once it was recorded.
  public var requestID: String?
  /// Why it did not complete, in the sheet's words (English).
  public var message: String?
  /// What the service returned, each attachment as the plugin protocol writes it; nil unless
  /// it completed.
  public var returnedItems: [AttachmentPayload]?

  /// How the share ended, as every front end names it.
  public var status: ShareEnd.Status { ShareEnd.Status(exitCode: exitCode, response: response) }

  public init(
    exitCode: ExitCode, response: ShareEnd.Response, serviceID: String? = nil, requestID: String? = nil,
    message: String? = nil, returnedItems: [AttachmentPayload]? = nil
  ) {
    self.exitCode = exitCode
    self.response = response
    self.serviceID = serviceID
    self.requestID = requestID
    self.message = message
    self.returnedItems = returnedItems
  }

  /// The answer of a sheet whose share ended so, with `serviceID` chosen: what it writes.
  public init(_ end: ShareEnd, serviceID: String? = nil) {
    self.init(
      exitCode: end.exitCode, response: end.response, serviceID: serviceID, requestID: end.requestID,
      message: end.message(), returnedItems: end.returnedAttachments)
  }

  /// The answer in the last line of a sheet's `output`; nil when that is no result line (or has
  /// a `response` no `Response` has). The one place a result line is read.
  public init?(resultOutput output: [UInt8]) {
    let lastLine = output.split(separator: UInt8(ascii: "\n")).last.map(Array.init) ?? []
    guard let line = try? JSONDecoder().decode(SheetResultLine.self, from: Data(lastLine)),
      let response = ShareEnd.Response(rawValue: line.response)
    else { return nil }
    self.init(
      exitCode: ExitCode(rawValue: line.exitStatus) ?? .failure, response: response,
      serviceID: line.results.serviceID, requestID: line.results.requestID, message: line.results.message,
      returnedItems: line.results.returnedItems)
  }
}
