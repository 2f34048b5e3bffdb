import FoundationEssentials
internal import ShareCore

/// This desktop's type system, for ``ItemProvider/hasItemConformingToTypeIdentifier(_:)``: Apple's
/// UTIs over the shared-mime-info hierarchy, read once, on first use.
enum SystemTypes {
  static let typeSystem = typeSystem(environment: ProcessInfo.processInfo.environment)

  /// The type system of the desktop `environment` describes.
  static func typeSystem(environment: [String: String]) -> TypeSystem {
    TypeSystem(mime: mimeHierarchy(environment: environment))
  }

  /// shared-mime-info's folders, the most important first: `$XDG_DATA_HOME/mime`, then each
  /// `$XDG_DATA_DIRS/mime` (by default `~/.local/share`, `/usr/local/share`, `/usr/share`), as GIO
  /// looks them up.
  static func mimeDirectories(environment: [String: String]) -> [String] {
    let paths = SearchPaths(environment: environment)
    return ([paths.dataHome] + paths.dataDirectories).map { $0 + "/mime" }
  }

  /// Every folder's `mime.cache` when it has a valid one, as GIO reads it, else its `subclasses`
  /// and `aliases` files; a missing or unreadable file adds nothing.
  static func mimeHierarchy(environment: [String: String]) -> MIMEHierarchy {
    var hierarchy = MIMEHierarchy()
    for directory in mimeDirectories(environment: environment) {
      // Whole files: this runs once per plug-in process, off any path someone waits on.
      hierarchy.addDirectory { name, _ in
        FileManager.default.contents(atPath: directory + "/" + name).map { [UInt8]($0) }
      }
    }
    return hierarchy
  }
}
