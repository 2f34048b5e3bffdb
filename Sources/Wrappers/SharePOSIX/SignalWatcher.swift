internal import Glibc
internal import ShareSyscalls
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP into a call on a thread of its own, so that a host can stop
/// its plugin's process group before it exits: the plugin leads a group of its own, so the
/// terminal's Ctrl-C never reaches it.
public enum SignalWatcher {
  private static let action = Mutex<(@Sendable (Int32) -> Void)?>(nil)
  private static let installed = Mutex(false)

  /// Blocks the signals in this thread, and so in every thread started after, and starts the
  /// thread that waits for them. Call it first thing in `main`, before any other thread exists:
  /// a thread started earlier would still take the signals and die of them.
  public static func install() {
    guard
      !installed.withLock({ installed in
        defer { installed = true }; return installed
      })
    else { return }
    var signals = CInterop.SignalSet()
    _ = system_sigemptyset(&signals)
    for signal in [_SIGINT, _SIGTERM, _SIGHUP] { _ = system_sigaddset(&signals, signal) }
    _ = system_pthread_sigmask(_SIG_BLOCK, &signals, nil)
    let watched = signals
    DetachedThread.start {
      var set = watched
      while true {
        var received: Int32 = 0
        guard system_sigwait(&set, &received) == 0 else { continue }
        if let handler = action.withLock({ $0 }) {
          handler(received)
        } else {
          exit(dyingOf: received)
        }
      }
    }
  }

  /// ``install()`` and ``onTermination(_:)`` in one call.
  public static func watchTermination(_ handler: @escaping @Sendable (Int32) -> Void) {
    install()
    onTermination(handler)
  }

  /// What a termination signal does from now on; `nil` ends the process as the signal would.
  public static func onTermination(_ handler: (@Sendable (Int32) -> Void)?) {
    action.withLock { $0 = handler }
  }

  /// Ends the process as if `signal` had not been caught (exit status 128 + signal).
  public static func exit(dyingOf signal: Int32) -> Never {
    system_exit(128 + signal)
  }
}
