internal import CGLib
internal import Glibc
public import ShareCore

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
  /// `O_NOATIME`, which Glibc's module leaves out (it needs `_GNU_SOURCE`); the same on every
  /// Linux architecture Swift runs on.
  static let noAccessTime: Int32 = 0o1000000

  public init() {}

  public func inspect(_ path: FilePath) throws(FileProblem) -> FileFacts {
    try withCPath(path.bytes) { cPath throws(FileProblem) -> FileFacts in
      var status = stat()
      guard stat(cPath, &status) == 0 else {
        let error = errno
        // A link that leads nowhere (to nothing, to itself, through a file): GIO calls it
        // `inode/symlink`, and so does this.
        if lstat(cPath, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
          return FileFacts(contentType: "inode/symlink", size: UInt64(status.st_size), isDirectory: false)
        }
        throw FileProblem(path: path, reason: Self.reason(errno: error))
      }
      let size = UInt64(max(0, status.st_size))
      switch status.st_mode & S_IFMT {
      case S_IFDIR: return FileFacts(contentType: "inode/directory", size: 0, isDirectory: true)
      case S_IFCHR: return FileFacts(contentType: "inode/chardevice", size: size, isDirectory: false)
      case S_IFBLK: return FileFacts(contentType: "inode/blockdevice", size: size, isDirectory: false)
      case S_IFIFO: return FileFacts(contentType: "inode/fifo", size: size, isDirectory: false)
      case S_IFSOCK: return FileFacts(contentType: "inode/socket", size: size, isDirectory: false)
      // Not read, as GIO does not (files in /proc and /sys claim no size), and text as with GIO,
      // so that a new empty file opens in a text editor.
      case S_IFREG where size == 0:
        return FileFacts(contentType: "text/plain", size: 0, isDirectory: false)
      default:
        return FileFacts(contentType: Self.contentType(of: cPath), size: size, isDirectory: false)
      }
    }
  }

  /// The name's guess, or when it is uncertain, the guess from the name and the first bytes.
  private static func contentType(of cPath: UnsafePointer<CChar>) -> String {
    let name = g_path_get_basename(cPath)
    defer { g_free(name) }
    var uncertain: gboolean = 0
    let byName = takeString(g_content_type_guess(name, nil, 0, &uncertain))
    guard uncertain != 0 else { return byName.map(mimeType) ?? "application/octet-stream" }
    // O_NOATIME is refused (EPERM) for files of other users; GIO then opens without it.
    // O_NONBLOCK: a file swapped for a FIFO since `stat` must not hold up the reader.
    let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC
    var descriptor = open(cPath, flags | noAccessTime)
    if descriptor < 0, errno == EPERM { descriptor = open(cPath, flags) }
    // An unreadable file keeps the name's guess, as with GIO.
    guard descriptor >= 0 else { return byName.map(mimeType) ?? "application/octet-stream" }
    defer { close(descriptor) }
    var opened = stat()
    guard fstat(descriptor, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG else {
      return byName.map(mimeType) ?? "application/octet-stream"
    }
    let byContent = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: sniffLength) { buffer in
      let count = read(descriptor, buffer.baseAddress, sniffLength)
      guard count >= 0 else { return byName }
      return takeString(g_content_type_guess(name, buffer.baseAddress, gsize(count), nil))
    }
    return byContent.map(mimeType) ?? "application/octet-stream"
  }

  private static func reason(errno error: Int32) -> FileProblem.Reason {
    switch error {
    case ENOENT, ENOTDIR: .notFound
    case EACCES, EPERM: .permissionDenied
    default: .other(String(cString: strerror(error)))
    }
  }

  /// On Unix a GIO content type is a MIME type already; this keeps it so on others.
  static func mimeType(_ contentType: String) -> String {
    contentType.withCString { takeString(g_content_type_get_mime_type($0)) } ?? contentType
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
  return FilePath(bytes: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
}
