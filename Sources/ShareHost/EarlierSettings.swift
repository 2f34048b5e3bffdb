import FoundationEssentials
public import ShareCore
import SharePOSIX

/// What a bundled service kept in a file of its own in the user's configuration folder before
/// services ran sandboxed. Its sandbox shows it only its container, so the host reads the file
/// and starts the compose step from its values (docs/sandbox.md, "What the host carries in and
/// out"); values remembered or posted in the sheet come first, as the service had them.
///
/// Upload to WebDAV's `$XDG_CONFIG_HOME/xdg-share/webdav.ini` is the one such file: `URL=` gives
/// `server`, `User=` gives `user`, and the password is `PasswordCommand=`'s output (run here, as
/// the user wrote it: an argv split on spaces and tabs, never a shell) or `Password=`, which moves
/// into the keyring and out of the file, as the service moved it.
public struct EarlierSettings: Sendable {
  /// A file of the table: where, which group, and which key gives which configuration item.
  struct File: Sendable {
    var serviceID: String
    var name: String
    var group: String
    var items: [(key: String, item: String)]
    /// The item the password keys fill.
    var passwordItem: String
  }

  static let files = [
    File(
      serviceID: "org.xdgshare.webdav", name: "webdav.ini", group: "WebDAV",
      items: [("URL", "server"), ("User", "user")], passwordItem: "password")
  ]

  /// The largest file read.
  static let maximumFileSize = 1 << 16

  /// `$XDG_CONFIG_HOME`, byte for byte.
  public let configHome: FilePath
  /// The host's environment, which a password command runs with.
  public let environment: [String: String]

  public init(configHome: FilePath, environment: [String: String]) {
    self.configHome = configHome
    self.environment = environment
  }

  /// The values `service`'s earlier file gives, and what went wrong reading it (the share goes
  /// on without those values). The password is looked for only when `needsPassword`.
  func values(for service: ShareService, secrets: any SecretStore, needsPassword: Bool) -> (
    values: [String: String], warnings: [ComposeWarning]
  ) {
    guard let file = Self.files.first(where: { $0.serviceID == service.id }) else { return ([:], []) }
    let path = configHome.appending("xdg-share").appending(file.name)
    guard let bytes = FileSystem.contents(ofRegularFile: path.bytes, maximumSize: Self.maximumFileSize) else {
      return ([:], [])
    }
    let text = String(decoding: bytes, as: UTF8.self)
    let keys = KeyFile(parsing: text)
    var values: [String: String] = [:]
    for (key, item) in file.items {
      if let value = keys.value(key, in: file.group), !value.isEmpty { values[item] = value }
    }
    guard needsPassword else { return (values, []) }
    var warnings: [ComposeWarning] = []
    if let command = keys.value("PasswordCommand", in: file.group) {
      do throws(EarlierSettingsFailure) {
        values[file.passwordItem] = try runPasswordCommand(command)
      } catch {
        warnings.append(.earlierSettings(file: path.text, error))
      }
    } else if let password = keys.value("Password", in: file.group), !password.isEmpty {
      values[file.passwordItem] = password
      do throws(EarlierSettingsFailure) {
        try moveIntoKeyring(password, of: service, file: file, at: path, text: text, secrets: secrets)
      } catch {
        warnings.append(.earlierSettings(file: path.text, error))
      }
    }
    return (values, warnings)
  }

  /// Runs the user's password command and returns what it printed, without the line end.
  func runPasswordCommand(_ command: String) throws(EarlierSettingsFailure) -> String {
    let arguments = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { Array($0.utf8) }
    guard !arguments.isEmpty else { throw .emptyPasswordCommand }
    let run: CapturedRun
    do throws(SystemError) {
      run = try CapturedRun.run(arguments, environment: environment)
    } catch {
      throw .passwordCommandCannotStart(error.reason)
    }
    guard run.status == 0 else {
      let line = String(decoding: run.standardError, as: UTF8.self).split(separator: "\n").first.map(
        String.init)
      throw .passwordCommandFailed(status: run.status, firstLine: line)
    }
    var printed = run.standardOutput
    if printed.last == UInt8(ascii: "\n") { printed.removeLast() }
    if printed.last == UInt8(ascii: "\r") { printed.removeLast() }
    guard let password = String(validating: printed, as: UTF8.self), !password.isEmpty else {
      throw .passwordCommandPrintedNothing
    }
    return password
  }

  /// Stores `password` in the keyring (unless it holds one already) and rewrites the file
  /// without `Password=`, every other line kept; a link (a dotfiles repository's) stays a link.
  private func moveIntoKeyring(
    _ password: String, of service: ShareService, file: File, at path: FilePath, text: String,
    secrets: any SecretStore
  ) throws(EarlierSettingsFailure) {
    do throws(SecretStoreFailure) {
      if try secrets.lookup(service: service.id, item: file.passwordItem) == nil {
        try secrets.store(
          password, service: service.id, item: file.passwordItem,
          label: "xdg-share: \(service.name), Password")
      }
    } catch {
      throw .passwordStaysInFile(error.message)
    }
    let target = FileSystem.resolvedPath(path.bytes) ?? path.bytes
    do throws(SystemError) {
      let mode = try FileSystem.status(target).permissions & 0o7777
      let rewritten = KeyFile.setting("Password", in: file.group, to: nil, in: text)
      try FileSystem.writeAtomically(Array(rewritten.utf8), to: target, mode: mode)
    } catch {
      throw .passwordStaysInFile(error.reason)
    }
  }
}

/// Why an earlier settings file gave less than it holds, as data; ``message`` words it.
public enum EarlierSettingsFailure: Error, Equatable, Sendable {
  case emptyPasswordCommand
  case passwordCommandCannotStart(String)
  case passwordCommandFailed(status: Int32, firstLine: String?)
  case passwordCommandPrintedNothing
  /// The password could not move into the keyring: it stays in the file.
  case passwordStaysInFile(String)

  /// For people, in English.
  public var message: String {
    switch self {
    case .emptyPasswordCommand: "PasswordCommand is empty"
    case .passwordCommandCannotStart(let reason): "the password command cannot be run: \(reason)"
    case .passwordCommandFailed(let status, let line):
      "the password command failed with status \(status)" + (line.map { ": \($0)" } ?? "")
    case .passwordCommandPrintedNothing: "the password command printed no password"
    case .passwordStaysInFile(let reason): "the password stays in the file: \(reason)"
    }
  }
}
