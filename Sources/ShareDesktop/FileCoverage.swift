import FoundationEssentials
public import ShareCore

/// The MIME types of this machine, which file-manager entries are written in terms of.
///
/// The list of every type comes from shared-mime-info's `types` files: Thunar matches types exactly,
/// so `image/*` must be spelled out, and a rule over UTIs must become MIME types at all.
public struct MIMECatalog: Sendable {
  public let types: TypeSystem
  /// Every known MIME type, canonical and sorted: regular-file types and `inode/directory`.
  public let knownTypes: [String]
  /// A one-file selection per known type, built once, so that probing a rule only evaluates it.
  private let probes: [String: ActivationSelection]

  /// - Parameter knownTypes: MIME types, e.g. the lines of `/usr/share/mime/types`; aliases are
  ///   resolved, and `inode/*` types other than `inode/directory` left out (no one selects them).
  public init(types: TypeSystem, knownTypes: some Sequence<String>) {
    self.types = types
    var set = Set(
      knownTypes.map { types.mime.canonical($0.trimmingSpaces()) }.filter {
        $0.split(separator: "/").count == 2 && !$0.hasPrefix("inode/") && !$0.hasPrefix("all/")
      })
    set.insert(Self.folderType)
    self.knownTypes = set.sorted()
    var probes: [String: ActivationSelection] = [:]
    for type in set { probes[type] = Self.selection(of: type, count: 1, types: types) }
    self.probes = probes
  }

  /// The catalog of the MIME directories GIO uses (`g_content_type_get_mime_dirs()`): every type
  /// their `types` files list.
  public static func load(types: TypeSystem, mimeDirectories: [String]) -> MIMECatalog {
    var known: [String] = []
    for directory in mimeDirectories {
      guard let text = try? String(contentsOfFile: directory + "/types", encoding: .utf8) else { continue }
      known += text.split(whereSeparator: \.isNewline).map(String.init)
    }
    return MIMECatalog(types: types, knownTypes: known)
  }

  static let folderType = "inode/directory"

  /// The media type of a MIME type: `image` for `image/png`.
  static func media(of type: String) -> Substring { type.prefix { $0 != "/" } }

  /// A selection of `count` files of `type`, as `xdg-share share` would present them.
  static func selection(of type: String, count: Int, types: TypeSystem) -> ActivationSelection {
    let facts = FileFacts(contentType: type, size: 1, isDirectory: type == folderType)
    let attachment = Attachment(
      item: .file(FilePath("/xdg-share-probe")), typeIdentifiers: types.typeIdentifiers(forMIMEType: type),
      file: facts)
    return ActivationSelection(attachments: Array(repeating: attachment, count: count), types: types)
  }

  func accepts(_ rule: ActivationRule, _ type: String, count: Int) -> Bool {
    if count == 1, let probe = probes[type] { return rule.accepts(probe) }
    return rule.accepts(Self.selection(of: type, count: count, types: types))
  }

  func kind(of type: String) -> ActivationSelection.Kind {
    (probes[type] ?? Self.selection(of: type, count: 1, types: types)).typeClasses.first?.kind ?? .otherFile
  }
}

/// Which selections a service's file-manager entry is offered for: the file manager's
/// approximation of the activation rule.
///
/// Menus can only test MIME types and counts, so this is coarse by design: `xdg-share share`
/// checks the exact rule again. It is worked out by asking the rule itself about selections of
/// one type at a time, so both rule forms, `NOT`, `SUBQUERY` and counts are all honoured the way
/// the share itself honours them. Selections that mix types with separate limits (a dictionary
/// rule with both `…ImageWithMaxCount` and `…FileWithMaxCount`) get the larger single limit.
public struct FileCoverage: Equatable, Sendable {
  /// The regular-file MIME types accepted, sorted; empty when ``allFiles``.
  public var fileTypes: [String]
  /// Whether every known type of regular file is accepted.
  public var allFiles: Bool
  /// Whether folders are accepted.
  public var folders: Bool
  /// The fewest items a selection may hold, at least 1.
  public var minimumCount: Int
  /// The most items a selection may hold; `nil` for no limit.
  public var maximumCount: Int?

  public init(
    fileTypes: [String], allFiles: Bool = false, folders: Bool = false, minimumCount: Int = 1,
    maximumCount: Int? = nil
  ) {
    self.fileTypes = allFiles ? [] : fileTypes.sorted()
    self.allFiles = allFiles
    self.folders = folders
    self.minimumCount = max(1, minimumCount)
    self.maximumCount = maximumCount
  }

  /// Selections of more files than this count as "no limit" (each probe of n files costs n).
  static let countLimit = 1000

  /// What `rule` accepts in terms of files, or `nil` when it takes no file at all (a service for
  /// text or links only).
  public init?(rule: ActivationRule, catalog: MIMECatalog) {
    // Which types: first as single files; a rule wanting several files at once is tried with
    // up to four.
    var accepted: [String] = []
    for count in 1...4 {
      accepted = catalog.knownTypes.filter { catalog.accepts(rule, $0, count: count) }
      if !accepted.isEmpty { break }
    }
    guard !accepted.isEmpty else { return nil }
    let acceptedSet = Set(accepted)
    let folders = acceptedSet.contains(MIMECatalog.folderType)
    let files = accepted.filter { $0 != MIMECatalog.folderType }
    let allFiles = files.count == catalog.knownTypes.count - 1

    // How many: from one representative of each kind of content the rule takes.
    var representatives: [String] = []
    var seenKinds: Set<ActivationSelection.Kind> = []
    let preferred = ["image/png", "video/mp4", "application/pdf", "text/plain"].filter(acceptedSet.contains)
    for type in preferred + accepted
    where seenKinds.insert(catalog.kind(of: type)).inserted || type == MIMECatalog.folderType {
      if !representatives.contains(type) { representatives.append(type) }
    }
    var minimum = Int.max
    var maximum: Int? = 0
    for type in representatives {
      let range = Self.countRange(of: rule, type: type, catalog: catalog)
      minimum = min(minimum, range.minimum)
      maximum = range.maximum.flatMap { limit in maximum.map { max($0, limit) } }
    }
    self.init(
      fileTypes: files, allFiles: allFiles, folders: folders, minimumCount: minimum, maximumCount: maximum)
  }

  /// The smallest and largest number of files of `type` the rule accepts, assuming it accepts
  /// every number in between, as count limits do: the limit is found by doubling, then halving.
  private static func countRange(
    of rule: ActivationRule, type: String, catalog: MIMECatalog
  ) -> (minimum: Int, maximum: Int?) {
    let minimum = (1...4).first { catalog.accepts(rule, type, count: $0) } ?? 1
    // Accepted at `low`; refused at `high` once one is found.
    var low = minimum
    var high: Int?
    var next = minimum + 1
    while high == nil {
      if catalog.accepts(rule, type, count: next) {
        low = next
        guard next < countLimit else { return (minimum, nil) }
        next = min(next * 2, countLimit)
      } else {
        high = next
      }
    }
    while let refused = high, refused - low > 1 {
      let middle = (low + refused) / 2
      if catalog.accepts(rule, type, count: middle) { low = middle } else { high = middle }
    }
    return (minimum, low)
  }
}

extension MIMECatalog {
  /// The accepted file types with each media type every known type of which is accepted written
  /// as `media/*`: for file managers that match wildcards but not subclasses (DES-EMA).
  public func wildcardPatterns(for coverage: FileCoverage) -> [String] {
    let accepted = Set(coverage.fileTypes)
    var byMedia: [Substring: [String]] = [:]
    for type in knownTypes where type != Self.folderType {
      byMedia[Self.media(of: type), default: []].append(type)
    }
    let complete = Set(byMedia.filter { $0.value.allSatisfy(accepted.contains) }.keys)
    var patterns = complete.sorted().map { String($0) + "/*" }
    patterns += coverage.fileTypes.filter { !complete.contains(Self.media(of: $0)) }
    return patterns
  }

  /// ``wildcardPatterns(for:)`` without the types one of whose declared ancestors (in
  /// shared-mime-info's `subclasses`) is listed: for file managers that match subclasses too
  /// (KIO, Nemo). The implicit parents (`text/plain`, `application/octet-stream`) do not count.
  public func inheritancePatterns(for coverage: FileCoverage) -> [String] {
    let patterns = wildcardPatterns(for: coverage)
    let listed = Set(patterns)
    return patterns.filter { type in
      type.hasSuffix("/*") || declaredAncestors(of: type).allSatisfy { !listed.contains($0) }
    }
  }

  /// The proper ancestors of `type` through `subclasses` alone.
  func declaredAncestors(of type: String) -> Set<String> {
    var seen: Set<String> = []
    var pending = types.mime.declaredParents(of: type)
    while let next = pending.popLast() {
      guard seen.insert(next).inserted else { continue }
      pending += types.mime.declaredParents(of: next)
    }
    seen.remove(types.mime.canonical(type))
    return seen
  }
}
