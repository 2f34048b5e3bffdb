import FoundationEssentials
public import ShareCore
public import SharePOSIX

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

/// The share sheet (`xdg-share-sheet`) started for a front end that is not the terminal (the
/// D-Bus service's `ShowPicker`, KDE's "Share…", a web page's `navigator.share`), read back from
/// its result line as it ends. The sheet shares by itself, through ``Share``: this only starts
/// it, closes it on ``cancel()``, and says how it ended.
public final class SheetSession: Sendable {
  /// How the sheet ended.
  public enum End: Equatable, Sendable {
    /// It answered (completed, cancelled or failed: ``SheetResultLine/response``).
    case answered(SheetResultLine)
    /// It was closed from outside (``cancel()``, the session ending) before it answered.
    case closed
    /// It ended without an answer.
    case noAnswer(ChildProcess.Termination)

    /// Why it ended without an answer, in English; nil when it answered.
    public var problem: String? {
      switch self {
      case .answered: nil
      case .closed: "the share sheet was closed"
      case .noAnswer(.exited(let status)): "the share sheet ended without an answer (exit status \(status))"
      case .noAnswer(.signalled(let signal)):
        "the share sheet ended without an answer (killed by \(ChildProcess.signalName(signal)))"
      }
    }
  }

  /// Why the sheet could not start.
  public enum StartError: Error, Equatable, Sendable {
    /// `xdg-share-sheet` is neither beside this program nor in `../libexec/xdg-share`.
    case notInstalled
    case cannotStart(program: String, reason: String)
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
      throw .cannotStart(program: program, reason: error.description)
    }
  }

  /// Closes the sheet, as its close button would; a share it started goes on in the background
  /// only when the sheet says so itself.
  public func cancel() {
    process.signal(Signal.terminate)
  }

  /// Waits for the sheet to end. Blocks: call it on a thread of its own.
  public func wait() -> End {
    let output = (try? process.standardOutput?.readToEnd()) ?? []
    let termination = process.wait()
    return Self.end(output, termination: termination)
  }

  /// How a sheet that wrote `output` and ended with `termination` ended.
  public static func end(_ output: [UInt8], termination: ChildProcess.Termination) -> End {
    let lastLine = output.split(separator: UInt8(ascii: "\n")).last.map(Array.init) ?? []
    if let line = try? JSONDecoder().decode(SheetResultLine.self, from: Data(lastLine)), line.response <= 2 {
      return .answered(line)
    }
    return termination == .signalled(Signal.terminate) ? .closed : .noAnswer(termination)
  }
}
