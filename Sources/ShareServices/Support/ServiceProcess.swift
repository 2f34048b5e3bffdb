import Dispatch
import SharePOSIX
import Synchronization

/// What the services' process sets up before it serves a request.
///
/// `main.swift` is synchronous on purpose: with top-level `await`, the main thread is handed to
/// `dispatch_main()`, which waits in `sigsuspend` with no signal blocked, so SIGTERM would kill the
/// process there before the half-written files could be removed. Instead the main thread blocks
/// the termination signals (``prepare()``), starts the request in a detached task and parks
/// (``parkMainThread()``); every thread started after inherits the blocked signals, and only the
/// watcher's thread receives them.
public enum ServiceProcess {
  /// Prepares the process: a write to a closed pipe becomes an error instead of a fatal signal,
  /// and SIGTERM, SIGINT and SIGHUP (the host stopping the request's process group) remove the
  /// half-written files the services registered, then end the process at once (status 128 +
  /// the signal).
  ///
  /// Call it first thing in `main`, before any other thread starts.
  public static func prepare() {
    ProcessSignals.ignoreBrokenPipes()
    SignalWatcher.watchTermination { signal in
      TemporaryFiles.removeAll()
      SignalWatcher.exit(dyingOf: signal)
    }
  }

  /// Blocks the main thread for good; the request's task ends the process.
  public static func parkMainThread() -> Never {
    let never = DispatchSemaphore(value: 0)
    while true { never.wait() }
  }
}

/// Files being written that must not outlive the process when it is stopped: a copy's
/// temporary name, a placeholder.
enum TemporaryFiles {
  private static let paths = Mutex<[Int: [UInt8]]>([:])
  private static let counter = Atomic<Int>(0)

  /// Registers `path` for removal if the process is stopped; returns a token for ``forget(_:)``.
  static func register(_ path: [UInt8]) -> Int {
    let token = counter.wrappingAdd(1, ordering: .relaxed).newValue
    paths.withLock { $0[token] = path }
    return token
  }

  /// The file has been put in place or removed: it is no longer ours to clean up.
  static func forget(_ token: Int) {
    _ = paths.withLock { $0.removeValue(forKey: token) }
  }

  /// Removes every registered file (on SIGTERM).
  static func removeAll() {
    let all = paths.withLock { paths in
      defer { paths.removeAll() }
      return Array(paths.values)
    }
    for path in all { try? FileSystem.remove(path) }
  }
}
