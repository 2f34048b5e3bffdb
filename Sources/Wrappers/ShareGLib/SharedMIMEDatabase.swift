internal import CGLib
public import ShareCore
import SharePOSIX
internal import ShareSyscalls

/// shared-mime-info's type hierarchy, read from the very directories GIO uses for detection.
public enum SharedMIMEDatabase {
  /// The largest file of a MIME folder read (shared-mime-info's own `mime.cache` is 157 KB).
  private static let maximumSize = 64 << 20

  /// The subclass and alias relations of every MIME directory GIO knows, the user's first: each
  /// directory's `mime.cache` when it has a valid one, as GIO reads it (as far as its lists
  /// reach), else its `subclasses` and `aliases` files.
  public static func loadHierarchy() -> MIMEHierarchy {
    var hierarchy = MIMEHierarchy()
    for directory in directoryPaths() {
      hierarchy.addDirectory { name, limit in
        let path = directory + Array("/\(name)".utf8)
        return limit < maximumSize
          ? FileSystem.readPrefix(of: path, count: limit)
          : FileSystem.contents(ofRegularFile: path, maximumSize: maximumSize)
      }
    }
    return hierarchy
  }

  /// ``directories()`` as bytes: a folder whose name is not UTF-8 is still read.
  private static func directoryPaths() -> [[UInt8]] {
    guard var entry = g_content_type_get_mime_dirs() else { return [] }
    var result: [[UInt8]] = []
    while let directory = entry.pointee {
      result.append(cStringBytes(directory))
      entry += 1
    }
    return result
  }

  /// `g_content_type_get_mime_dirs()`: `$XDG_DATA_HOME/mime` and each `$XDG_DATA_DIRS/mime`.
  public static func directories() -> [String] {
    directoryPaths().map { String(decoding: $0, as: UTF8.self) }
  }

  /// Whether any of ``directories()`` holds a compiled database (`mime.cache`): without one GIO
  /// tells file types only as `application/octet-stream` and `text/plain`.
  public static func isInstalled() -> Bool {
    directories().contains { FileSystem.isReadable(Array(($0 + "/mime.cache").utf8)) }
  }

  /// The type system of this machine: Apple's UTIs over the installed MIME database.
  public static func typeSystem() -> TypeSystem {
    TypeSystem(mime: loadHierarchy())
  }
}
