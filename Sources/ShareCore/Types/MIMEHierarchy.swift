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
      // Checked only when such a pair was seen: most machines have none, and every alias line
      // would otherwise build and sort an array.
      guard bothWays.isEmpty || !bothWays.contains([alias, canonical].sorted()) else { continue }
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

  /// The two fields of each line that has exactly two, lowercased; `#` lines are comments.
  ///
  /// Read as bytes: every process that answers a type question reads these files first (about
  /// 1,500 lines), and splitting them by `Character` was most of `xdg-share list`'s own time.
  /// Lines end at `\n` or `\r` and fields are separated by spaces, as shared-mime-info writes them.
  private static func pairs(in text: String) -> [(String, String)] {
    var text = text
    return text.withUTF8 { bytes in
      var result: [(String, String)] = []
      var fields: [Range<Int>] = []
      var lineStart = 0
      while lineStart < bytes.count {
        var lineEnd = lineStart
        while lineEnd < bytes.count, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
        defer { lineStart = lineEnd + 1 }
        guard lineEnd > lineStart, bytes[lineStart] != UInt8(ascii: "#") else { continue }
        fields.removeAll(keepingCapacity: true)
        var index = lineStart
        while index < lineEnd, fields.count <= 2 {
          while index < lineEnd, bytes[index] == UInt8(ascii: " ") { index += 1 }
          let fieldStart = index
          while index < lineEnd, bytes[index] != UInt8(ascii: " ") { index += 1 }
          if index > fieldStart { fields.append(fieldStart..<index) }
        }
        guard fields.count == 2 else { continue }
        result.append((lowercased(bytes, fields[0]), lowercased(bytes, fields[1])))
      }
      return result
    }
  }

  /// A field as a lowercased string: ASCII by bytes (every MIME type shared-mime-info ships), the
  /// rest through the standard library's Unicode case mapping.
  private static func lowercased(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    let field = UnsafeBufferPointer(rebasing: bytes[range])
    guard field.allSatisfy({ $0 < 0x80 }) else { return String(decoding: field, as: UTF8.self).lowercased() }
    return String(unsafeUninitializedCapacity: field.count) { buffer in
      for (offset, byte) in field.enumerated() {
        buffer[offset] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
      }
      return field.count
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
