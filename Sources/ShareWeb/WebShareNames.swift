import ShareCore

/// The names a page's files are written under, made safe as Chromium's Web Share makes them
/// (`base::SafeBaseName`): the last component of what the page said, with nothing that could
/// climb out of the request's folder, hide the file, or mislead in a list (control and
/// direction-changing characters); and only the types Chromium lets pages share
/// (`chrome/browser/webshare/share_service_impl.cc`), so that a page meets the same rules here as
/// on the platforms where Chromium shares itself.
public struct WebShareNames {
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

  /// Whether a file of `name` and `type` may be shared by a page.
  public static func isPermitted(name: String, type: String) -> Bool {
    guard let dot = name.lastIndex(of: "."), permittedExtensions.contains(name[dot...].lowercased()) else {
      return false
    }
    let bare = type.split(separator: ";").first.map { $0.trimmingSpaces().lowercased() } ?? ""
    return bare.isEmpty || permittedTypes.contains(bare)
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

  /// Chromium's `kPermittedFileExtensions`.
  static let permittedExtensions: Set<String> = [
    ".avif", ".bmp", ".css", ".csv", ".ehtml", ".flac", ".gif", ".htm", ".html", ".ico", ".jfif", ".jpeg",
    ".jpg",
    ".m4a", ".m4v", ".mp3", ".mp4", ".mpeg", ".mpg", ".oga", ".ogg", ".ogm", ".ogv", ".opus", ".pdf", ".pjp",
    ".pjpeg", ".png", ".shtm", ".shtml", ".svg", ".svgz", ".text", ".tif", ".tiff", ".txt", ".wav", ".weba",
    ".webm",
    ".webp", ".xbm",
  ]

  /// Chromium's `kPermittedMimeTypes`.
  static let permittedTypes: Set<String> = [
    "application/pdf", "audio/flac", "audio/mp3", "audio/mpeg", "audio/ogg", "audio/wav", "audio/webm",
    "audio/x-m4a", "image/avif", "image/bmp", "image/gif", "image/jpeg", "image/png", "image/svg+xml",
    "image/tiff", "image/webp", "image/x-icon", "image/x-ms-bmp", "image/x-xbitmap",
    "text/comma-separated-values",
    "text/css", "text/csv", "text/html", "text/plain", "video/mp4", "video/mpeg", "video/ogg", "video/webm",
  ]
}
