import FoundationEssentials
public import ShareKit
import SharePOSIX

/// Mail: a new message in the user's mail program, with the shared files attached and the links
/// and texts in its body, through `xdg-email` (xdg-utils), which knows the desktop's mail program.
///
/// The program is started as `xdg-email --utf8 [--subject S] [--body B] --attach FILE…`: an argv,
/// never a shell command. Where xdg-email opens the mail program in the foreground (Thunderbird
/// outside GNOME and KDE), it is still running after a few seconds: the composer is open, and the
/// request completes without waiting for the mail to be sent.
public struct MailService: ShareExtension {
  public static let identifier = "org.xdgshare.mail"
  /// How long xdg-email may take before the composer is taken as open.
  static let launchGrace = 5.0

  public init() {}

  public func perform(context: ExtensionContext) async throws {
    let environment = ServiceEnvironment()
    let content = SharedContent(context.inputItems)
    guard !content.isEmpty else { throw ShareError("Nothing to send: no files, links or texts were shared") }
    try content.requireNoNUL()
    for file in content.files {
      let status: FileStatus
      do {
        status = try FileSystem.status(file.path)
      } catch {
        throw ShareError("Cannot attach \(file.displayName): \(error.reason)")
      }
      guard status.kind == .regular else {
        throw ShareError(
          "\(file.displayName) is a folder or a special file; only files can be attached to a mail")
      }
    }
    guard environment.program(named: "xdg-email") != nil else {
      throw ShareError(code: 127, message: "xdg-email is not installed; install xdg-utils to write mails")
    }
    context.setProgress(0.5, message: "Opening a new mail")
    let outcome = try Programs(environment: environment).launch(
      Self.arguments(for: content), grace: Self.launchGrace)
    switch outcome {
    case .stillRunning, .exited(0):
      context.completeRequest()
    case .exited(let status):
      throw ShareError(code: Int(status), message: Self.failure(status))
    }
  }

  /// xdg-email's argv for `content`.
  static func arguments(for content: SharedContent) -> [[UInt8]] {
    var arguments: [[UInt8]] = [Array("xdg-email".utf8), Array("--utf8".utf8)]
    if let subject = subject(for: content) {
      arguments += [Array("--subject".utf8), Array(subject.utf8)]
    }
    if let body = body(for: content) {
      arguments += [Array("--body".utf8), Array(body.utf8)]
    }
    for file in content.files {
      arguments += [Array("--attach".utf8), file.path]
    }
    return arguments
  }

  /// The files' names (up to three), else the one link; `nil` otherwise.
  static func subject(for content: SharedContent) -> String? {
    let names = content.files.map(\.displayName)
    switch names.count {
    case 0:
      return content.links.count == 1 && content.texts.isEmpty ? content.links[0].absoluteString : nil
    case 1...3:
      return names.joined(separator: ", ")
    default:
      return names.prefix(2).joined(separator: ", ") + " and \(names.count - 2) more"
    }
  }

  /// The texts, then the links, one per line; `nil` when there are none.
  static func body(for content: SharedContent) -> String? {
    var paragraphs = content.texts
    if !content.links.isEmpty {
      paragraphs.append(content.links.map(\.absoluteString).joined(separator: "\n"))
    }
    return paragraphs.isEmpty ? nil : paragraphs.joined(separator: "\n\n") + "\n"
  }

  /// What xdg-email's exit status means (xdg-utils documents 1 to 5).
  static func failure(_ status: Int32) -> String {
    switch status {
    case 2: "The mail program could not find one of the files"
    case 3: "No mail program is set up on this computer"
    case 5: "The mail program may not read one of the files"
    case 127: "xdg-email is not installed; install xdg-utils to write mails"
    default: "The mail program could not be opened (xdg-email failed with status \(status))"
    }
  }
}
