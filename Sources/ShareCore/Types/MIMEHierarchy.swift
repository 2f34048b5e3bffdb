/// The subclass and alias relations of shared-mime-info, as read from its `subclasses` and
/// `aliases` files, plus the rules the specification adds on top of them.
///
/// The files are handed in as text so that the core stays free of I/O; `ShareGLib` reads them from
/// the very directories GIO uses, so both agree on every answer.
public struct MIMEHierarchy: Sendable {
  private var parents: [String: [String]] = [:]
  private var aliases: [String: String] = [:]
  private var aliasesByCanonical: [String: [String]] = [:]
  /// Pairs listed both ways, in any directory: two types, never aliases again.
  private var bothWays: Set<[String]> = []

  public init() {}

  /// Adds one directory's `subclasses` and `aliases` files. Call in order of precedence, the most
  /// important directory first; a later directory only adds relations.
  public mutating func add(subclasses: String, aliases aliasText: String) {
    for (child, parent) in Self.pairs(in: subclasses) where !(parents[child]?.contains(parent) ?? false) {
      parents[child, default: []].append(parent)
    }
    for (alias, canonical) in Self.pairs(in: aliasText) where aliases[alias] == nil {
      // Two packages may each call the other's type an alias of theirs (shared-mime-info's
      // application/pkcs12 and gcr's application/x-pkcs12): GIO then treats both as types, and
      // so does this, whichever directories the two lines are in.
      guard !bothWays.contains([alias, canonical].sorted()) else { continue }
      if aliases[canonical] == alias {
        aliases[canonical] = nil
        aliasesByCanonical[alias]?.removeAll { $0 == canonical }
        bothWays.insert([alias, canonical].sorted())
        continue
      }
      aliases[alias] = canonical
      aliasesByCanonical[canonical, default: []].append(alias)
    }
  }

  /// The canonical name of a MIME type (resolving an alias), lowercased.
  public func canonical(_ mimeType: String) -> String {
    let lowered = lowercase(mimeType)
    return aliases[lowered] ?? lowered
  }

  /// The other names of a canonical MIME type (`image/jpg` and `image/pjpeg` for `image/jpeg`).
  public func aliases(of canonicalType: String) -> [String] {
    aliasesByCanonical[canonicalType] ?? []
  }

  /// The parents shared-mime-info lists for a MIME type (`subclasses`), canonical.
  public func declaredParents(of mimeType: String) -> [String] {
    (parents[canonical(mimeType)] ?? []).map(canonical)
  }

  /// The parents the specification adds to every type: `text/plain` for `text/*`, and
  /// `application/octet-stream` for everything but `inode/*`. GIO treats them as ends: their own
  /// relations (and wildcards such as `application/*`) do not pass on.
  public func implicitParents(of mimeType: String) -> [String] {
    let type = canonical(mimeType)
    var result: [String] = []
    if type.hasPrefix("text/"), type != "text/plain" { result.append("text/plain") }
    if !type.hasPrefix("inode/"), type != "application/octet-stream" {
      result.append("application/octet-stream")
    }
    return result
  }

  /// The type itself and all its ancestors, each once: first the declared ones, nearest first,
  /// then the implicit ones, so a real grandparent wins over `application/octet-stream`.
  public func ancestors(of mimeType: String) -> [String] {
    var ordered: [String] = []
    var seen: Set<String> = []
    var queue = [canonical(mimeType)]
    var index = 0
    while index < queue.count {
      let type = queue[index]
      index += 1
      guard seen.insert(type).inserted else { continue }
      ordered.append(type)
      queue.append(contentsOf: declaredParents(of: type))
    }
    for implicit in ordered.flatMap(implicitParents) where seen.insert(implicit).inserted {
      ordered.append(implicit)
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

/// `text.lowercased()`, without making a copy when it is already lowercase ASCII (as MIME types
/// and identifiers almost always are): a type never seen is looked up a dozen times on its way
/// through the hierarchies.
func lowercase(_ text: String) -> String {
  text.utf8.allSatisfy { $0 < 0x80 && !($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }
    ? text : text.lowercased()
}
