import SharePOSIX

extension StringProtocol {
  /// The text without the spaces and tabs at its ends: Foundation's
  /// `trimmingCharacters(in: .whitespaces)`, scalar by scalar.
  var trimmingSpaces: String {
    let scalars = unicodeScalars
    let isSpace: (Unicode.Scalar) -> Bool = { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    guard let first = scalars.firstIndex(where: { !isSpace($0) }),
      let last = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    var trimmed = String.UnicodeScalarView()
    trimmed.append(contentsOf: scalars[first...last])
    return String(trimmed)
  }

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
