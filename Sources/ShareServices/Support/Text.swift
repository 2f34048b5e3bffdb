import SharePOSIX

extension StringProtocol {
  /// Whether the two texts are equal but for case, as Foundation's `caseInsensitiveCompare` (no
  /// locale) finds them: compared lowered, raised and lowered again, so that `ß`, `ẞ` and `SS`
  /// match.
  func equalsIgnoringCase(_ other: some StringProtocol) -> Bool {
    folded == other.folded
  }

  private var folded: String { lowercased().uppercased().lowercased() }
}

/// The request's log: standard error, which the host keeps.
enum Log {
  /// Writes `line` and a newline at once, unbuffered, so that it is there even when the process
  /// is stopped right after.
  static func write(_ line: String) {
    StandardStream.error.write(line + "\n")
  }
}
