import Foundation
import ShareKit

/// The mail ShareByMail composes: filled from what is shared, edited in the sheet, handed to the
/// host's broker, which starts `xdg-email`.
struct MailDraft: Equatable {
  var to = ""
  var subject = ""
  var body = ""
  /// The shared files' paths, byte for byte, attached: they go to the host as descriptors, so a
  /// name that is not UTF-8 is attached too.
  var attachments: [[UInt8]] = []

  /// Files are attached; links and texts go into the body, one a line, after the item's own text;
  /// the subject is the item's title, or the names of the files, or the first link.
  init(items: [ExtensionItem]) {
    var lines: [String] = []
    var names: [String] = []
    var links: [String] = []
    for item in items {
      if let text = item.attributedContentText, !text.isEmpty { lines.append(text) }
      if subject.isEmpty, let title = item.attributedTitle { subject = title }
      for attachment in item.attachments {
        if let bytes = attachment.filePathBytes {
          attachments.append(bytes)
          names.append(attachment.name ?? "")
        } else if let link = attachment.webURL {
          links.append(link.absoluteString)
          lines.append(link.absoluteString)
        } else if let text = attachment.text {
          lines.append(text)
        }
      }
    }
    if subject.isEmpty { subject = names.filter { !$0.isEmpty }.joined(separator: ", ") }
    if subject.isEmpty, let link = links.first { subject = link }
    body = lines.joined(separator: "\n")
  }

  /// The addresses in `text`, separated by commas or spaces; `nil` when one cannot be handed to
  /// `xdg-email` as an address (it would be read as an option, and the host refuses it).
  static func addresses(in text: String) -> [String]? {
    let addresses = text.split { $0 == "," || $0.isWhitespace }.map(String.init)
    return addresses.contains { $0.hasPrefix("-") } ? nil : addresses
  }
}

/// Hands a draft to the desktop's mail program. A sandboxed extension cannot start `xdg-email`
/// itself (the mail program is outside its sandbox), so it asks the host through ShareKit's
/// ``ShareBroker``, the Email portal's `ComposeEmail`, as the bundled Mail service does: the host
/// runs `xdg-email` (xdg-utils) from an argument list, never a shell, and the files go to it as
/// descriptors, so it attaches exactly what the extension could read.
enum MailComposer {
  enum Failure: Error, CustomStringConvertible {
    case invalidAddress(String)

    var description: String {
      switch self {
      case .invalidAddress(let text):
        "'\(text)' is not an address xdg-email can take"
      }
    }
  }

  /// Asks the host for a new mail on another thread, since the host answers once the mail
  /// program has the draft (a few seconds at most) and the sheet must not wait; `done` is called
  /// there with the host's answer, a ``ShareError`` with its code and sentence when it refused.
  static func compose(
    _ draft: MailDraft, done: @escaping @Sendable (Result<Void, ShareError>) -> Void
  ) throws(Failure) {
    guard let addresses = MailDraft.addresses(in: draft.to) else { throw .invalidAddress(draft.to) }
    let subject = draft.subject.isEmpty ? nil : draft.subject
    let body = draft.body.isEmpty ? nil : draft.body
    let attachments = draft.attachments
    Thread.detachNewThread {
      do throws(ShareError) {
        try ShareBroker.current().composeEmail(
          addresses: addresses, subject: subject, body: body, attachments: attachments)
        done(.success(()))
      } catch {
        done(.failure(error))
      }
    }
  }
}
