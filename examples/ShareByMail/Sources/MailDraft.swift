import Foundation
import ShareKit

/// The mail ShareByMail composes: filled from what is shared, edited in the sheet, handed to
/// `xdg-email`.
struct MailDraft: Equatable {
  var to = ""
  var subject = ""
  var body = ""
  /// The shared files' paths, attached.
  var attachments: [String] = []
  /// Files whose path is not UTF-8: `xdg-email` takes its arguments as text, so they cannot be
  /// attached, and Save says so rather than leave them out.
  var unattachable: [String] = []

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
          if let path = String(validating: bytes, as: UTF8.self) {
            attachments.append(path)
          } else {
            unattachable.append(attachment.name ?? "a file")
          }
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
  /// `xdg-email` as an address (it would be read as an option).
  static func addresses(in text: String) -> [String]? {
    let addresses = text.split { $0 == "," || $0.isWhitespace }.map(String.init)
    return addresses.contains { $0.hasPrefix("-") } ? nil : addresses
  }

  /// `xdg-email`'s arguments, after the program's name: `--subject S --body B --attach FILE … TO…`
  /// (empty subject and body left out).
  var arguments: [String] {
    var arguments: [String] = []
    if !subject.isEmpty { arguments += ["--subject", subject] }
    if !body.isEmpty { arguments += ["--body", body] }
    for file in attachments { arguments += ["--attach", file] }
    return arguments + (Self.addresses(in: to) ?? [])
  }
}

/// Hands a draft to the desktop's mail program through `xdg-email` (xdg-utils), which opens a
/// new message with the files attached. Started from an argument list, never through a shell.
enum MailComposer {
  enum Failure: Error, CustomStringConvertible {
    case notInstalled
    case unattachable([String])
    case invalidAddress(String)
    case couldNotStart(String)
    case failed(status: Int32)

    var description: String {
      switch self {
      case .notInstalled:
        "xdg-email was not found on PATH; install xdg-utils"
      case .unattachable(let names):
        "cannot attach \(names.joined(separator: ", ")): the file's name is not UTF-8"
      case .invalidAddress(let text):
        "'\(text)' is not an address xdg-email can take"
      case .couldNotStart(let reason):
        "cannot start xdg-email: \(reason)"
      case .failed(let status):
        "xdg-email failed (exit status \(status))"
      }
    }
  }

  /// Starts `xdg-email`; `done` is called on another thread when it has ended.
  static func compose(
    _ draft: MailDraft, done: @escaping @Sendable (Result<Void, Failure>) -> Void
  ) throws(Failure) {
    guard draft.unattachable.isEmpty else { throw .unattachable(draft.unattachable) }
    guard MailDraft.addresses(in: draft.to) != nil else { throw .invalidAddress(draft.to) }
    guard let program = findProgram("xdg-email") else { throw .notInstalled }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = draft.arguments
    process.terminationHandler = { process in
      let status = process.terminationStatus
      done(status == 0 ? .success(()) : .failure(.failed(status: status)))
    }
    do {
      try process.run()
    } catch {
      throw .couldNotStart("\(error)")
    }
  }

  /// The first executable `name` in `PATH`'s folders.
  static func findProgram(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }
}
