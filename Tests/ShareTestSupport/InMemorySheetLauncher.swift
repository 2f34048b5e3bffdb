import Dispatch
public import ShareHost
import SharePOSIX
import Synchronization

/// A ``SheetLauncher`` without a sheet: it records what each front end asks of the share sheet
/// and ends as a test says, so that the web host's, Purpose's and `ShowPicker`'s flows run in
/// process, with no display and no `xdg-share-sheet`.
///
/// ```swift
/// let sheets = InMemorySheetLauncher(answering: .finished(.cancelled(code: 1, message: "no"), requestID: "r1"),
///                                    serviceID: "org.example.upload")
/// let answer = WebShareHost.serve(read: …, whenInputEnds: { _ in }, environment: …, sheets: sheets)
/// #expect(sheets.requests.first?.caller == .site("example.org"))
/// ```
///
/// The contract:
/// - Every ``start(_:)`` is recorded in ``requests``, in order, whether or not it starts.
/// - ``Script/ends(_:)``: the sheet's ``RunningSheet/wait()`` returns that end at once.
///   ``Script/waitsForCancel``: it blocks until ``RunningSheet/cancel()``, then ends
///   ``SheetSession/End/closed``, as a real sheet sent `SIGTERM` before it answered does.
///   ``Script/cannotStart(_:)``: ``start(_:)`` throws that error.
/// - ``cancelCount`` counts the cancels of every sheet it started.
public final class InMemorySheetLauncher: SheetLauncher {
  /// How the sheet it starts ends.
  public enum Script: Sendable {
    case ends(SheetSession.End)
    case waitsForCancel
    case cannotStart(SheetSession.StartError)
  }

  public let script: Script
  private let recorded = Mutex<(requests: [SheetRequest], cancels: Int)>(([], 0))

  public init(_ script: Script) {
    self.script = script
  }

  /// A sheet in which the share with `serviceID` ended so: it answers as `xdg-share-sheet` writes
  /// such an end, and exits with its status.
  public convenience init(answering end: ShareEnd, serviceID: String? = nil) {
    self.init(.ends(.answered(SheetAnswer(end, serviceID: serviceID), .exited(end.exitCode.rawValue))))
  }

  /// What was asked of the sheet, in order.
  public var requests: [SheetRequest] { recorded.withLock { $0.requests } }

  /// How many times a sheet it started was cancelled.
  public var cancelCount: Int { recorded.withLock { $0.cancels } }

  public func start(_ request: SheetRequest) throws(SheetSession.StartError) -> any RunningSheet {
    recorded.withLock { $0.requests.append(request) }
    switch script {
    case .ends(let end): return Sheet(end: end, launcher: self)
    case .waitsForCancel: return Sheet(end: nil, launcher: self)
    case .cannotStart(let error): throw error
    }
  }

  fileprivate func noteCancel() {
    recorded.withLock { $0.cancels += 1 }
  }

  /// One sheet: it ends as scripted, or closed once cancelled.
  private final class Sheet: RunningSheet {
    let end: SheetSession.End?
    let launcher: InMemorySheetLauncher
    let cancelled = DispatchSemaphore(value: 0)

    init(end: SheetSession.End?, launcher: InMemorySheetLauncher) {
      self.end = end
      self.launcher = launcher
    }

    func cancel() {
      launcher.noteCancel()
      cancelled.signal()
    }

    func wait() -> SheetSession.End {
      if let end { return end }
      cancelled.wait()
      return .closed
    }
  }
}
