// The few string and path operations the package needs that the standard library lacks, so that
// no module imports Foundation for them. `package`: for this package's modules, not its API.

extension StringProtocol {
  /// The text without spaces and tabs at either end, scalar by scalar as Foundation's
  /// `trimmingCharacters(in: .whitespaces)` (line breaks are kept; a space that carries a
  /// combining mark is still a space here).
  package func trimmingSpaces() -> String {
    let scalars = unicodeScalars
    let isSpace: (Unicode.Scalar) -> Bool = { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    guard let first = scalars.firstIndex(where: { !isSpace($0) }),
      let last = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    var trimmed = String.UnicodeScalarView()
    trimmed.append(contentsOf: scalars[first...last])
    return String(trimmed)
  }

  /// The text without white space or line breaks at either end.
  package func trimmingWhitespace() -> String {
    guard let first = firstIndex(where: { !$0.isWhitespace }),
      let last = lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(self[first...last])
  }

  /// The text with each scalar for which `replacement` gives text replaced by that text: the one
  /// loop of every escaping. Scalar by scalar, as the formats' readers read: a quote followed by
  /// a combining mark is one `Character`, which a loop over characters would pass over.
  package func replacingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
    var out = ""
    out.reserveCapacity(utf8.count)
    for scalar in unicodeScalars {
      if let text = replacement(scalar) { out += text } else { out.unicodeScalars.append(scalar) }
    }
    return out
  }

  /// The text padded with spaces at the end to `width` characters (never cut).
  package func padded(to width: Int) -> String {
    String(self) + String(repeating: " ", count: Swift.max(0, width - count))
  }
}

/// Paths held as strings (folders xdg-share itself names): the parent, as `dirname` gives it.
package enum PathText {
  /// `/a/b` → `/a`, `/a` → `/`, `a` → `` (as Foundation's `deletingLastPathComponent`); trailing
  /// slashes are ignored.
  package static func parent(of path: String) -> String {
    var path = Substring(path)
    while path.count > 1, path.hasSuffix("/") { path.removeLast() }
    guard let slash = path.lastIndex(of: "/") else { return "" }
    var parent = path[..<slash]
    while parent.count > 1, parent.hasSuffix("/") { parent.removeLast() }
    return parent.isEmpty ? "/" : String(parent)
  }

  /// The last component: `/a/b` → `b`.
  package static func lastComponent(of path: String) -> String {
    var path = Substring(path)
    while path.count > 1, path.hasSuffix("/") { path.removeLast() }
    guard let slash = path.lastIndex(of: "/") else { return String(path) }
    return String(path[path.index(after: slash)...])
  }
}
