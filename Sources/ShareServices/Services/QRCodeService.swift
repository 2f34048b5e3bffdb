import FoundationEssentials
import ShareCore
public import ShareKit
import SharePOSIX

/// QR Code: one link (with or without a page title beside it) or one short text (at most 1000
/// bytes) as a QR code, drawn by `qrencode`, saved as `$XDG_CACHE_HOME/xdg-share/qr/<hash>.png`
/// and opened in the image viewer by the host through the broker (``ShareBroker``: `xdg-open`, else
/// `gio open`). Returns the PNG's path.
public struct QRCodeService: ShareExtension {
  public static let identifier = "org.xdgshare.qr-code"
  /// The most a QR code made here carries, in UTF-8 bytes; version 40 at level M holds 2331.
  static let maximumLength = 1000

  public init() {}

  public func perform(context: ExtensionContext) async throws {
    let environment = ServiceEnvironment()
    let payload = try Self.payload(SharedContent(context.inputItems))
    let programs = Programs(environment: environment)
    context.setProgress(0.2, message: "Drawing the QR code")
    let folder = environment.cacheHome.appending("xdg-share").appending("qr")
    do {
      try FileSystem.makeDirectories(folder.bytes)
    } catch {
      throw ShareError("Cannot create \(environment.abbreviated(folder)): \(error.reason)")
    }
    let image = folder.appending("\(Self.hash(payload)).png")
    let temporary = folder.appending(".\(Self.hash(payload))-\(UInt32.random(in: 0...UInt32.max)).png")
    let token = TemporaryFiles.register(temporary.bytes)
    defer {
      try? FileSystem.remove(temporary.bytes)
      TemporaryFiles.forget(token)
    }
    let run = try programs.run(Self.encoderArguments(payload, output: temporary.bytes))
    guard run.status == 0 else {
      let detail = Programs.firstLine(run.standardError).map { ": \($0)" } ?? ""
      throw ShareError("qrencode could not draw the QR code\(detail)")
    }
    do {
      try FileSystem.rename(temporary.bytes, to: image.bytes)
    } catch {
      throw ShareError("Cannot save the QR code in \(environment.abbreviated(folder)): \(error.reason)")
    }

    context.setProgress(0.8, message: "Opening the QR code")
    do {
      try ShareBroker.current().open(filePath: image.bytes)
    } catch  where error.code == 127 {
      throw ShareError(
        code: 127,
        message:
          "No program opens images here: install xdg-utils; the QR code is saved as \(environment.abbreviated(image))"
      )
    } catch {
      throw ShareError(
        code: error.code,
        message:
          "No image viewer could open the QR code (\(error.message)); it is saved as \(environment.abbreviated(image))"
      )
    }
    context.completeRequest(returningItems: [
      ExtensionItem(attachments: [
        ItemProvider(filePathBytes: image.bytes, typeIdentifiers: ["public.png", "image/png"])
      ])
    ])
  }

  /// What the QR code holds: the one link (a browser sharing a page adds its title as a text,
  /// which is left out), else the one text. Refuses files, several links or texts, and texts a
  /// QR code cannot carry.
  static func payload(_ content: SharedContent) throws(ShareError) -> String {
    if let file = content.files.first {
      throw ShareError("A QR code holds a link or a short text, not a file such as \(file.displayName)")
    }
    let text: String
    switch (content.links.count, content.texts.count) {
    case (1, _): text = content.links[0].absoluteString
    case (0, 1): text = content.texts[0]
    case (0, 0): throw ShareError("Nothing to show: share one link or one short text")
    default:
      throw ShareError(
        "A QR code holds one link or one short text; \(content.things.count) items were shared")
    }
    guard !text.isEmpty else { throw ShareError("The text is empty: there is nothing to put in a QR code") }
    guard !text.utf8.contains(0) else {
      throw ShareError("The text holds a NUL character, which a QR code made here cannot carry")
    }
    let length = text.utf8.count
    guard length <= maximumLength else {
      throw ShareError("The text is too long for a QR code: \(length) bytes, at most \(maximumLength)")
    }
    return text
  }

  /// `qrencode -o OUTPUT -s 8 -l M -- TEXT`: after `--`, a text starting with a dash is text.
  static func encoderArguments(_ payload: String, output: [UInt8]) -> [[UInt8]] {
    [Array("qrencode".utf8), Array("-o".utf8), output]
      + (["-s", "8", "-l", "M", "--"] + [payload]).map { Array($0.utf8) }
  }

  /// A stable name for `payload`: its 64-bit FNV-1a hash in hexadecimal. The image is drawn
  /// again for each request, so two texts sharing a name could never show the wrong code.
  static func hash(_ payload: String) -> String {
    Checksum.fnv1a64(payload.utf8)
  }
}
