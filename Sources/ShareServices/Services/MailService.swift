import FoundationEssentials
public import ShareKit
import SharePOSIX

/// Mail: a new message in the user's mail program, with the shared files attached and the links
/// and texts in its body, composed by the host through the broker (``ShareBroker``): a sandboxed
/// service cannot start the mail program itself. The host runs `xdg-email` (xdg-utils, which knows
/// the desktop's mail program) as `xdg-email --utf8 [--subject S] [--body B] --attach FILE…`, an
/// argv, never a shell command, each file at its path on the host.
///
/// Where xdg-email opens the mail program in the foreground (Thunderbird outside GNOME and KDE),
/// it is still running after a few seconds: the composer is open, and the request completes
/// without waiting for the mail to be sent.
public struct MailService: ShareExtension {
  public static let identifier = "org.xdgshare.mail"

  public init() {}

  public func perform(context: ExtensionContext) async throws {
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
    context.setProgress(0.5, message: "Opening a new mail")
    try ShareBroker.current().composeEmail(
      subject: Self.subject(for: content), body: Self.body(for: content),
      attachments: content.files.map(\.path))
    context.completeRequest()
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
}
