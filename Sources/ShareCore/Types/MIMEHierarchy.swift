/// The subclass and alias relations of shared-mime-info, as read from its `subclasses` and
/// `aliases` files, plus the rules the specification adds on top of them.
///
/// The files are handed in as text so that the core stays free of I/O; `ShareGLib` reads them from
/// the very directories GIO uses, so both agree on every answer.
public struct MIMEHierarchy: Sendable {
  private var parents: [String: [String]] = [:]
  private var aliases: [String: String] = [:]

  public init() {}

  /// Adds one directory's `subclasses` and `aliases` files. Call in order of precedence, the most
  /// important directory first; a later directory only adds relations.
  public mutating func add(subclasses: String, aliases aliasText: String) {
    for (child, parent) in Self.pairs(in: subclasses) where !(parents[child]?.contains(parent) ?? false) {
      parents[child, default: []].append(parent)
    }
    for (alias, canonical) in Self.pairs(in: aliasText) where aliases[alias] == nil {
      aliases[alias] = canonical
    }
  }

  /// The canonical name of a MIME type (resolving an alias), lowercased.
  public func canonical(_ mimeType: String) -> String {
    let lowered = mimeType.lowercased()
    return aliases[lowered] ?? lowered
  }

  /// The direct parents of a MIME type, including the implicit ones of the specification:
  /// every `text/*` is a `text/plain`, every stream of bytes an `application/octet-stream`.
  public func directParents(of mimeType: String) -> [String] {
    let type = canonical(mimeType)
    var result = parents[type] ?? []
    if type.hasPrefix("text/"), type != "text/plain", !result.contains("text/plain") {
      result.append("text/plain")
    }
    if !type.hasPrefix("inode/"), type != "application/octet-stream", !result.contains("application/octet-stream") {
      result.append("application/octet-stream")
    }
    return result
  }

  /// The type itself and all its ancestors, nearest first, each once.
  public func ancestors(of mimeType: String) -> [String] {
    var seen: Set<String> = []
    var ordered: [String] = []
    var queue = [canonical(mimeType)]
    var index = 0
    while index < queue.count {
      let type = queue[index]
      index += 1
      guard seen.insert(type).inserted else { continue }
      ordered.append(type)
      queue.append(contentsOf: directParents(of: type).map(canonical))
    }
    return ordered
  }

  private static func pairs(in text: String) -> [(String, String)] {
    text.split(whereSeparator: \.isNewline).compactMap { line in
      guard !line.hasPrefix("#") else { return nil }
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count == 2 else { return nil }
      return (fields[0].lowercased(), fields[1].lowercased())
    }
  }
}
