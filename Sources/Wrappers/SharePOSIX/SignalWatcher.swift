import Foundation
import Glibc

/// Turns SIGINT, SIGTERM and SIGHUP into a call on a thread of its own, so that a host can stop
/// its plugin's process group before it exits: the plugin leads a group of its own, so the
/// terminal's Ctrl-C never reaches it.
public enum SignalWatcher {
  /// Blocks the signals in this thread (and every thread started after) and calls `handler` with
  /// each one as it arrives. Call it once, early, before other threads start.
  public static func watchTermination(_ handler: @escaping @Sendable (Int32) -> Void) {
    var signals = sigset_t()
    sigemptyset(&signals)
    for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
    pthread_sigmask(SIG_BLOCK, &signals, nil)
    let watched = signals
    Thread.detachNewThread {
      var set = watched
      while true {
        var received: Int32 = 0
        if sigwait(&set, &received) == 0 { handler(received) }
      }
    }
  }

  /// Ends the process as if `signal` had not been caught (exit status 128 + signal).
  public static func exit(dyingOf signal: Int32) -> Never {
    Glibc.exit(128 + signal)
  }
}
