public import ShareCore
import ShareDBus
import SharePOSIX

/// Whether a service's requirements are met on this desktop: programs on `PATH`, names owned or
/// activatable on the session bus (asked once, only for the names some service needs).
public struct DesktopRequirements: RequirementChecker {
  let searchPath: [String]
  let busNames: [String: Bool]

  public init(environment: [String: String], services: [ShareService]) {
    searchPath = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(
      String.init)
    busNames = BusNames.availability(of: Set(services.flatMap(\.requirements.busNames)).sorted())
  }

  /// Whether `name` is in a folder of `PATH` and may be run (`access(X_OK)`, as
  /// `FileManager.isExecutableFile` asks, without setting up a file manager for it).
  public func isProgramAvailable(_ name: String) -> Bool {
    searchPath.contains { FileSystem.isExecutable(Array(($0 + "/" + name).utf8)) }
  }

  public func isBusNameAvailable(_ name: String) -> Bool {
    busNames[name] ?? false
  }
}
