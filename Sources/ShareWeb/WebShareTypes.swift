import ShareCore

/// The types of files a web page may share: those Chromium's Web Share lets pages share where it
/// shares itself (`chrome/browser/webshare/share_service_impl.cc`), so that a page meets the same
/// rules here as elsewhere: an executable, an archive or a desktop entry is never handed to the
/// desktop by a web page. Names are made safe by `SafeFileNames`, as Chromium makes them.
public enum WebShareTypes {
  /// Whether a file of `name` and `type` may be shared by a page: its extension is one of
  /// Chromium's, and its type empty or one of Chromium's.
  public static func isPermitted(name: String, type: String) -> Bool {
    guard let dot = name.lastIndex(of: "."), permittedExtensions.contains(name[dot...].lowercased()) else {
      return false
    }
    let bare = type.split(separator: ";").first.map { $0.trimmingSpaces().lowercased() } ?? ""
    return bare.isEmpty || permittedTypes.contains(bare)
  }

  /// Chromium's `kPermittedFileExtensions`; the extension's `PERMITTED_EXTENSIONS` (`page.js`,
  /// kept equal by `ExtensionTablesTests`, as ``permittedTypes`` is to `PERMITTED_TYPES`).
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
