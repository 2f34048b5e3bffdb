import Dispatch
public import ShareCore
import ShareDBus
import SharePOSIX

/// The broker's work done with the desktop's programs, as the services did it themselves before
/// they were sandboxed: `xdg-email` (xdg-utils, which knows the desktop's mail program),
/// `xdg-open` else `gio open`, `wl-copy` in a Wayland session else `xclip` or `xsel`, and the
/// notification server. Always an argv, never a shell; each program started in the host's
/// environment (its `PATH`, `DISPLAY`, `WAYLAND_DISPLAY`), in a process group of its own, its
/// output to the request's log.
///
/// A program still running after a few seconds is taken as done (a mail composer in the
/// foreground, a viewer, a clipboard owner serving the clipboard); it is waited for on a thread,
/// so that none is left a zombie of a long-lived host.
public struct DesktopBrokerActions: BrokerActions {
  /// How long xdg-email, xdg-open or gio may take before the application is taken as open.
  static let launchGrace = 5.0
  /// How long the clipboard program may take to read what it is given.
  static let clipboardGrace = 10.0

  /// The environment the programs run in.
  public var environment: [String: String]
  /// Where their output goes; nowhere when `nil`.
  public var log: FilePath?
  /// The service served: whose `Secure` items ``storeSecret(_:item:)`` may store.
  public var service: ShareService?
  /// Where those are kept.
  public var secrets: any SecretStore

  public init(
    environment: [String: String], log: FilePath? = nil, service: ShareService? = nil,
    secrets: (any SecretStore)? = nil
  ) {
    self.environment = environment
    self.log = log
    self.service = service
    self.secrets = secrets ?? KeyringSecretStore(environment: environment)
  }

  public func storeSecret(_ secret: String, item: String) throws(BrokerError) {
    guard let service, let declared = service.composeSheet?.item(item), declared.isSecure else {
      throw BrokerError(code: 1, message: "\(item) is not a Secure configuration item of this service")
    }
    do throws(SecretStoreFailure) {
      try secrets.store(
        secret, service: service.id, item: item, label: "xdg-share: \(service.name), \(declared.title)")
    } catch {
      throw BrokerError(code: 1, message: "The keyring did not take the secret: \(error.message)")
    }
  }

  public func composeEmail(_ email: BrokerEmail) throws(BrokerError) {
    guard program(named: "xdg-email") != nil else {
      throw BrokerError(code: 127, message: "xdg-email is not installed; install xdg-utils to write mails")
    }
    for address in email.addresses + email.cc + email.bcc where address.hasPrefix("-") || address.isEmpty {
      throw BrokerError(code: 1, message: "Not a mail address: \(address)")
    }
    var arguments: [[UInt8]] = [Array("xdg-email".utf8), Array("--utf8".utf8)]
    for address in email.cc { arguments += [Array("--cc".utf8), Array(address.utf8)] }
    for address in email.bcc { arguments += [Array("--bcc".utf8), Array(address.utf8)] }
    if let subject = email.subject { arguments += [Array("--subject".utf8), Array(subject.utf8)] }
    if let body = email.body { arguments += [Array("--body".utf8), Array(body.utf8)] }
    for file in email.attachments { arguments += [Array("--attach".utf8), file.bytes] }
    arguments += email.addresses.map { Array($0.utf8) }
    switch try launch(arguments, grace: Self.launchGrace) {
    case .stillRunning, .exited(0): return
    case .exited(let status): throw BrokerError(code: Int(status), message: Self.mailFailure(status))
    }
  }

  /// What xdg-email's exit status means (xdg-utils documents 1 to 5).
  static func mailFailure(_ status: Int32) -> String {
    switch status {
    case 2: "The mail program could not find one of the files"
    case 3: "No mail program is set up on this computer"
    case 5: "The mail program may not read one of the files"
    case 127: "xdg-email is not installed; install xdg-utils to write mails"
    default: "The mail program could not be opened (xdg-email failed with status \(status))"
    }
  }

  public func open(uri: String) throws(BrokerError) {
    try open(Array(uri.utf8))
  }

  public func open(file: FilePath) throws(BrokerError) {
    try open(file.bytes)
  }

  /// `xdg-open TARGET`, else `gio open TARGET`.
  private func open(_ target: [UInt8]) throws(BrokerError) {
    let arguments: [[UInt8]]
    if program(named: "xdg-open") != nil {
      arguments = [Array("xdg-open".utf8), target]
    } else if program(named: "gio") != nil {
      arguments = [Array("gio".utf8), Array("open".utf8), target]
    } else {
      throw BrokerError(code: 127, message: "No program opens files or links here: install xdg-utils")
    }
    switch try launch(arguments, grace: Self.launchGrace) {
    case .stillRunning, .exited(0): return
    case .exited(let status):
      throw BrokerError(
        code: Int(status),
        message: "\(String(decoding: arguments[0], as: UTF8.self)) failed with status \(status)")
    }
  }

  public func copy(_ clip: BrokerClip) throws(BrokerError) {
    let tool = try ClipboardTool.session(of: self)
    var type = ClipboardTool.Kind(mimeType: clip.mimeType)
    var data = clip.data
    if case .image = type, tool == .xsel {
      // xsel offers text only: what the service offers instead (the file's URI), as before.
      type = .text
      data = clip.textFallback ?? data
    }
    let outcome = try launch(
      tool.arguments(for: type).map { Array($0.utf8) }, input: data, grace: Self.clipboardGrace)
    if case .exited(let status) = outcome, status != 0 {
      throw BrokerError(
        code: Int(status), message: "\(tool.name) could not copy to the clipboard (status \(status))")
    }
  }

  public func notify(title: String, body: String) throws(BrokerError) {
    guard let notifications = DesktopNotifications(applicationName: "xdg-share"),
      notifications.notify(summary: title, body: body) != nil
    else {
      throw BrokerError(code: 1, message: "No notification server answered")
    }
  }

  /// The first executable called `name` in `PATH`, or `nil`.
  func program(named name: String) -> [UInt8]? {
    for folder in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
      let candidate = Array("\(folder)/\(name)".utf8)
      if let status = try? FileSystem.status(candidate), status.kind == .regular,
        FileSystem.isExecutable(candidate)
      {
        return candidate
      }
    }
    return nil
  }

  /// How a started program went within the time it was given.
  enum Launch: Equatable {
    /// It ended with this status (128 + the signal number when a signal ended it).
    case exited(Int32)
    /// It is still running: the application itself, or what serves the clipboard.
    case stillRunning
  }

  /// Starts `arguments`, writes `input` to it, and waits at most `grace` seconds for it to end.
  func launch(_ arguments: [[UInt8]], input: [UInt8]? = nil, grace: Double) throws(BrokerError) -> Launch {
    let output: ChildProcess.Stream
    if let log, let descriptor = try? FileDescriptor.openForAppending(log.bytes) {
      output = .descriptor(descriptor)
    } else {
      output = .null
    }
    let child: ChildProcess
    do {
      child = try ChildProcess.spawn(
        arguments, environment: environment, standardInput: input == nil ? .null : .pipe,
        standardOutput: output, standardError: output, newProcessGroup: true)
    } catch {
      let name = String(decoding: arguments[0], as: UTF8.self)
      if error.isNotFound { throw BrokerError(code: 127, message: "\(name) is not installed") }
      throw BrokerError(code: 1, message: "Cannot start \(name): \(error.reason)")
    }
    if let input, let stdin = child.standardInput {
      // A program that exits without reading all of it is judged by its exit status.
      try? stdin.write(input)
      stdin.close()
    }
    switch child.wait(timeout: grace) {
    case .exited(let status)?: return .exited(status)
    case .signalled(let signal)?: return .exited(128 + signal)
    case nil:
      DetachedThread.start { _ = child.wait() }
      return .stillRunning
    }
  }
}

/// A clipboard program.
enum ClipboardTool: Equatable {
  case wlCopy
  case xclip
  case xsel

  /// What goes on the clipboard, as the programs tell types apart.
  enum Kind: Equatable {
    case text
    case uriList
    /// Image data of this MIME type.
    case image(String)

    init(mimeType: String) {
      switch mimeType {
      case "text/uri-list": self = .uriList
      case _ where mimeType.hasPrefix("text/plain"): self = .text
      default: self = .image(mimeType)
      }
    }
  }

  var name: String {
    switch self {
    case .wlCopy: "wl-copy"
    case .xclip: "xclip"
    case .xsel: "xsel"
    }
  }

  /// The argv that puts standard input on the clipboard as `type`.
  func arguments(for type: Kind) -> [String] {
    switch (self, type) {
    case (.wlCopy, .text): ["wl-copy", "--type", "text/plain;charset=utf-8"]
    case (.wlCopy, .uriList): ["wl-copy", "--type", "text/uri-list"]
    case (.wlCopy, .image(let type)): ["wl-copy", "--type", type]
    case (.xclip, .text): ["xclip", "-selection", "clipboard", "-in"]
    case (.xclip, .uriList): ["xclip", "-selection", "clipboard", "-target", "text/uri-list", "-in"]
    case (.xclip, .image(let type)): ["xclip", "-selection", "clipboard", "-target", type, "-in"]
    case (.xsel, _): ["xsel", "--clipboard", "--input"]
    }
  }

  /// The session's clipboard program: wl-copy when `WAYLAND_DISPLAY` is set, xclip or xsel when
  /// `DISPLAY` is.
  static func session(of actions: DesktopBrokerActions) throws(BrokerError) -> ClipboardTool {
    let wayland = !(actions.environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    let x11 = !(actions.environment["DISPLAY"] ?? "").isEmpty
    if wayland, actions.program(named: "wl-copy") != nil { return .wlCopy }
    if x11 {
      if actions.program(named: "xclip") != nil { return .xclip }
      if actions.program(named: "xsel") != nil { return .xsel }
    }
    switch (wayland, x11) {
    case (false, false):
      throw BrokerError(
        code: 1, message: "No graphical session to copy to: neither WAYLAND_DISPLAY nor DISPLAY is set")
    case (true, false):
      throw BrokerError(
        code: 1, message: "This Wayland session has no clipboard program: install wl-clipboard")
    default:
      throw BrokerError(
        code: 1, message: "This session has no clipboard program: install wl-clipboard, xclip or xsel")
    }
  }
}
