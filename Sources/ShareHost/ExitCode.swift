/// The exit codes of `xdg-share`, in one table (documented in the README and `--help`).
public enum ExitCode: Int32, CaseIterable, Sendable {
  /// Done: listed, valid, shared.
  case success = 0
  /// Something failed: an invalid bundle, a file that cannot be read, an I/O error.
  case failure = 1
  /// The command line cannot be understood.
  case usage = 2
  /// The service cancelled the request (or the user did).
  case cancelled = 3
  /// The service's program failed: a non-zero exit, a signal, no final event, unreadable output.
  case pluginFailed = 4
  /// The service ran past its time limit and was stopped.
  case timedOut = 5
  /// No service has that identifier.
  case noSuchService = 6
  /// The service does not accept this selection (or none does).
  case notAccepted = 7
  /// No service was chosen: no terminal to ask on, or the user chose none.
  case noServiceChosen = 8
}
