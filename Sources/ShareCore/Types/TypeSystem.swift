import Synchronization

/// Answers the type questions of activation rules over both hierarchies at once: Apple's UTIs and
/// shared-mime-info's MIME types. A MIME type can be used wherever a UTI is.
public struct TypeSystem: Sendable {
  public let table: UTITable
  public let mime: MIMEHierarchy
  /// Closures already worked out; a long-lived process (the D-Bus service) asks the same
  /// questions again and again.
  private let closures = BoundedCache<Set<String>>(valueCost: { TypeSystem.cost(of: $0) })
  /// Identifiers by MIME type, for the same reason.
  private let identifiersByMIMEType = BoundedCache<[String]>(valueCost: { TypeSystem.cost(of: $0) })
  /// By media type (`image`): what the closure of a MIME type neither hierarchy knows holds
  /// besides the type itself. A caller may name a new type on every call (`image/x-new-1`,
  /// `image/x-new-2`, …); each one's closure is this and itself (see ``closureOfUnknown(_:)``).
  private let unknownClosures = BoundedCache<Set<String>>(valueCost: { TypeSystem.cost(of: $0) })

  /// What a memo's list of identifiers costs: the collection's header and each string.
  private static func cost(of identifiers: some Collection<String>) -> Int {
    48 + identifiers.reduce(0) { $0 + BoundedCache<[String]>.cost(of: $1) }
  }

  public init(table: UTITable = .standard, mime: MIMEHierarchy) {
    self.table = table
    self.mime = mime
  }

  /// Whether an identifier is a MIME type (`image/png`, `image/*`) rather than a UTI.
  public static func isMIMEType(_ identifier: String) -> Bool {
    identifier.utf8.contains(UInt8(ascii: "/"))
  }

  /// The identifiers a file of `mimeType` is registered under: its UTI (the table's, or that of the
  /// nearest declared MIME ancestor the table knows, or the abstract UTI of its media type), then
  /// its canonical MIME type.
  public func typeIdentifiers(forMIMEType mimeType: String) -> [String] {
    let canonical = mime.canonical(mimeType)
    // A type without declared parents (as any type never seen) is its own only declared
    // ancestor: what the walk below finds, without its set and arrays.
    if mime.canonical(canonical) == canonical, mime.declaredParents(of: canonical).isEmpty {
      let uti = table.identifier(forMIMEType: canonical) ?? fallbackIdentifier(forMediaType: canonical)
      return [uti, canonical]
    }
    let implicit = mime.implicitParents(of: canonical)
    let declared = mime.ancestors(of: canonical).filter { !implicit.contains($0) }
    let uti =
      declared.lazy.compactMap { table.identifier(forMIMEType: $0) }.first
      ?? fallbackIdentifier(forMediaType: canonical)
    return [uti, canonical]
  }

  /// For a type neither the table nor its declared ancestors know: what its media type says, so
  /// that an unknown `video/…` still counts as a movie and an unknown `text/…` as plain text.
  func fallbackIdentifier(forMediaType mimeType: String) -> String {
    let media = String(mimeType.prefix(while: { $0 != "/" }))
    if let family = Self.mediaFamilies[media] { return family }
    switch media {
    case "inode": return "public.item"
    case "text": return table.identifier(forMIMEType: "text/plain") ?? "public.data"
    default: return "public.data"
    }
  }

  /// Every image, video and audio type belongs to its family, known to the table or not.
  static let mediaFamilies = ["image": "public.image", "video": "public.movie", "audio": "public.audio"]

  /// The identifiers a link is registered under.
  public static let webURLIdentifiers = ["public.url"]
  /// The identifiers a piece of text is registered under.
  public static let textIdentifiers = ["public.plain-text", "text/plain"]

  /// Everything `identifier` conforms to: itself, its UTI ancestors, its MIME ancestors and the
  /// `type/*` wildcard of each, and across the two through the table's mapping.
  ///
  /// Two rules keep this agreeing with GIO. The implicit parents (`text/plain` for `text/*`,
  /// `application/octet-stream` for all but `inode/*`) end the walk: their wildcards and relations
  /// do not pass on, so a PNG is no `application/*`. And only the starting UTI crosses over to its
  /// MIME type: an ancestor such as `public.data` names a family, not the MIME type it maps from.
  public func conformanceClosure(of identifier: String) -> Set<String> {
    if let known = closures.lookup(identifier) { return known }
    let closure = computeClosure(of: identifier)
    closures.store(closure, for: identifier)
    return closure
  }

  private func computeClosure(of identifier: String) -> Set<String> {
    let start = Self.isMIMEType(identifier) ? mime.canonical(identifier) : lowercase(identifier)
    if let closure = closureOfUnknown(start) { return closure }
    return walk(from: start)
  }

  /// The closure of `start`, a canonical MIME type that neither hierarchy knows, from the part
  /// its media type decides; nil for any other identifier.
  ///
  /// Why this is the walk's answer: the walk reads of such a type only its media type (its
  /// wildcard, its family, its implicit parents, whether it is an `inode/…`), since it has no
  /// declared parents, aliases, UTI or table entry, and is neither `text/plain` nor
  /// `application/octet-stream` (which are their own ends). So `media/NUL`, which meets the same
  /// conditions and is the name of no real type (no D-Bus string and no name in a `mime.cache`
  /// can hold a NUL), walks alike: its closure less itself is every such type's closure less
  /// itself.
  private func closureOfUnknown(_ start: String) -> Set<String>? {
    guard Self.isMIMEType(start), !start.hasSuffix("/*"), isUnknown(start),
      let slash = start.firstIndex(of: "/")
    else { return nil }
    let media = String(start[..<slash])
    var closure: Set<String>
    if let known = unknownClosures.lookup(media) {
      closure = known
    } else {
      let stand = media + "/\u{0}"
      guard isUnknown(stand) else { return nil }
      closure = walk(from: stand)
      closure.remove(stand)
      unknownClosures.store(closure, for: media)
    }
    closure.insert(start)
    return closure
  }

  /// Whether the walk can learn nothing of the canonical MIME type `type` but its name.
  private func isUnknown(_ type: String) -> Bool {
    type != "text/plain" && type != "application/octet-stream" && mime.canonical(type) == type
      && mime.declaredParents(of: type).isEmpty && table.identifier(forMIMEType: type) == nil
      && table.entry(type) == nil && mime.aliases(of: type).isEmpty
  }

  /// The closure of `start` (canonical if a MIME type, lowercase if a UTI), walked.
  private func walk(from start: String) -> Set<String> {
    var closure: Set<String> = []
    var pending = [start]
    if !Self.isMIMEType(start), let preferred = table.entry(start)?.mimeTypes.first {
      pending.append(mime.canonical(preferred))
    }
    while let next = pending.popLast() {
      guard closure.insert(next).inserted else { continue }
      if Self.isMIMEType(next) {
        if next.hasSuffix("/*") { continue }
        // `String(…)` first: `Substring + String` is the generic operator, unspecialized here,
        // whose first call has the runtime look up conformances (a tenth of a millisecond).
        if let slash = next.firstIndex(of: "/") { pending.append(String(next[..<slash]) + "/*") }
        pending.append(contentsOf: mime.declaredParents(of: next))
        if let uti = table.identifier(forMIMEType: next) { pending.append(uti) }
        if let family = Self.mediaFamilies[String(next.prefix(while: { $0 != "/" }))] {
          pending.append(family)
        }
      } else if let entry = table.entry(next) {
        pending.append(contentsOf: entry.conformsTo)
      }
    }
    // The implicit parents, as ends: themselves and their UTIs' ancestors only.
    let mimeTypes = closure.filter { Self.isMIMEType($0) && !$0.hasSuffix("/*") }
    var ends = Set(mimeTypes.flatMap(mime.implicitParents)).subtracting(closure)
    if mimeTypes.contains(where: { $0.hasPrefix("inode/") }) { ends.insert("public.item") }
    for end in ends {
      closure.insert(end)
      if let uti = table.identifier(forMIMEType: end) { pending.append(uti) }
    }
    while let next = pending.popLast() {
      guard closure.insert(next).inserted else { continue }
      pending.append(contentsOf: table.entry(next)?.conformsTo ?? [])
    }
    // Every other name of each MIME type, so that a rule written with an alias (`image/jpg`, as
    // rule authors do) matches as the canonical name does.
    closure.formUnion(closure.filter(Self.isMIMEType).flatMap(mime.aliases(of:)))
    return closure
  }

  /// Whether `identifier` conforms to `target`; both may be UTIs or MIME types.
  public func conforms(_ identifier: String, to target: String) -> Bool {
    let target = Self.isMIMEType(target) ? mime.canonical(target) : lowercase(target)
    return conformanceClosure(of: identifier).contains(target)
  }

  /// Turns a selection into attachments: files through `inspector`, links and texts directly.
  /// Files that cannot be looked at are returned as problems, in selection order.
  public func attachments(
    for items: [ShareItem], inspector: some FileInspector
  ) -> (attachments: [Attachment], problems: [FileProblem]) {
    attachments(for: items.map { RequestedItem($0) }, inspector: inspector)
  }

  /// Turns a selection into attachments, honouring the MIME types callers give.
  public func attachments(
    for items: [RequestedItem], inspector: some FileInspector
  ) -> (attachments: [Attachment], problems: [FileProblem]) {
    var attachments: [Attachment] = []
    attachments.reserveCapacity(items.count)
    var problems: [FileProblem] = []
    var identifiersByType: [String: [String]] = [:]
    // Selections are mostly of one type: the last answer is checked first, by equality alone.
    var last: (mimeType: String, identifiers: [String])?
    var lastGiven: (given: String, canonical: String)?
    func canonical(_ given: String) -> String {
      if let lastGiven, lastGiven.given == given { return lastGiven.canonical }
      let canonical = mime.canonical(given)
      lastGiven = (given, canonical)
      return canonical
    }
    func identifiers(_ mimeType: String) -> [String] {
      if let last, last.mimeType == mimeType { return last.identifiers }
      let found = lookUp(mimeType)
      last = (mimeType, found)
      return found
    }
    func lookUp(_ mimeType: String) -> [String] {
      if let known = identifiersByType[mimeType] { return known }
      if let known = identifiersByMIMEType.lookup(mimeType) {
        identifiersByType[mimeType] = known
        return known
      }
      let ids = typeIdentifiers(forMIMEType: mimeType)
      identifiersByType[mimeType] = ids
      identifiersByMIMEType.store(ids, for: mimeType)
      return ids
    }
    for requested in items {
      switch requested.item {
      case .file(let path):
        do {
          var facts = try inspector.inspect(path, givenType: requested.mimeType)
          if let given = requested.mimeType {
            facts.contentType = canonical(given)
            facts.typeSource = requested.mimeTypeSource
          }
          attachments.append(
            Attachment(item: requested.item, typeIdentifiers: identifiers(facts.contentType), file: facts))
        } catch {
          problems.append(error)
        }
      case .webURL:
        attachments.append(Attachment(item: requested.item, typeIdentifiers: Self.webURLIdentifiers))
      case .text:
        let ids = requested.mimeType.map { identifiers(canonical($0)) } ?? Self.textIdentifiers
        attachments.append(Attachment(item: requested.item, typeIdentifiers: ids))
      }
    }
    return (attachments, problems)
  }
}

/// A thread-safe memo bounded by the bytes it holds, not by its number of entries: a caller that
/// names a new, made-up type on every call (a hostile D-Bus client) cannot make it hold more than
/// ``capacity``, however long the names. Emptied when full rather than grown without end.
private final class BoundedCache<Value: Sendable>: Sendable {
  private let entries = Mutex<(values: [String: Value], bytes: Int)>(([:], 0))
  /// The bytes the memo may hold, keys and values counted as ``cost(of:)`` estimates them.
  private static var capacity: Int { 1 << 20 }
  private let valueCost: @Sendable (Value) -> Int

  init(valueCost: @escaping @Sendable (Value) -> Int) {
    self.valueCost = valueCost
  }

  /// What a string costs in a dictionary or a set: its slot, and its heap storage when longer
  /// than the 15 bytes Swift keeps inline.
  static func cost(of string: String) -> Int {
    let count = string.utf8.count
    return 24 + (count > 15 ? 32 + count : 0)
  }

  func lookup(_ key: String) -> Value? {
    entries.withLock { $0.values[key] }
  }

  func store(_ value: Value, for key: String) {
    let size = Self.cost(of: key) + valueCost(value)
    guard size <= Self.capacity else { return }
    entries.withLock { entries in
      if entries.bytes + size > Self.capacity {
        entries.values.removeAll(keepingCapacity: true)
        entries.bytes = 0
      }
      if let old = entries.values.updateValue(value, forKey: key) {
        entries.bytes -= Self.cost(of: key) + valueCost(old)
      }
      entries.bytes += size
    }
  }
}
