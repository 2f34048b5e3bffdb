public import ShareCore
import Synchronization

/// A ``FileInspector`` that answers from a table instead of the file system, and remembers what
/// it was asked.
///
/// Use it to test code that looks at files (`ServiceCatalog`, `PreparedSelection`,
/// `TypeSystem.attachments(for:inspector:)`) without GIO, without files on disk, and with
/// problems (a file that is gone, one that may not be read) on demand.
///
/// ```swift
/// let inspector = InMemoryFileInspector([
///   FilePath("/photos/a.png"): .file(contentType: "image/png", size: 70),
///   FilePath("/secret"): .problem(.permissionDenied),
/// ])
/// _ = try catalog.match(items, inspector: inspector)
/// #expect(inspector.inspectionCount(of: FilePath("/photos/a.png")) == 1)
/// ```
///
/// The contract:
/// - A path is looked up by its exact bytes: nothing is normalised, as ``FileInspector`` asks of
///   every implementation (`/a//b` and `/a/b` are different entries).
/// - A path in the table with ``Answer/facts(_:)`` returns those facts; with
///   ``Answer/problem(_:)`` it throws a ``FileProblem`` carrying the path that was asked and that
///   reason. A path not in the table throws ``FileProblem`` with ``FileProblem/Reason/notFound``,
///   as a real file system answers for a file that does not exist.
/// - Every call is recorded, in the order made and whatever its answer, in ``inspected``: a test
///   can assert that each file was looked at exactly once. ``reset()`` forgets the calls, never
///   the table.
/// - The table never changes after `init`; answers are the same on every call and every thread.
///   Recording is thread-safe, so one inspector may be shared by concurrent callers.
public final class InMemoryFileInspector: FileInspector {
  /// What the inspector answers for one path.
  public enum Answer: Hashable, Sendable {
    /// The file can be looked at; these are its facts.
    case facts(FileFacts)
    /// The file cannot be looked at, for this reason.
    case problem(FileProblem.Reason)

    /// A regular file of `contentType` and `size` bytes.
    public static func file(contentType: String, size: UInt64 = 0) -> Answer {
      .facts(FileFacts(contentType: contentType, size: size, isDirectory: false))
    }

    /// A folder (`inode/directory`, size 0), as GIO reports one.
    public static let directory = Answer.facts(
      FileFacts(contentType: "inode/directory", size: 0, isDirectory: true))
  }

  /// The answers, by path.
  public let answers: [FilePath: Answer]
  private let calls = Mutex<[FilePath]>([])

  /// An inspector answering from `answers`; any other path is not found.
  public init(_ answers: [FilePath: Answer] = [:]) {
    self.answers = answers
  }

  /// Records the call, then answers from the table.
  ///
  /// - Throws: ``FileProblem`` for a path whose answer is a problem, or that is not in the table
  ///   (``FileProblem/Reason/notFound``).
  public func inspect(_ path: FilePath) throws(FileProblem) -> FileFacts {
    calls.withLock { $0.append(path) }
    switch answers[path] {
    case .facts(let facts)?: return facts
    case .problem(let reason)?: throw FileProblem(path: path, reason: reason)
    case nil: throw FileProblem(path: path, reason: .notFound)
    }
  }

  /// Every path asked about so far, in call order, repeats included.
  public var inspected: [FilePath] {
    calls.withLock { $0 }
  }

  /// How many times `path` (these exact bytes) was asked about.
  public func inspectionCount(of path: FilePath) -> Int {
    calls.withLock { calls in calls.count { $0 == path } }
  }

  /// Forgets the calls recorded so far; the answers stay.
  public func reset() {
    calls.withLock { $0.removeAll() }
  }
}
