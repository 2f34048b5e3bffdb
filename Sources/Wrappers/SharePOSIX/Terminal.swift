import Glibc

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

/// The process's standard output and standard error, written unbuffered: what is written is out
/// before the next line of code runs, as a progress bar and a crash both need.
public enum StandardStream: Int32, Sendable {
  case output = 1
  case error = 2

  /// Writes all of `text`; a reader that went away loses the rest, silently.
  public func write(_ text: String) {
    var text = text
    text.withUTF8 { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(rawValue, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
      }
    }
  }
}
