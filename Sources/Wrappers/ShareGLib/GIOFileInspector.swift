internal import CGLib
public import ShareCore
import SharePOSIX
internal import ShareSyscalls

/// Looks at files with GIO: the content type comes from the name, and from the content when the
/// name gives no certain answer (a PNG without an extension is still `image/png`).
///
/// This is what `g_file_query_info` does for a local file's `standard::content-type` (GLib's
/// `glocalfileinfo.c`): `stat`, then `g_content_type_guess` on the name, then on the first 4 KiB
/// when the name is not decisive. Doing it here rather than through `GFile` keeps GIO's virtual
/// file systems out of the process: no GVfs modules loaded and no connection to `gvfsd`, which
/// takes about 1 MB less resident in the long-running service (`docs/benchmarks.md`).
public struct GIOFileInspector: FileInspector {
  /// How much of a file GIO's local backend reads to guess its type by content.
  static let sniffLength = 4096

  public init() {}

  public func inspect(_ path: FilePath) throws(FileProblem) -> FileFacts {
    let status: FileStatus
    do {
      status = try FileSystem.status(path.bytes)
    } catch {
      // A link that leads nowhere (to nothing, to itself, through a file): GIO calls it
      // `inode/symlink`, and so does this.
      if let link = try? FileSystem.linkStatus(path.bytes), link.node == .symbolicLink {
        return FileFacts(
          contentType: "inode/symlink", size: link.size, isDirectory: false, typeSource: .fileSystem)
      }
      throw FileProblem(path: path, reason: Self.reason(error))
    }
    // A device, FIFO or socket is never read: its kind is its type, as with GIO.
    let special: String
    switch status.node {
    case .directory:
      return FileFacts(contentType: "inode/directory", size: 0, isDirectory: true, typeSource: .fileSystem)
    case .characterDevice: special = "inode/chardevice"
    case .blockDevice: special = "inode/blockdevice"
    case .fifo: special = "inode/fifo"
    case .socket: special = "inode/socket"
    // Not read, as GIO does not (files in /proc and /sys claim no size), and text as with GIO,
    // so that a new empty file opens in a text editor.
    case .regular where status.size == 0:
      return FileFacts(contentType: "text/plain", size: 0, isDirectory: false, typeSource: .fileSystem)
    case .regular, .symbolicLink:
      let (type, source) = Self.contentType(of: path.bytes)
      return FileFacts(contentType: type, size: status.size, isDirectory: false, typeSource: source)
    }
    return FileFacts(contentType: special, size: status.size, isDirectory: false, typeSource: .fileSystem)
  }

  /// The name's guess, or when it is uncertain, the guess from the name and the first bytes.
  private static func contentType(of path: [UInt8]) -> (String, TypeSource) {
    withCString(path) { cPath in
      let name = g_path_get_basename(cPath)
      defer { g_free(name) }
      var uncertain: gboolean = 0
      let byName = takeString(g_content_type_guess(name, nil, 0, &uncertain))
      // An unreadable file keeps the name's guess, as with GIO.
      guard uncertain != 0, let prefix = FileSystem.readPrefix(of: path, count: sniffLength) else {
        return (byName.map(mimeType) ?? "application/octet-stream", .name)
      }
      let byContent = prefix.withUnsafeBufferPointer {
        takeString(g_content_type_guess(name, $0.baseAddress, gsize($0.count), nil))
      }
      return (byContent.map(mimeType) ?? "application/octet-stream", .content)
    }
  }

  private static func reason(_ error: SystemError) -> FileProblem.Reason {
    if error.isNoSuchPath { return .notFound }
    if error.isPermissionDenied { return .permissionDenied }
    return .other(error.reason)
  }

  /// On Unix a GIO content type is a MIME type already; this keeps it so on others.
  static func mimeType(_ contentType: String) -> String {
    contentType.withCString { takeString(g_content_type_get_mime_type($0)) } ?? contentType
  }

  /// The content type of a file named `name` (empty: no name) whose first bytes are `prefix`
  /// (up to 4 KiB), as GIO guesses it for a local file: the name's guess, the content's when the
  /// name is not decisive. For a file handed over as a descriptor, which has no path here.
  public static func guessContentType(forName name: String, prefix: [UInt8]) -> String {
    name.withCString { cName in
      // An empty file is text whatever its name, as GIO has it for a local one.
      if prefix.isEmpty { return "text/plain" }
      let named: UnsafePointer<CChar>? = name.isEmpty ? nil : cName
      var uncertain: gboolean = 0
      let byName = named.flatMap { takeString(g_content_type_guess($0, nil, 0, &uncertain)) }
      if let byName, uncertain == 0 { return mimeType(byName) }
      let byContent = prefix.withUnsafeBufferPointer {
        takeString(g_content_type_guess(named, $0.baseAddress, gsize($0.count), nil))
      }
      return byContent.map(mimeType) ?? "application/octet-stream"
    }
  }

  /// The content type GIO guesses from a file name alone, for names that are not files (a URL's
  /// last path component).
  public static func guessContentType(forName name: String) -> String {
    name.withCString { takeString(g_content_type_guess($0, nil, 0, nil)) }.map(mimeType)
      ?? "application/octet-stream"
  }
}

/// The process's working directory, byte for byte (`g_get_current_dir`).
public func currentDirectory() -> FilePath {
  guard let pointer = g_get_current_dir() else { return FilePath("/") }
  defer { g_free(pointer) }
  return FilePath(bytes: cStringBytes(pointer))
}
