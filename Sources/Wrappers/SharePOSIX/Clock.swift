import Glibc

/// Monotonic time in seconds, for deadlines that a changed wall clock must not move.
public enum Clock {
  public static var now: Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}

/// Process-wide signal settings.
public enum ProcessSignals {
  /// Makes a write to a closed pipe an `EPIPE` error instead of a fatal `SIGPIPE`: a plugin that
  /// exits without reading its request must not take the host down with it.
  public static func ignoreBrokenPipes() {
    signal(SIGPIPE, SIG_IGN)
  }
}

/// Questions about the controlling terminal.
public enum Terminal {
  /// Whether standard input, output or error (0, 1, 2) is a terminal.
  public static func isTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) == 1
  }

  /// The terminal's width in columns, when standard error is one.
  public static var columns: Int? {
    var size = winsize()
    guard ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }
}

/// Questions about processes by their id.
public enum ProcessStatus {
  /// This process's id.
  public static var currentProcess: Int32 { getpid() }

  /// Whether a process with this id exists (it may belong to someone else: `EPERM` counts).
  public static func isAlive(_ pid: Int32) -> Bool {
    pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
  }
}
