import FoundationEssentials

/// The environment a service runs in: the user's folders and the programs on `PATH`.
///
/// A value, so that every lookup sees the environment the process was started with, and tests can
/// describe another.
struct ServiceEnvironment: Sendable {
  /// Every variable, as the host passed them.
  var variables: [String: String]

  init(_ variables: [String: String] = ProcessInfo.processInfo.environment) {
    self.variables = variables
  }

  /// A variable's value, or `nil` when it is unset or empty.
  subscript(_ name: String) -> String? {
    variables[name].flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The home folder: `HOME`, or the password database's entry.
  var home: String {
    self["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
  }

  /// `$XDG_CONFIG_HOME`, by default `~/.config`. A relative value is ignored, as the XDG Base
  /// Directory specification says.
  var configHome: String {
    absolute("XDG_CONFIG_HOME") ?? home + "/.config"
  }

  /// `$XDG_CACHE_HOME`, by default `~/.cache`.
  var cacheHome: String {
    absolute("XDG_CACHE_HOME") ?? home + "/.cache"
  }

  /// The file `name` in the services' configuration folder, `$XDG_CONFIG_HOME/xdg-share/`.
  func configFile(_ name: String) -> String {
    configHome + "/xdg-share/" + name
  }

  /// `path` for showing to the user, with the home folder written as `~`.
  func abbreviated(_ path: String) -> String {
    let home = self.home.hasSuffix("/") ? String(self.home.dropLast()) : self.home
    guard !home.isEmpty else { return path }
    if path == home { return "~" }
    if path.hasPrefix(home + "/") { return "~" + path.dropFirst(home.count) }
    return path
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
  func expandingHome(_ path: String) -> String {
    var path = path
    if path == "~" || path == "$HOME" || path == "${HOME}" {
      return home
    }
    for prefix in ["~/", "$HOME/", "${HOME}/"] where path.hasPrefix(prefix) {
      path = home + "/" + path.dropFirst(prefix.count)
      return path
    }
    return path.hasPrefix("/") ? path : home + "/" + path
  }

  private func absolute(_ name: String) -> String? {
    guard let value = self[name], value.hasPrefix("/") else { return nil }
    return value
  }
}
