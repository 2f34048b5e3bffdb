/// One thing a user shares: a file, a web link or a piece of text.
public enum ShareItem: Hashable, Sendable {
  case file(FilePath)
  case webURL(String)
  case text(String)
}

extension ShareItem {
  /// The item as a person knows it, in a line: a file's name, the link, the start of the text.
  public var shortName: String {
    switch self {
    case .file(let path): FilePath(bytes: path.lastComponent).displayString
    // A link has no white space (``isAbsoluteURL(_:)``), but may hold other control characters.
    case .webURL(let url):
      url.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } ? Diagnostics.quoted(url) : url
    case .text(let text): Diagnostics.quoted(String(text.prefix(40)))
    }
  }

  /// Whether `string` can be shared as a link: `scheme:rest` with an RFC 3986 scheme and no white
  /// space. The command line and the D-Bus service both ask this.
  public static func isAbsoluteURL(_ string: String) -> Bool {
    guard let colon = string.firstIndex(of: ":"), colon != string.startIndex,
      string.index(after: colon) != string.endIndex
    else { return false }
    let scheme = string[..<colon]
    return scheme.first!.isLetter
      && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
      && !string.contains(where: { $0.isWhitespace })
  }
}

/// An item as a caller hands it over: the item, and its MIME type when the caller knows it.
public struct RequestedItem: Hashable, Sendable {
  public var item: ShareItem
  /// Replaces detection for a file, and `text/plain` for a text; links are always `public.url`.
  public var mimeType: String?
  /// How ``mimeType`` was found: said by the caller, or ``TypeSource/detected`` by the host
  /// from a file handed over as a descriptor, which has no path to look at later.
  public var mimeTypeSource: TypeSource

  public init(_ item: ShareItem, mimeType: String? = nil, mimeTypeSource: TypeSource = .caller) {
    self.item = item
    self.mimeType = mimeType
    self.mimeTypeSource = mimeTypeSource
  }
}

/// What is known about a file once it has been looked at.
public struct FileFacts: Hashable, Sendable {
  /// The MIME type, from the name and, when the name gives no certain answer, the content.
  public var contentType: String
  /// The size in bytes; 0 for directories.
  public var size: UInt64
  public var isDirectory: Bool
  /// How ``contentType`` was found.
  public var typeSource: TypeSource

  public init(contentType: String, size: UInt64, isDirectory: Bool, typeSource: TypeSource = .name) {
    self.contentType = contentType
    self.size = size
    self.isDirectory = isDirectory
    self.typeSource = typeSource
  }
}

/// How an item's type was found: what `xdg-share why` says of each item, since a rule that
/// refuses a file often refuses what it was taken for.
public enum TypeSource: String, Hashable, Sendable {
  /// From the file's name (its extension, or a glob of shared-mime-info).
  case name
  /// From the first bytes of the file, the name being no certain guide.
  case content
  /// From what the file is: a folder, a device, an empty file (text, as GIO has it).
  case fileSystem = "filesystem"
  /// Given by whoever asked to share it (`mime` on D-Bus, the sandboxed app, the browser).
  case caller
  /// Found by xdg-share from a file handed over as a descriptor: from the name given with it
  /// and its first bytes, when the caller said no type.
  case detected
  /// A link, which is `public.url`, or a text, which is `public.plain-text`.
  case kind
}

/// Looks at files: the seam between the core and the system's content-type detection.
///
/// Implementations follow the path without changing it (no normalisation of its bytes) and throw
/// ``FileProblem`` for a file that cannot be looked at.
public protocol FileInspector: Sendable {
  func inspect(_ path: FilePath) throws(FileProblem) -> FileFacts
  /// The file at `path`, which the caller says is of `givenType` (or says nothing); its
  /// content type is the given one in any case. By default the file is looked at all the same;
  /// an inspector that trusts callers (`QueryItems`) need not.
  func inspect(_ path: FilePath, givenType: String?) throws(FileProblem) -> FileFacts
}

extension FileInspector {
  public func inspect(_ path: FilePath, givenType: String?) throws(FileProblem) -> FileFacts {
    try inspect(path)
  }
}

/// A file that could not be looked at.
public struct FileProblem: Error, Hashable, Sendable {
  public enum Reason: Hashable, Sendable {
    case notFound
    case permissionDenied
    case other(String)
  }

  public var path: FilePath
  public var reason: Reason

  public init(path: FilePath, reason: Reason) {
    self.path = path
    self.reason = reason
  }
}

/// One attachment of an extension item, as a share extension sees it: what the user shared and
/// the type identifiers it is registered under (`registeredTypeIdentifiers`), most specific first.
public struct Attachment: Hashable, Sendable {
  public var item: ShareItem
  /// A UTI, then the MIME type; every identifier is lowercase.
  public var typeIdentifiers: [String]
  /// Facts about the file, for file attachments.
  public var file: FileFacts?

  public init(item: ShareItem, typeIdentifiers: [String], file: FileFacts? = nil) {
    self.item = item
    self.typeIdentifiers = typeIdentifiers
    self.file = file
  }
}
