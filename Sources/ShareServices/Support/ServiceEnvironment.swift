import FoundationEssentials
import ShareCore
import SharePOSIX

/// The environment a service runs in: the user's folders and the programs on `PATH`.
///
/// A value, so that every lookup sees the environment the process was started with, and tests can
/// describe another. The folders are read from the variables' bytes: a `HOME` or `XDG_CONFIG_HOME`
/// that is not UTF-8 names a folder that exists, where `ProcessInfo.environment` would repair it
/// into one that does not.
struct ServiceEnvironment: Sendable {
  /// Every variable, as text (a value that is not UTF-8 repaired): for what is not a path.
  var variables: [String: String]
  /// Every variable, byte for byte: the folders are made from these.
  var bytes: [String: [UInt8]]

  /// The environment `variables` describe, each value as its UTF-8.
  init(_ variables: [String: String]) {
    self.variables = variables
    self.bytes = variables.mapValues { Array($0.utf8) }
  }

  /// The environment `bytes` describe; by default this process's own.
  init(bytes: [String: [UInt8]] = CurrentProcess.environmentBytes) {
    self.bytes = bytes
    self.variables = bytes.mapValues { String(decoding: $0, as: UTF8.self) }
  }

  /// A variable's value, or `nil` when it is unset or empty.
  subscript(_ name: String) -> String? {
    variables[name].flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The home folder: `HOME`, or the password database's entry.
  var home: FilePath {
    bytes["HOME"].flatMap { $0.isEmpty ? nil : FilePath(bytes: $0) }
      ?? FilePath(FileManager.default.homeDirectoryForCurrentUser.path)
  }

  /// `$XDG_CONFIG_HOME`, by default `~/.config`. A relative value is ignored, as the XDG Base
  /// Directory specification says.
  var configHome: FilePath {
    absolute("XDG_CONFIG_HOME") ?? home.appending(".config")
  }

  /// `$XDG_STATE_HOME`, by default `~/.local/state`.
  var stateHome: FilePath {
    absolute("XDG_STATE_HOME") ?? home.appending(".local/state")
  }

  /// `$XDG_CACHE_HOME`, by default `~/.cache`.
  var cacheHome: FilePath {
    absolute("XDG_CACHE_HOME") ?? home.appending(".cache")
  }

  /// The file `name` in the services' configuration folder, `$XDG_CONFIG_HOME/xdg-share/`.
  func configFile(_ name: String) -> FilePath {
    configHome.appending("xdg-share").appending(name)
  }

  /// `path` for showing to the user, with the home folder written as `~`; a path that is not
  /// UTF-8 with escapes (`FilePath.text`).
  func abbreviated(_ path: FilePath) -> String {
    let home = self.home.trimmingTrailingSlashes.bytes
    guard !home.isEmpty, home != [UInt8(ascii: "/")] else { return path.text }
    if path.bytes == home { return "~" }
    if path.bytes.starts(with: home + [UInt8(ascii: "/")]) {
      return "~" + FilePath(bytes: path.bytes.dropFirst(home.count)).text
    }
    return path.text
  }

  /// The first executable called `name` in `PATH`, or `nil`.
  func program(named name: String) -> String? {
    guard !name.isEmpty else { return nil }
    if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
    for directory in (self["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      var isDirectory = false
      if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory,
        FileManager.default.isExecutableFile(atPath: candidate)
      {
        return candidate
      }
    }
    return nil
  }

  /// A folder from the user's configuration: `~` and `$HOME` at the start are the home folder, and
  /// a relative path is relative to it.
  func expandingHome(_ path: String) -> FilePath {
    if path == "~" || path == "$HOME" || path == "${HOME}" {
      return home
    }
    for prefix in ["~/", "$HOME/", "${HOME}/"] where path.hasPrefix(prefix) {
      return FilePath(bytes: home.bytes + [UInt8(ascii: "/")] + path.dropFirst(prefix.count).utf8)
    }
    return path.hasPrefix("/")
      ? FilePath(path) : FilePath(bytes: home.bytes + [UInt8(ascii: "/")] + path.utf8)
  }

  private func absolute(_ name: String) -> FilePath? {
    guard let value = bytes[name], value.first == UInt8(ascii: "/") else { return nil }
    return FilePath(bytes: value)
  }
}
