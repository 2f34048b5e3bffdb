import ShareCore

/// The names files are written under when a caller names them (a web page, a sandboxed app)
/// rather than giving a path, made safe as Chromium's Web Share makes them
/// (`base::SafeBaseName`): the last component of what the caller said, with nothing that could
/// climb out of the request's folder, hide the file, or mislead in a list (control and
/// direction-changing characters); two files of one name told apart.
public struct SafeFileNames: Sendable {
  /// Names given so far, to tell two files of one name apart.
  private var taken: Set<String> = []

  public init() {}

  /// The longest name most Linux file systems take, in bytes.
  static let maximumBytes = 255

  /// `given` as a file name, or nil when nothing of it can be one (empty, `.`, `..`).
  public static func safe(_ given: String) -> String? {
    // The last component: `a/b.png` and `a\b.png` are `b.png`.
    let last =
      given.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }.last.map(String.init) ?? ""
    guard last != ".", last != ".." else { return nil }
    var scalars = String.UnicodeScalarView()
    for scalar in last.unicodeScalars {
      scalars.append(isHidden(scalar) ? "_" : scalar)
    }
    var name = String(scalars).trimmingSpaces()
    // A name that starts with a dot is hidden in every file manager.
    if name.hasPrefix(".") { name = "_" + name.dropFirst() }
    guard !name.isEmpty, name.unicodeScalars.contains(where: { $0 != "_" && $0 != "." }) else { return nil }
    return shortened(name)
  }

  /// `name`, or `name (2)`, `name (3)`… before its extension when it was given before.
  public mutating func unique(_ name: String) -> String {
    var candidate = name
    var number = 2
    while taken.contains(candidate.lowercased()) {
      let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 } ?? name.endIndex
      candidate = Self.shortened("\(name[..<dot]) (\(number))\(name[dot...])")
      number += 1
    }
    taken.insert(candidate.lowercased())
    return candidate
  }

  /// Characters a name must not show: controls, and those that change the direction text is
  /// read in (a name could then seem to end in `.png` and end in `.exe`).
  static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// `name` cut to ``maximumBytes``, from the end of its stem so that its extension stays.
  static func shortened(_ name: String) -> String {
    guard name.utf8.count > maximumBytes else { return name }
    let dot = name.lastIndex(of: ".") ?? name.endIndex
    let suffix = String(name[dot...])
    var stem = String.UnicodeScalarView()
    var used = suffix.utf8.count
    for scalar in name[..<dot].unicodeScalars {
      let width = String(scalar).utf8.count
      guard used + width <= maximumBytes else { break }
      stem.append(scalar)
      used += width
    }
    return String(stem) + suffix
  }
}
