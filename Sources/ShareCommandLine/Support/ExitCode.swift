/// The exit codes of `xdg-share`, in one table (documented in the README and `--help`).
public enum ExitCode: Int32, CaseIterable, Sendable {
  /// Done: listed, valid, shared.
  case success = 0
  /// Something failed: an invalid bundle, a file that cannot be read, an I/O error.
  case failure = 1
  /// The command line cannot be understood.
  case usage = 2
}
