/// The forms Info.plist values must have, one predicate each.
package enum InfoPlistForm {
  /// Reverse-DNS: letters, digits, `.` and `-`, no empty component.
  package static func isBundleIdentifier(_ id: String) -> Bool {
    // By bytes: each character allowed is one ASCII byte (a character of more, or a byte of one,
    // is refused either way), and cutting the text into characters cost more than the rest of
    // checking a bundle's identifiers.
    var previous = UInt8(ascii: ".")
    for byte in id.utf8 {
      guard isASCIIAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else {
        return false
      }
      // An empty component: a `.` first, or after another.
      if byte == UInt8(ascii: "."), previous == UInt8(ascii: ".") { return false }
      previous = byte
    }
    return !id.isEmpty && id.utf8.count <= 255 && previous != UInt8(ascii: ".")
  }

  /// A configuration item's `Identifier`: letters, digits, `.`, `_` and `-`, so that it is a
  /// file's JSON key, a Secret Service attribute and the left of `configure --set IDENT=VALUE` alike.
  package static func isConfigurationIdentifier(_ identifier: String) -> Bool {
    !identifier.isEmpty && identifier.utf8.count <= 255
      && identifier.utf8.allSatisfy {
        isASCIIAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_")
          || $0 == UInt8(ascii: "-")
      }
  }

  private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: false
    }
  }

  /// A program name or `a|b` alternatives, each without a slash.
  static func isProgramName(_ name: String) -> Bool {
    name.split(separator: "|", omittingEmptySubsequences: false).allSatisfy {
      !$0.isEmpty && !$0.contains("/") && !$0.contains(where: \.isWhitespace)
    }
  }

  /// A well-known D-Bus name (the specification's rules).
  /// A D-Bus match rule for signals (``SignalMatchRule``).
  static func isSignalMatchRule(_ rule: String) -> Bool {
    SignalMatchRule(parsing: rule) != nil
  }

  package static func isBusName(_ name: String) -> Bool {
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    return name.utf8.count <= 255 && parts.count >= 2
      && parts.allSatisfy { part in
        guard let first = part.first, !first.isNumber else { return false }
        return part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
      }
  }

  /// A name of `org.xdgshare.session-bus.talk`: a well-known D-Bus name, or one ending in `.*`
  /// for it and every name below it, as `xdg-dbus-proxy --talk` takes them (`org.kde.*`; not
  /// `org.*`, nor `*`).
  package static func isBusNameFilter(_ name: String) -> Bool {
    isBusName(name.hasSuffix(".*") ? String(name.dropLast(2)) : name)
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

  /// The first Xcode build variable in `text`, as written: `$(NAME)` or `${NAME}`, `NAME` a
  /// build setting (letters, digits, `_`, not starting with a digit) with any `:modifiers`
  /// (`$(PRODUCT_NAME:rfc1034identifier)`). `nil` when there is none.
  static func buildVariable(in text: String) -> String? {
    guard text.utf8.contains(UInt8(ascii: "$")) else { return nil }
    let bytes = Array(text.utf8)
    func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "_"):
        true
      case UInt8(ascii: "0")...UInt8(ascii: "9"): !first
      default: false
      }
    }
    var start = 0
    while start + 3 < bytes.count {
      defer { start += 1 }
      guard bytes[start] == UInt8(ascii: "$") else { continue }
      let close: UInt8
      switch bytes[start + 1] {
      case UInt8(ascii: "("): close = UInt8(ascii: ")")
      case UInt8(ascii: "{"): close = UInt8(ascii: "}")
      default: continue
      }
      var end = start + 2
      guard isNameByte(bytes[end], first: true) else { continue }
      while end < bytes.count, isNameByte(bytes[end], first: false) { end += 1 }
      if end < bytes.count, bytes[end] == UInt8(ascii: ":") {
        while end < bytes.count, bytes[end] != close, bytes[end] != UInt8(ascii: "\n") { end += 1 }
      }
      if end < bytes.count, bytes[end] == close {
        return String(decoding: bytes[start...end], as: UTF8.self)
      }
    }
    return nil
  }
}
