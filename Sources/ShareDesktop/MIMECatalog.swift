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
