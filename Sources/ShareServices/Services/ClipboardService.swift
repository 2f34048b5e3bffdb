import FoundationEssentials
public import ShareKit
import SharePOSIX

/// Copy to Clipboard: texts and links as plain text, one image file as image data (`image/png`
/// for a PNG, else the image's own MIME type: no converter is at hand), or files (and links) as a
/// `text/uri-list`, through the session's clipboard program: `wl-copy` in a Wayland session, else
/// `xclip` or `xsel` in an X11 session.
///
/// The clipboard programs serve one type each: an image is pasted as the picture, into an editor
/// or a chat, rather than as the file's name.
///
/// The programs stay running to serve the clipboard (each forks into the background); their
/// output goes to the request's log. `xsel` offers plain text only, so with it a list of files
/// is pasted as the list's text.
public struct ClipboardService: ShareExtension {
  public static let identifier = "org.xdgshare.clipboard"
  /// How long the clipboard program may take to read what it is given.
  static let launchGrace = 10.0

  public init() {}

  public func perform(context: ExtensionContext) async throws {
    let environment = ServiceEnvironment()
    let content = SharedContent(context.inputItems)
    var clip = try Self.clip(content)
    let tool = try Self.tool(environment: environment)
    if case .image = clip.type, tool == .xsel {
      // xsel offers text only: the file's URI as text, as before.
      clip = try Self.uriList(content)
    }
    context.setProgress(0.5, message: "Copying to the clipboard")
    let outcome = try Programs(environment: environment).launch(
      tool.arguments(for: clip.type).map { Array($0.utf8) }, input: clip.data, grace: Self.launchGrace)
    if case .exited(let status) = outcome, status != 0 {
      throw ShareError(
        code: Int(status), message: "\(tool.name) could not copy to the clipboard (status \(status))")
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
      let data: [UInt8]
      do {
        let descriptor = try FileDescriptor.openForReading(file.path)
        defer { descriptor.close() }
        data = try descriptor.readToEnd()
      } catch {
        throw ShareError("Cannot read \(file.displayName): \(error.reason)")
      }
      return Clip(type: .image(type), data: data)
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

  /// A clipboard program.
  enum Tool: Equatable {
    case wlCopy
    case xclip
    case xsel

    var name: String {
      switch self {
      case .wlCopy: "wl-copy"
      case .xclip: "xclip"
      case .xsel: "xsel"
      }
    }

    /// The argv that puts standard input on the clipboard as `type`.
    func arguments(for type: Clip.Kind) -> [String] {
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
  }

  /// The session's clipboard program: wl-copy when `WAYLAND_DISPLAY` is set, xclip or xsel when
  /// `DISPLAY` is.
  static func tool(environment: ServiceEnvironment) throws(ShareError) -> Tool {
    let wayland = environment["WAYLAND_DISPLAY"] != nil
    let x11 = environment["DISPLAY"] != nil
    if wayland, environment.program(named: "wl-copy") != nil { return .wlCopy }
    if x11 {
      if environment.program(named: "xclip") != nil { return .xclip }
      if environment.program(named: "xsel") != nil { return .xsel }
    }
    switch (wayland, x11) {
    case (false, false):
      throw ShareError("No graphical session to copy to: neither WAYLAND_DISPLAY nor DISPLAY is set")
    case (true, false):
      throw ShareError("This Wayland session has no clipboard program: install wl-clipboard")
    default:
      throw ShareError("This session has no clipboard program: install wl-clipboard, xclip or xsel")
    }
  }
}
