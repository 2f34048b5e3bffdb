import FoundationEssentials
public import ShareKit
import SharePOSIX

/// Copy to Clipboard: texts and links as plain text, one image file as image data (`image/png`
/// for a PNG, else the image's own MIME type: no converter is at hand), or files (and links) as a
/// `text/uri-list`, put on the clipboard by the host through the broker (``ShareBroker``): a
/// sandboxed service reaches no display. The host uses the session's clipboard program: `wl-copy`
/// in a Wayland session, else `xclip` or `xsel` in an X11 session.
///
/// The clipboard programs serve one type each: an image is pasted as the picture, into an editor
/// or a chat, rather than as the file's name. `xsel` offers plain text only, so with it an image
/// is pasted as its file's URI and a list of files as the list's text.
public struct ClipboardService: ShareExtension {
  public static let identifier = "org.xdgshare.clipboard"

  public init() {}

  public func perform(context: ExtensionContext) async throws {
    let content = SharedContent(context.inputItems)
    let clip = try Self.clip(content)
    let broker = try ShareBroker.current()
    context.setProgress(0.5, message: "Copying to the clipboard")
    switch clip.type {
    case .text: try broker.copy(text: String(decoding: clip.data, as: UTF8.self))
    case .uriList: try broker.copy(uriList: String(decoding: clip.data, as: UTF8.self))
    case .image(let type):
      // The file itself goes to the host, by descriptor; its URI is the text fallback.
      let uris = try Self.uriList(content)
      try broker.copy(
        image: content.files[0].path, mimeType: type, textFallback: String(decoding: uris.data, as: UTF8.self)
      )
    }
    context.completeRequest()
  }

  /// What goes on the clipboard.
  struct Clip: Equatable {
    enum Kind: Equatable {
      case text
      case uriList
      /// Image data of this MIME type.
      case image(String)
    }

    var type: Kind
    /// The text, or the list; an image is sent as its file.
    var data: [UInt8]
  }

  /// Texts and links: the text, one per line. Files: a `text/uri-list` (RFC 2483: one URI per
  /// line, CRLF), the files' `file://` URLs percent-encoded byte by byte, then the links.
  static func clip(_ content: SharedContent) throws(ShareError) -> Clip {
    guard !content.isEmpty else { throw ShareError("Nothing to copy: no files, links or texts were shared") }
    if content.files.isEmpty {
      let lines = content.things.compactMap { thing -> String? in
        switch thing {
        case .text(let text): text
        case .link(let url): url.absoluteString
        case .file: nil
        }
      }
      return Clip(type: .text, data: Array(lines.joined(separator: "\n").utf8))
    }
    guard content.texts.isEmpty else {
      throw ShareError(
        "The clipboard holds either text or files, not both: copy the text and the files separately")
    }
    if content.things.count == 1, let file = content.files.first, let type = imageType(file) {
      do {
        try FileDescriptor.openForReading(file.path).close()
      } catch {
        throw ShareError("Cannot read \(file.displayName): \(error.reason)")
      }
      return Clip(type: .image(type), data: [])
    }
    return try uriList(content)
  }

  /// The files' and links' URIs as a `text/uri-list`.
  static func uriList(_ content: SharedContent) throws(ShareError) -> Clip {
    let uris = content.things.compactMap { thing -> String? in
      switch thing {
      case .file(let file): file.fileURL
      case .link(let url): url.absoluteString
      case .text: nil
      }
    }
    return Clip(type: .uriList, data: Array(uris.map { $0 + "\r\n" }.joined().utf8))
  }

  /// The MIME type of an image file, or `nil` for any other file: `image/png` when it starts as a
  /// PNG does, else the first `image/…` type the host registered it under.
  static func imageType(_ file: SharedFile) -> String? {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    if FileSystem.readPrefix(of: file.path, count: signature.count) == signature { return "image/png" }
    return file.typeIdentifiers.first { $0.hasPrefix("image/") && !$0.contains(" ") }
  }
}
