/// Answers the type questions of activation rules over both hierarchies at once: Apple's UTIs and
/// shared-mime-info's MIME types. A MIME type can be used wherever a UTI is.
public struct TypeSystem: Sendable {
  public let table: UTITable
  public let mime: MIMEHierarchy

  public init(table: UTITable = .standard, mime: MIMEHierarchy) {
    self.table = table
    self.mime = mime
  }

  /// Whether an identifier is a MIME type (`image/png`, `image/*`) rather than a UTI.
  public static func isMIMEType(_ identifier: String) -> Bool {
    identifier.contains("/")
  }

  /// The identifiers a file of `mimeType` is registered under: its UTI (the table's, or that of the
  /// nearest MIME ancestor the table knows), then its canonical MIME type.
  public func typeIdentifiers(forMIMEType mimeType: String) -> [String] {
    let canonical = mime.canonical(mimeType)
    let uti =
      mime.ancestors(of: canonical).lazy.compactMap { table.identifier(forMIMEType: $0) }.first
      ?? (canonical.hasPrefix("inode/directory") ? "public.folder" : "public.data")
    return [uti, canonical]
  }

  /// The identifiers a link is registered under.
  public static let webURLIdentifiers = ["public.url"]
  /// The identifiers a piece of text is registered under.
  public static let textIdentifiers = ["public.plain-text", "text/plain"]

  /// Everything `identifier` conforms to: itself, its UTI ancestors, its MIME ancestors, the
  /// `type/*` wildcard of each MIME type, and across the two through the table's mapping.
  public func conformanceClosure(of identifier: String) -> Set<String> {
    var closure: Set<String> = []
    var pending = [Self.isMIMEType(identifier) ? mime.canonical(identifier) : identifier.lowercased()]
    while let next = pending.popLast() {
      guard closure.insert(next).inserted else { continue }
      if Self.isMIMEType(next) {
        if next.hasSuffix("/*") { continue }
        if let slash = next.firstIndex(of: "/") { pending.append(next[..<slash] + "/*") }
        pending.append(contentsOf: mime.directParents(of: next).map(mime.canonical))
        if let uti = table.identifier(forMIMEType: next) { pending.append(uti) }
      } else if let entry = table.entry(next) {
        pending.append(contentsOf: entry.conformsTo)
        pending.append(contentsOf: entry.mimeTypes.prefix(1))
      }
    }
    return closure
  }

  /// Whether `identifier` conforms to `target`; both may be UTIs or MIME types.
  public func conforms(_ identifier: String, to target: String) -> Bool {
    let target = Self.isMIMEType(target) ? mime.canonical(target) : target.lowercased()
    return conformanceClosure(of: identifier).contains(target)
  }

  /// Turns a selection into attachments: files through `inspector`, links and texts directly.
  /// Files that cannot be looked at are returned as problems, in selection order.
  public func attachments(
    for items: [ShareItem], inspector: some FileInspector
  ) -> (attachments: [Attachment], problems: [FileProblem]) {
    var attachments: [Attachment] = []
    var problems: [FileProblem] = []
    var identifiersByType: [String: [String]] = [:]
    for item in items {
      switch item {
      case .file(let path):
        do {
          let facts = try inspector.inspect(path)
          let ids =
            identifiersByType[facts.contentType]
            ?? {
              let ids = typeIdentifiers(forMIMEType: facts.contentType)
              identifiersByType[facts.contentType] = ids
              return ids
            }()
          attachments.append(Attachment(item: item, typeIdentifiers: ids, file: facts))
        } catch {
          problems.append(error)
        }
      case .webURL:
        attachments.append(Attachment(item: item, typeIdentifiers: Self.webURLIdentifiers))
      case .text:
        attachments.append(Attachment(item: item, typeIdentifiers: Self.textIdentifiers))
      }
    }
    return (attachments, problems)
  }
}
