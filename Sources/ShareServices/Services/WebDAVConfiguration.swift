import FoundationEssentials
import ShareCore
import ShareKit
import SharePOSIX

/// Where and as whom Upload to WebDAV uploads.
///
/// The service's configuration items (`server`, `folder`, `user`, `password`), which the host asks
/// for in its compose sheet or with `xdg-share configure org.xdgshare.webdav`, and hands in as the
/// request's composition, the password read from the keyring. An older
/// `$XDG_CONFIG_HOME/xdg-share/webdav.ini` still counts: its values are used where the composition
/// has none.
///
/// ```ini
/// [WebDAV]
/// URL=https://cloud.example/remote.php/dav/files/me/Shared/
/// User=me
/// # either the password itself, which moves into the keyring on first use …
/// Password=…
/// # … or a program that prints it, as an argv split on spaces (no shell, no quotes)
/// PasswordCommand=secret-tool lookup service nextcloud user me
/// ```
///
/// The password is the composition's (where the host puts the keyring's: schema
/// `org.xdgshare.Configuration`, `service` = the service's identifier, `item` = `password`), else
/// `PasswordCommand`'s, else `Password=`'s: that one is handed to the host to store in the keyring
/// (the broker's `StoreSecret`) and the line removed from the file, so that no password stays on
/// disk in clear. Without a keyring it is used where it is, with a warning.
struct WebDAVConfiguration: Equatable, Sendable {
  static let group = "WebDAV"
  static let fileName = "webdav.ini"
  /// What the user runs to set the service up.
  static let configureCommand = "xdg-share configure \(WebDAVService.identifier)"

  /// Where the server's address came from, for the messages that say where to change it.
  enum Origin: Equatable, Sendable {
    /// The configuration items.
    case settings
    /// `webdav.ini`.
    case file
  }

  /// The folder (a WebDAV collection) the files go into; always ends in `/`.
  var url: URL
  var user: String?
  var password: String?
  var origin: Origin = .file

  /// Where to correct the address, in a message: "webdav.ini", or the command.
  var addressPlace: String {
    origin == .file ? Self.fileName : "the settings (\(Self.configureCommand))"
  }

  /// What to check when the server refuses the credentials.
  var credentialsAdvice: String {
    origin == .file
      ? "check User= and the password in \(Self.fileName)"
      : "check the user name and the password: \(Self.configureCommand)"
  }

  /// The user's configuration: the composition's values, then `webdav.ini`'s, with the password
  /// looked up, read or run, and a `Password=` moved into `keyring`.
  ///
  /// - Throws: ``ShareError`` saying what is missing or wrong, and where to fix it; cancelled
  ///   (``ShareError/userCancelled(_:)``) when nothing is set up, since the user must act first.
  static func load(
    settings: [String: String], environment: ServiceEnvironment, programs: Programs,
    keyring: some PasswordKeeper
  ) throws -> WebDAVConfiguration {
    let path = environment.configFile(fileName)
    let shown = environment.abbreviated(path)
    let file = try KeyFile.load(path)
    let setting = { (key: String) in settings[key].flatMap { $0.isEmpty ? nil : $0 } }

    let configuration: WebDAVConfiguration
    if let server = setting("server") {
      guard let url = collectionURL(server, folder: setting("folder")) else {
        throw ShareError(
          "The server's address is not an http:// or https:// address: \(server); change it: \(configureCommand)"
        )
      }
      configuration = WebDAVConfiguration(
        url: url, user: setting("user") ?? file?[group, "User"], origin: .settings)
    } else if let file {
      guard let address = file[group, "URL"] else {
        throw ShareError.userCancelled(
          "Upload to WebDAV is not set up: run \(configureCommand), or write the folder's address as URL= under [WebDAV] in \(shown)"
        )
      }
      guard let url = collectionURL(address, folder: setting("folder")) else {
        throw ShareError("The address in \(shown) is not an http:// or https:// address: \(address)")
      }
      configuration = WebDAVConfiguration(
        url: url, user: setting("user") ?? file[group, "User"], origin: .file)
    } else {
      throw ShareError.userCancelled(
        "Upload to WebDAV is not set up: run \(configureCommand) to give its server, folder and user")
    }
    var result = configuration
    result.password = try password(
      setting("password"), file: file, path: path, programs: programs, keyring: keyring)
    switch (result.user, result.password) {
    case (nil, _?):
      throw ShareError(
        result.origin == .file
          ? "\(shown) has a password but no User=: write the user name too"
          : "The settings have a password but no user name: \(configureCommand)")
    case (_?, nil):
      throw ShareError(
        result.origin == .file
          ? "\(shown) has a User= but no Password= or PasswordCommand=: add one of them"
          : "No password is set for the user \(result.user ?? ""): \(configureCommand)")
    default:
      break
    }
    return result
  }

  /// The password: the composition's, the keyring's, `PasswordCommand`'s or `Password=`'s (which
  /// moves into the keyring). `nil` when there is none.
  private static func password(
    _ given: String?, file: KeyFile?, path: FilePath, programs: Programs, keyring: some PasswordKeeper
  ) throws -> String? {
    let shown = programs.environment.abbreviated(path)
    let written = file?[group, "Password"]
    if let written {
      migrate(written, from: path, keyring: keyring)
    }
    if let given { return given }
    if let stored = keyring.lookUp(), !stored.isEmpty { return stored }
    if let command = file?[group, "PasswordCommand"] {
      return try runPasswordCommand(command, programs: programs, file: shown)
    }
    return written
  }

  /// Moves a `Password=` of `webdav.ini` into the keyring (unless the keyring has one already, set
  /// since), then rewrites the file without it, every other line kept. Without a keyring the
  /// password stays, with a warning when other users may read the file.
  private static func migrate(_ password: String, from path: FilePath, keyring: some PasswordKeeper) {
    do {
      if keyring.lookUp() == nil {
        try keyring.store(password)
      }
      // A link (a dotfiles repository's) stays a link: the file it points to is rewritten.
      let bytes = FileSystem.resolvedPath(path.bytes) ?? path.bytes
      let status = try FileSystem.status(bytes)
      let descriptor = try FileDescriptor.openForReading(bytes)
      defer { descriptor.close() }
      let text = String(decoding: try descriptor.readToEnd(), as: UTF8.self)
      let rewritten = KeyFile.setting("Password", in: group, to: nil, in: text)
      try FileSystem.writeAtomically(Array(rewritten.utf8), to: bytes, mode: status.permissions & 0o7777)
      Log.write("The password of \(path.text) is now in the keyring; the file no longer holds it")
    } catch {
      Log.write("warning: the password stays in \(path.text): \(error)")
      if let permissions = try? FileSystem.status(path.bytes).permissions, permissions & 0o077 != 0 {
        Log.write(
          "warning: \(path.text) holds a password and other users may read it; run: chmod 600 '\(path.text)'")
      }
    }
  }

  /// `address` (and `folder` under it, each of its names percent-encoded) as a collection URL.
  static func collectionURL(_ address: String, folder: String?) -> URL? {
    guard let base = collectionURL(address) else { return nil }
    let names = (folder ?? "").split(separator: "/").filter { !$0.isEmpty && $0 != "." }
    guard !names.isEmpty else { return base }
    let path = names.map { FileNames.percentEncoded(Array($0.utf8)) + "/" }.joined()
    return URL(string: base.absoluteString + path)
  }

  /// `address` as a collection URL (ending in `/`); spaces and other characters that cannot
  /// stand in a URL are percent-encoded, existing `%XX` escapes are kept.
  static func collectionURL(_ address: String) -> URL? {
    var text = address
    if URL(string: text) == nil {
      text = percentEncodingOutsideASCII(text)
    }
    if !text.hasSuffix("/") { text += "/" }
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      ["http", "https"].contains(scheme),
      let host = url.host, !host.isEmpty
    else { return nil }
    return url
  }

  /// `text` with every UTF-8 byte outside `!` to `~` as `%XX`: spaces, controls, non-ASCII.
  static func percentEncodingOutsideASCII(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      if (0x21...0x7E).contains(byte) {
        out.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        out += "%" + FileNames.hex(byte)
      }
    }
    return out
  }

  /// Runs `command` (split on spaces and tabs, never a shell) and returns its output without
  /// the final newline.
  static func runPasswordCommand(_ command: String, programs: Programs, file: String) throws -> String {
    let arguments = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    guard !arguments.isEmpty else { throw ShareError("PasswordCommand in \(file) is empty") }
    let run: CapturedRun
    do {
      run = try programs.run(arguments)
    } catch {
      throw ShareError("The password command in \(file) cannot be run: \(error.message)")
    }
    guard run.status == 0 else {
      let detail = Programs.firstLine(run.standardError).map { ": \($0)" } ?? ""
      throw ShareError("The password command in \(file) failed with status \(run.status)\(detail)")
    }
    var output = run.standardOutput
    if output.last == UInt8(ascii: "\n") { output.removeLast() }
    if output.last == UInt8(ascii: "\r") { output.removeLast() }
    guard let password = String(validating: output, as: UTF8.self), !password.isEmpty else {
      throw ShareError("The password command in \(file) printed no password")
    }
    return password
  }

}
