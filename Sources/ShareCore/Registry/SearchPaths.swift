/// Where xdg-share keeps and finds things, per the XDG Base Directory specification.
///
/// Each folder is held as bytes (a `HOME` or `XDG_DATA_HOME` need not be UTF-8); the `String`
/// properties give it as ``FilePath/text``, the path itself whenever it is UTF-8.
public struct SearchPaths: Sendable, Equatable {
  public var homeLocation: FilePath
  public var dataHomeLocation: FilePath
  public var dataDirectoryLocations: [FilePath]
  public var configHomeLocation: FilePath
  public var stateHomeLocation: FilePath
  public var runtimeDirectoryLocation: FilePath?

  public var home: String { homeLocation.text }
  public var dataHome: String { dataHomeLocation.text }
  public var dataDirectories: [String] { dataDirectoryLocations.map(\.text) }
  public var configHome: String { configHomeLocation.text }
  public var stateHome: String { stateHomeLocation.text }
  public var runtimeDirectory: String? { runtimeDirectoryLocation?.text }

  /// Reads `HOME` and the `XDG_*` variables; relative values are ignored, as the specification says.
  ///
  /// - Parameter inherited: the process's environment as bytes. A value of `environment` that is
  ///   the lossy decoding of its value here (what `ProcessInfo` gives for bytes that are not
  ///   UTF-8) is taken as those bytes; any other value as its UTF-8.
  public init(environment: [String: String], inherited: [String: [UInt8]] = [:]) {
    func value(_ name: String) -> [UInt8]? {
      guard let text = environment[name] else { return nil }
      if let raw = inherited[name], String(decoding: raw, as: UTF8.self) == text { return raw }
      return Array(text.utf8)
    }
    func absolute(_ name: String) -> FilePath? {
      value(name).flatMap {
        $0.first == UInt8(ascii: "/") ? FilePath(bytes: $0).trimmingTrailingSlashes : nil
      }
    }
    func list(_ name: String, default fallback: [String]) -> [FilePath] {
      let entries = (value(name) ?? []).split(separator: UInt8(ascii: ":")).filter {
        $0.first == UInt8(ascii: "/")
      }
      return entries.isEmpty
        ? fallback.map(FilePath.init) : entries.map { FilePath(bytes: $0).trimmingTrailingSlashes }
    }
    homeLocation = absolute("HOME") ?? FilePath("/")
    let base = homeLocation.bytes == [UInt8(ascii: "/")] ? [] : homeLocation.bytes
    dataHomeLocation = absolute("XDG_DATA_HOME") ?? FilePath(bytes: base + Array("/.local/share".utf8))
    dataDirectoryLocations = list("XDG_DATA_DIRS", default: ["/usr/local/share", "/usr/share"])
    configHomeLocation = absolute("XDG_CONFIG_HOME") ?? FilePath(bytes: base + Array("/.config".utf8))
    stateHomeLocation = absolute("XDG_STATE_HOME") ?? FilePath(bytes: base + Array("/.local/state".utf8))
    runtimeDirectoryLocation = absolute("XDG_RUNTIME_DIR")
  }

  /// The user's own extensions folder, where `xdg-share install` puts bundles.
  public var userExtensions: String { userExtensionsLocation.text }
  public var userExtensionsLocation: FilePath { dataHomeLocation.appendingRaw("/xdg-share/extensions") }

  /// Every extensions folder, the user's first: the first bundle with an identifier wins.
  public var extensionDirectories: [String] { extensionDirectoryLocations.map(\.text) }
  public var extensionDirectoryLocations: [FilePath] {
    [userExtensionsLocation] + dataDirectoryLocations.map { $0.appendingRaw("/xdg-share/extensions") }
  }

  /// The user's settings file.
  public var settingsFile: String { settingsFileLocation.text }
  public var settingsFileLocation: FilePath { configHomeLocation.appendingRaw("/xdg-share/settings.ini") }
}

extension FilePath {
  /// This path with `suffix` added as it is (as `String`'s `+` did).
  fileprivate func appendingRaw(_ suffix: String) -> FilePath {
    FilePath(bytes: bytes + Array(suffix.utf8))
  }
}
