import FoundationEssentials
import ShareCore
import ShareKit
import SharePOSIX

/// Where and as whom Upload to WebDAV uploads: `$XDG_CONFIG_HOME/xdg-share/webdav.ini`.
///
/// ```ini
/// [WebDAV]
/// URL=https://cloud.example/remote.php/dav/files/me/Shared/
/// User=me
/// # either the password itself (keep the file private: chmod 600) …
/// Password=…
/// # … or a program that prints it, as an argv split on spaces (no shell, no quotes)
/// PasswordCommand=secret-tool lookup service nextcloud user me
/// ```
///
/// `PasswordCommand` wins over `Password`. A file that other users can read and that holds a
/// `Password` is used, with a warning in the request's log.
struct WebDAVConfiguration: Equatable, Sendable {
  static let group = "WebDAV"
  static let fileName = "webdav.ini"

  /// The folder (a WebDAV collection) the files go into; always ends in `/`.
  var url: URL
  var user: String?
  var password: String?

  /// The user's configuration, with the password read or run.
  ///
  /// - Throws: ``ShareError`` saying what is missing or wrong, and where to fix it.
  static func load(environment: ServiceEnvironment, programs: Programs) throws -> WebDAVConfiguration {
    let path = environment.configFile(fileName)
    let shown = environment.abbreviated(path)
    guard let file = try KeyFile.load(path) else {
      throw ShareError(
        "Upload to WebDAV is not set up: write the folder's address as URL= under [WebDAV] in \(shown)")
    }
    guard let address = file[group, "URL"] else {
      throw ShareError("\(shown) has no URL= under [WebDAV]: write the address of the folder to upload to")
    }
    guard let url = collectionURL(address) else {
      throw ShareError("The address in \(shown) is not an http:// or https:// address: \(address)")
    }
    var configuration = WebDAVConfiguration(url: url, user: file[group, "User"])
    if let command = file[group, "PasswordCommand"] {
      configuration.password = try runPasswordCommand(command, programs: programs, file: shown)
    } else if let password = file[group, "Password"] {
      configuration.password = password
      // A UInt, or an NSNumber where full Foundation is loaded too: `as? UInt` takes both.
      let permissions = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? UInt
      if let permissions, permissions & 0o077 != 0 {
        Log.write("warning: \(path) holds a password and other users may read it; run: chmod 600 '\(path)'")
      }
    }
    switch (configuration.user, configuration.password) {
    case (nil, _?):
      throw ShareError("\(shown) has a password but no User=: write the user name too")
    case (_?, nil):
      throw ShareError("\(shown) has a User= but no Password= or PasswordCommand=: add one of them")
    default:
      break
    }
    return configuration
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
