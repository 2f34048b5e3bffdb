import SharePOSIX

/// Where the command writes. Tests of the command-line library substitute their own.
public struct Output: Sendable {
  let writeOut: @Sendable (String) -> Void
  let writeError: @Sendable (String) -> Void

  public init(out: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void) {
    self.writeOut = out
    self.writeError = error
  }

  /// The process's standard output and standard error.
  public static let standard = Output(
    out: { StandardStream.output.write($0) }, error: { StandardStream.error.write($0) })

  /// Writes a line to standard output.
  func line(_ text: String) { writeOut(text + "\n") }

  /// Writes `xdg-share: message` to standard error.
  func error(_ text: String) { writeError("xdg-share: " + text + "\n") }

  /// Writes a diagnostic line, already worded, to standard error.
  func diagnostic(_ text: String) { writeError(text + "\n") }
}
