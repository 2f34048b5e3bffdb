internal import CGLib
public import ShareCore
import SharePOSIX

/// shared-mime-info's type hierarchy, read from the very directories GIO uses for detection.
public enum SharedMIMEDatabase {
  /// The subclass and alias relations of every MIME directory GIO knows, the user's first: each
  /// directory's `mime.cache` when it has a valid one, as GIO reads it, else its `subclasses` and
  /// `aliases` files.
  public static func loadHierarchy() -> MIMEHierarchy {
    var hierarchy = MIMEHierarchy()
    for directory in directoryPaths() {
      if let cache = FileSystem.contents(
        ofRegularFile: directory + Array("/mime.cache".utf8), maximumSize: 64 << 20),
        hierarchy.add(cache: cache)
      {
        continue
      }
      hierarchy.add(
        subclasses: text(directory + Array("/subclasses".utf8)),
        aliases: text(directory + Array("/aliases".utf8)))
    }
    return hierarchy
  }

  /// A text file of the database; empty when it is missing, unreadable or not UTF-8.
  private static func text(_ path: [UInt8]) -> String {
    FileSystem.contents(ofRegularFile: path, maximumSize: 64 << 20).flatMap {
      String(validating: $0, as: UTF8.self)
    } ?? ""
  }

  /// ``directories()`` as bytes: a folder whose name is not UTF-8 is still read.
  private static func directoryPaths() -> [[UInt8]] {
    guard var entry = g_content_type_get_mime_dirs() else { return [] }
    var result: [[UInt8]] = []
    while let directory = entry.pointee {
      result.append(Array(UnsafeRawBufferPointer(start: directory, count: strlen(directory))))
      entry += 1
    }
    return result
  }

  /// `g_content_type_get_mime_dirs()`: `$XDG_DATA_HOME/mime` and each `$XDG_DATA_DIRS/mime`.
  public static func directories() -> [String] {
    guard var entry = g_content_type_get_mime_dirs() else { return [] }
    var result: [String] = []
    while let directory = entry.pointee {
      result.append(String(cString: directory))
      entry += 1
    }
    return result
  }

  /// Whether any of ``directories()`` holds a compiled database (`mime.cache`): without one GIO
  /// tells file types only as `application/octet-stream` and `text/plain`.
  public static func isInstalled() -> Bool {
    directories().contains { access($0 + "/mime.cache", R_OK) == 0 }
  }

  /// The type system of this machine: Apple's UTIs over the installed MIME database.
  public static func typeSystem() -> TypeSystem {
    TypeSystem(mime: loadHierarchy())
  }
}
