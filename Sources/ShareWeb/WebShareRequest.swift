import FoundationEssentials
public import ShareCore
import ShareHost
import ShareProtocol

/// What a web page asked to share, as the browser extension sends it: first the share,
/// `{"share": {"origin", "title", "text", "url", "files": [{"name", "type", "size"}]}}`, then each
/// file's bytes in order, as chunks `{"chunk": {"file": N, "data": BASE64}}` (a message stays far
/// below the browsers' limits however large the file). `origin` is the page's, as the browser
/// told the extension, never as the page said.
public struct WebShareRequest: Equatable, Sendable {
  /// The page's origin, `https://example.org` (a port when it has one).
  public var origin: String
  public var title: String?
  public var text: String?
  /// Absolute, `http` or `https`: the extension resolved it against the page.
  public var url: String?
  public var files: [File]

  /// A file as the page named it, its name made safe.
  public struct File: Equatable, Sendable {
    /// The name to write it under: the page's, made safe (``WebShareNames``).
    public var name: String
    /// The type the page gave (`File.type`); empty when it gave none.
    public var type: String
    public var size: Int
  }

  /// The Web Share limits Chromium keeps on the platforms where it shares: so that a page meets
  /// the same ones everywhere. The extension checks them first (`LIMITS` in
  /// `data/browser-extension/page.js`, kept equal by `ExtensionTablesTests`).
  public enum Limits {
    public static let files = 10
    public static let totalFileBytes = 50 << 20
    public static let title = 16 << 10
    public static let url = 16 << 10
    public static let text = 1 << 20
  }

  /// The site the sheet names: the origin's host, and its port when it has one.
  public var site: String {
    guard let start = origin.firstRange(of: "://") else { return origin }
    let rest = origin[start.upperBound...]
    return String(rest.prefix { $0 != "/" })
  }

  /// What the sheet shares: the text, or without one the title (a page shared with its title, as
  /// browsers share a page), the link, the files in `folder`.
  public func items(filesIn folder: FilePath) -> [ShareItem] {
    var items: [ShareItem] = []
    if let text, !text.isEmpty {
      items.append(.text(text))
    } else if let title, !title.isEmpty {
      items.append(.text(title))
    }
    if let url { items.append(.webURL(url)) }
    for file in files { items.append(.file(folder.appending(file.name))) }
    return items
  }
}

/// Why a share is refused before the sheet opens: each has a key the extension turns into the
/// exception the Web Share API names, and words.
public enum WebShareRefusal: Error, Equatable, Sendable {
  /// Not a message of the protocol: not JSON, a wrong type, a value missing.
  case invalidMessage(String)
  /// Neither a title, a text, a link nor a file.
  case nothingToShare
  case invalidURL(String)
  case invalidOrigin(String)
  case tooManyFiles(Int)
  /// `what` (a file's name, `title`, `text`, `url`, or "the files") is over `limit` bytes.
  case tooLarge(what: String, limit: Int)
  /// A name that cannot be a file's (empty, `.`, `..`).
  case unsafeName(String)
  /// A type Chromium's Web Share refuses too (an executable, an archive): by its name or type.
  case typeNotAllowed(name: String, type: String)

  /// The key the extension reads (`reason`).
  public var reason: String {
    switch self {
    case .invalidMessage: "invalid-message"
    case .nothingToShare: "nothing-to-share"
    case .invalidURL: "invalid-url"
    case .invalidOrigin: "invalid-origin"
    case .tooManyFiles: "too-many-files"
    case .tooLarge: "too-large"
    case .unsafeName: "unsafe-name"
    case .typeNotAllowed: "type-not-allowed"
    }
  }

  public var message: String {
    switch self {
    case .invalidMessage(let problem): "not a share message: \(problem)"
    case .nothingToShare: "nothing to share: no title, text, url or file"
    case .invalidURL(let url): "\(Diagnostics.quoted(url)) is not an http or https link"
    case .invalidOrigin(let origin): "\(Diagnostics.quoted(origin)) is not a web page's origin"
    case .tooManyFiles(let count):
      "\(count) files are more than the \(WebShareRequest.Limits.files) a page may share at once"
    case .tooLarge(let what, let limit): "\(what) is larger than the \(Self.size(limit)) a page may share"
    case .unsafeName(let name): "\(Diagnostics.quoted(name)) cannot be a file's name"
    case .typeNotAllowed(let name, let type):
      "\(Diagnostics.quoted(name))\(type.isEmpty ? "" : " (\(type))") is not a type web pages may share"
    }
  }

  static func size(_ bytes: Int) -> String {
    bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
  }
}

extension WebShareRequest {
  /// The first message's JSON, as sent.
  struct Message: Decodable {
    var share: Share

    struct Share: Decodable {
      var origin: String
      var title: String?
      var text: String?
      var url: String?
      var files: [File]?
    }

    struct File: Decodable {
      var name: String
      var type: String?
      var size: Int
    }
  }

  /// Reads and checks the first message.
  ///
  /// - Throws: a ``WebShareRefusal`` naming what is wrong.
  public static func decode(_ json: [UInt8]) throws(WebShareRefusal) -> WebShareRequest {
    let message: Message
    do {
      message = try JSONDecoder().decode(Message.self, from: Data(json))
    } catch let error as DecodingError {
      throw .invalidMessage(describe(error))
    } catch {
      throw .invalidMessage("not JSON")
    }
    let share = message.share
    guard share.origin.hasPrefix("https://") || share.origin.hasPrefix("http://"), share.origin.count <= 2048
    else { throw .invalidOrigin(share.origin) }
    if let title = share.title, title.utf8.count > Limits.title {
      throw .tooLarge(what: "the title", limit: Limits.title)
    }
    if let text = share.text, text.utf8.count > Limits.text {
      throw .tooLarge(what: "the text", limit: Limits.text)
    }
    if let url = share.url {
      guard url.utf8.count <= Limits.url else { throw .tooLarge(what: "the url", limit: Limits.url) }
      guard url.hasPrefix("https://") || url.hasPrefix("http://"), ShareItem.isAbsoluteURL(url) else {
        throw .invalidURL(url)
      }
    }
    let given = share.files ?? []
    guard share.title != nil || share.text != nil || share.url != nil || !given.isEmpty else {
      throw .nothingToShare
    }
    guard given.count <= Limits.files else { throw .tooManyFiles(given.count) }
    var total = 0
    var names = SafeFileNames()
    var files: [File] = []
    for file in given {
      guard file.size >= 0 else { throw .invalidMessage("a file's size is negative") }
      total += file.size
      guard total <= Limits.totalFileBytes else {
        throw .tooLarge(what: "the files", limit: Limits.totalFileBytes)
      }
      let type = file.type ?? ""
      guard let safe = SafeFileNames.safe(file.name) else { throw .unsafeName(file.name) }
      guard WebShareTypes.isPermitted(name: safe, type: type) else {
        throw .typeNotAllowed(name: file.name, type: type)
      }
      files.append(File(name: names.unique(safe), type: type, size: file.size))
    }
    return WebShareRequest(
      origin: share.origin, title: share.title, text: share.text, url: share.url, files: files)
  }

  static func describe(_ error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, let context):
      "\(CodingPath.describe(context.codingPath + [key])) is missing"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      "\(CodingPath.describe(context.codingPath)) has a wrong type"
    case .dataCorrupted(let context):
      context.codingPath.isEmpty ? "not JSON" : "\(CodingPath.describe(context.codingPath)) is not valid"
    @unknown default: "not a share message"
    }
  }
}

/// One chunk of a file's bytes.
struct WebShareChunk: Decodable {
  var chunk: Chunk

  struct Chunk: Decodable {
    var file: Int
    var data: String
  }

  /// The chunk's file and bytes.
  static func decode(_ json: [UInt8]) throws(WebShareRefusal) -> (file: Int, bytes: [UInt8]) {
    let message: WebShareChunk
    do {
      message = try JSONDecoder().decode(WebShareChunk.self, from: Data(json))
    } catch let error as DecodingError {
      throw .invalidMessage(WebShareRequest.describe(error))
    } catch {
      throw .invalidMessage("not JSON")
    }
    guard let data = Data(base64Encoded: message.chunk.data) else {
      throw .invalidMessage("'chunk.data' is not base64")
    }
    return (message.chunk.file, Array(data))
  }
}
