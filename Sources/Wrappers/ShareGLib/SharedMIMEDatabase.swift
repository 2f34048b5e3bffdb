internal import CGLib
import FoundationEssentials
public import ShareCore

/// shared-mime-info's type hierarchy, read from the very directories GIO uses for detection.
public enum SharedMIMEDatabase {
  /// The subclass and alias relations of every MIME directory GIO knows, the user's first.
  public static func loadHierarchy() -> MIMEHierarchy {
    var hierarchy = MIMEHierarchy()
    for directory in directories() {
      let subclasses = (try? String(contentsOfFile: directory + "/subclasses", encoding: .utf8)) ?? ""
      let aliases = (try? String(contentsOfFile: directory + "/aliases", encoding: .utf8)) ?? ""
      hierarchy.add(subclasses: subclasses, aliases: aliases)
    }
    return hierarchy
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
