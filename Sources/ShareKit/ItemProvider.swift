public import FoundationEssentials
internal import ShareCore
import ShareProtocol

/// One attachment: a file, a link or a text, and the type identifiers it is registered under.
///
/// The counterpart of Apple's `NSItemProvider`. Ask what an attachment is with
/// ``hasItemConformingToTypeIdentifier(_:)``, then read it directly (``fileURL``, ``webURL``,
/// ``text``) or, as on Apple's platforms, load it (``loadFileURL()``, ``loadURL()``,
/// ``loadText()``, ``loadItem(forTypeIdentifier:)``).
///
/// File names are bytes: a name may hold bytes that are not UTF-8, which Foundation's `URL` cannot
/// give back as a path. ``filePathBytes`` is always exact: use it, with an API that takes bytes,
/// for such names.
public struct ItemProvider: Sendable {
  /// The attachment as the protocol carries it.
  let payload: AttachmentPayload

  init(payload: AttachmentPayload) {
    self.payload = payload
  }

  // MARK: Returning items

  /// A file, to return from an extension (a saved copy, a converted file).
  ///
  /// - Parameters:
  ///   - fileURL: a `file:` URL.
  ///   - typeIdentifiers: what the file is, most specific first (`public.png`, `image/png`).
  public init(fileURL: URL, typeIdentifiers: [String] = ["public.data"]) {
    // The absolute string is percent-encoded byte by byte, so decoding it gives the exact bytes.
    let path = FilePath(fileURL: fileURL.absoluteString) ?? FilePath(fileURL.path)
    self.init(filePath: path, typeIdentifiers: typeIdentifiers)
  }

  /// A file given by its path's bytes, to return from an extension; every name survives.
  public init(filePathBytes: [UInt8], typeIdentifiers: [String] = ["public.data"]) {
    self.init(filePath: FilePath(bytes: filePathBytes), typeIdentifiers: typeIdentifiers)
  }

  /// A link, registered as `public.url`. A `file:` URL makes a file attachment, as
  /// ``init(fileURL:typeIdentifiers:)`` does.
  public init(url: URL) {
    if url.isFileURL {
      self.init(fileURL: url)
    } else {
      self.init(
        payload: AttachmentPayload(typeIdentifiers: TypeSystem.webURLIdentifiers, url: url.absoluteString))
    }
  }

  /// A piece of text, registered as `public.plain-text` and `text/plain`.
  public init(text: String) {
    self.init(payload: AttachmentPayload(typeIdentifiers: TypeSystem.textIdentifiers, text: text))
  }

  private init(filePath: FilePath, typeIdentifiers: [String]) {
    self.init(
      payload: AttachmentPayload(
        typeIdentifiers: typeIdentifiers, url: filePath.fileURL, path: filePath.string,
        name: String(decoding: filePath.lastComponent, as: UTF8.self)))
  }

  // MARK: What it is

  /// The identifiers the attachment is registered under, most specific first: for a file its
  /// UTI and its MIME type (`public.png`, `image/png`); `public.url` for a link;
  /// `public.plain-text` and `text/plain` for a text.
  public var registeredTypeIdentifiers: [String] { payload.typeIdentifiers }

  /// Whether one of the registered identifiers conforms to `typeIdentifier`, a UTI or a MIME type
  /// (`public.image`, `image/*`, `text/plain`), over Apple's UTI hierarchy and this desktop's
  /// shared-mime-info database, as activation rules are checked.
  public func hasItemConformingToTypeIdentifier(_ typeIdentifier: String) -> Bool {
    hasItem(conformingTo: typeIdentifier, in: SystemTypes.typeSystem)
  }

  func hasItem(conformingTo typeIdentifier: String, in types: TypeSystem) -> Bool {
    registeredTypeIdentifiers.contains { types.conforms($0, to: typeIdentifier) }
  }

  /// Whether the attachment is a local file.
  public var isFile: Bool { payload.isFile }

  /// The file's `file:` URL, for a file; `nil` otherwise.
  ///
  /// The URL is exact (its `absoluteString` is percent-encoded byte by byte), but Foundation
  /// gives no `path` for a name that is not UTF-8: use ``filePathBytes`` for such files.
  public var fileURL: URL? {
    guard payload.isFile, let url = payload.url else { return nil }
    return URL(string: url)
  }

  /// The file's path as the kernel sees it, byte for byte, for a file; `nil` otherwise.
  public var filePathBytes: [UInt8]? {
    guard payload.isFile, let url = payload.url else { return nil }
    return FilePath(fileURL: url)?.bytes
  }

  /// The link, for a link; `nil` for files and texts.
  public var webURL: URL? {
    guard !payload.isFile, let url = payload.url else { return nil }
    return URL(string: url)
  }

  /// The text, for a text; `nil` otherwise.
  public var text: String? { payload.text }

  /// A name for showing: a file's name (invalid bytes replaced); `nil` for links and texts.
  public var name: String? { payload.name }

  /// A file's size in bytes, when the host measured it.
  public var size: UInt64? { payload.size }

  // MARK: Loading, as on Apple's platforms

  /// The file's URL.
  ///
  /// - Throws: ``ShareError/itemUnavailable(_:)`` when the attachment is no file.
  public func loadFileURL() async throws -> URL {
    guard let url = fileURL else { throw unavailable("file") }
    return url
  }

  /// The link, or for a file its `file:` URL.
  ///
  /// - Throws: ``ShareError/itemUnavailable(_:)`` for a text.
  public func loadURL() async throws -> URL {
    guard let url = webURL ?? fileURL else { throw unavailable("URL") }
    return url
  }

  /// The text.
  ///
  /// - Throws: ``ShareError/itemUnavailable(_:)`` when the attachment is no text.
  public func loadText() async throws -> String {
    guard let text else { throw unavailable("text") }
    return text
  }

  /// The item as Apple's `loadItem(forTypeIdentifier:options:)` gives it: a `URL` for a file or a
  /// link, a `String` for a text.
  ///
  /// - Throws: ``ShareError/itemUnavailable(_:)`` when no registered identifier conforms to
  ///   `typeIdentifier`.
  public func loadItem(forTypeIdentifier typeIdentifier: String) async throws -> any Sendable {
    guard hasItemConformingToTypeIdentifier(typeIdentifier) else {
      throw unavailable("item of type \(typeIdentifier)")
    }
    if let text { return text }
    return try await loadURL()
  }

  private func unavailable(_ wanted: String) -> ShareError {
    .itemUnavailable(
      "the attachment holds no \(wanted); it is registered as \(registeredTypeIdentifiers.joined(separator: ", "))"
    )
  }
}
