internal import Glibc
internal import ShareSyscalls

/// Questions about the controlling terminal.
public enum Terminal {
  /// Whether standard input, output or error (0, 1, 2) is a terminal.
  public static func isTerminal(_ descriptor: Int32) -> Bool {
    system_isatty(descriptor) == 1
  }

  /// Runs `body` with the terminal on `descriptor` not echoing what is typed (a password), and
  /// echoing again afterwards; when `descriptor` is no terminal, just runs `body`. Ctrl-C in
  /// between gives the terminal its echo back before the process ends (the termination handler
  /// is this one's meanwhile, and none afterwards).
  public static func withoutEcho<T>(_ descriptor: Int32 = 0, _ body: () throws -> T) rethrows -> T {
    var saved = CInterop.TerminalAttributes()
    guard system_tcgetattr(descriptor, &saved) == 0 else { return try body() }
    var quiet = saved
    quiet.c_lflag &= ~_ECHO
    let restore = saved
    SignalWatcher.onTermination { signal in
      var restore = restore
      _ = system_tcsetattr(descriptor, _TCSAFLUSH, &restore)
      SignalWatcher.exit(dyingOf: signal)
    }
    _ = system_tcsetattr(descriptor, _TCSAFLUSH, &quiet)
    defer {
      _ = system_tcsetattr(descriptor, _TCSAFLUSH, &saved)
      SignalWatcher.onTermination(nil)
    }
    return try body()
  }

  /// The terminal's width in columns, when standard error is one.
  public static var columns: Int? {
    var size = CInterop.WindowSize()
    guard system_ioctl(2, _TIOCGWINSZ, &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }
}

/// The process's standard output and standard error, written unbuffered: what is written is out
/// before the next line of code runs, as a progress bar and a crash both need.
public enum StandardStream: Int32, Sendable {
  case output = 1
  case error = 2

  /// Writes all of `text`; a reader that went away loses the rest, silently. The corresponding
  /// C function is `write`.
  public func write(_ text: String) {
    var text = text
    _ = text.withUTF8 { DescriptorIO.writeAll(UnsafeRawBufferPointer($0), to: rawValue) }
  }
}
