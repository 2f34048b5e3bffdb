/// The forms Info.plist values must have, one predicate each.
enum InfoPlistForm {
  /// Reverse-DNS: letters, digits, `.` and `-`, no empty component.
  static func isBundleIdentifier(_ id: String) -> Bool {
    !id.isEmpty && id.utf8.count <= 255
      && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
      && !id.split(separator: ".", omittingEmptySubsequences: false).contains { $0.isEmpty }
  }

  /// A program name or `a|b` alternatives, each without a slash.
  static func isProgramName(_ name: String) -> Bool {
    name.split(separator: "|", omittingEmptySubsequences: false).allSatisfy {
      !$0.isEmpty && !$0.contains("/") && !$0.contains(where: \.isWhitespace)
    }
  }

  /// A well-known D-Bus name (the specification's rules).
  static func isBusName(_ name: String) -> Bool {
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    return name.utf8.count <= 255 && parts.count >= 2
      && parts.allSatisfy { part in
        guard let first = part.first, !first.isNumber else { return false }
        return part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
      }
  }

  /// App Group names as Apple spells them: `group.` and a reverse-DNS name.
  static func isGroupName(_ name: String) -> Bool {
    name.hasPrefix("group.") && isBundleIdentifier(name)
  }

  /// A relative path that stays inside the bundle.
  static func isRelativeInside(_ name: String) -> Bool {
    !name.isEmpty && !name.hasPrefix("/")
      && !name.split(separator: "/").contains { $0 == ".." }
  }
}
