import FoundationEssentials
import ShareKit

/// A shared file: its path's exact bytes and what the host said about it.
struct SharedFile: Sendable, Equatable {
  /// The path as the kernel sees it, byte for byte.
  var path: [UInt8]
  /// The identifiers it is registered under (`public.png`, `image/png`).
  var typeIdentifiers: [String]
  /// The size the host measured, if any.
  var size: UInt64?

  /// The last component of the path, byte for byte.
  var name: [UInt8] { FileNames.lastComponent(of: path) }

  /// The name for messages: invalid bytes replaced, control characters escaped.
  var displayName: String { FileNames.display(name) }

  /// The path as a `String`, when it is valid UTF-8.
  var pathString: String? { String(validating: path, as: UTF8.self) }

  /// A `file://` URL whose path is percent-encoded byte by byte.
  var fileURL: String { FileNames.fileURL(for: path) }
}

/// One shared thing, in the order the user shared them.
enum SharedThing: Sendable, Equatable {
  case file(SharedFile)
  case link(URL)
  case text(String)
}

/// What the user shared, taken apart: the files, links and texts of every input item.
struct SharedContent: Sendable, Equatable {
  var things: [SharedThing]

  init(things: [SharedThing]) {
    self.things = things
  }

  /// The attachments of `items`. When no attachment is a text, an item's
  /// `attributedContentText` counts as one (the host sends texts as attachments too).
  init(_ items: [ExtensionItem]) {
    var things: [SharedThing] = []
    for item in items {
      var hasText = false
      for attachment in item.attachments {
        if attachment.isFile, let path = attachment.filePathBytes {
          things.append(
            .file(
              SharedFile(
                path: path, typeIdentifiers: attachment.registeredTypeIdentifiers, size: attachment.size)))
        } else if let url = attachment.webURL {
          things.append(.link(url))
        } else if let text = attachment.text {
          things.append(.text(text))
          hasText = true
        }
      }
      if !hasText, let text = item.attributedContentText, !text.isEmpty {
        things.append(.text(text))
      }
    }
    self.things = things
  }

  var files: [SharedFile] {
    things.compactMap { if case .file(let file) = $0 { file } else { nil } }
  }

  var links: [URL] {
    things.compactMap { if case .link(let url) = $0 { url } else { nil } }
  }

  var texts: [String] {
    things.compactMap { if case .text(let text) = $0 { text } else { nil } }
  }

  var isEmpty: Bool { things.isEmpty }

  /// Refuses texts holding a NUL character, which no program's argument can carry.
  func requireNoNUL() throws(ShareError) {
    if texts.contains(where: { $0.utf8.contains(0) }) {
      throw ShareError("A shared text holds a NUL character, which cannot be passed on")
    }
  }
}
