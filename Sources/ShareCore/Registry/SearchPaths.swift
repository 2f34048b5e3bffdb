/// Where xdg-share keeps and finds things, per the XDG Base Directory specification.
public struct SearchPaths: Sendable, Equatable {
  public var home: String
  public var dataHome: String
  public var dataDirectories: [String]
  public var configHome: String
  public var stateHome: String
  public var runtimeDirectory: String?

  /// Reads `HOME` and the `XDG_*` variables; relative values are ignored, as the specification says.
  public init(environment: [String: String]) {
    func absolute(_ name: String) -> String? {
      environment[name].flatMap { $0.hasPrefix("/") ? Self.trimmed($0) : nil }
    }
    func list(_ name: String, default fallback: [String]) -> [String] {
      let entries = (environment[name] ?? "").split(separator: ":").map(String.init).filter {
        $0.hasPrefix("/")
      }
      return entries.isEmpty ? fallback : entries.map(Self.trimmed)
    }
    home = absolute("HOME") ?? "/"
    let base = home == "/" ? "" : home
    dataHome = absolute("XDG_DATA_HOME") ?? base + "/.local/share"
    dataDirectories = list("XDG_DATA_DIRS", default: ["/usr/local/share", "/usr/share"])
    configHome = absolute("XDG_CONFIG_HOME") ?? base + "/.config"
    stateHome = absolute("XDG_STATE_HOME") ?? base + "/.local/state"
    runtimeDirectory = absolute("XDG_RUNTIME_DIR")
  }

  /// The user's own extensions folder, where `xdg-share install` puts bundles.
  public var userExtensions: String { dataHome + "/xdg-share/extensions" }

  /// Every extensions folder, the user's first: the first bundle with an identifier wins.
  public var extensionDirectories: [String] {
    [userExtensions] + dataDirectories.map { $0 + "/xdg-share/extensions" }
  }

  /// The user's settings file.
  public var settingsFile: String { configHome + "/xdg-share/settings.ini" }

  private static func trimmed(_ path: String) -> String {
    var path = path
    while path.count > 1, path.hasSuffix("/") { path.removeLast() }
    return path
  }
}
