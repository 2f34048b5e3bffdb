/// The subclass and alias relations of shared-mime-info, as read from each of its directories
/// (the compiled `mime.cache`, or the `subclasses` and `aliases` files), plus the rules the
/// specification adds on top of them.
///
/// The files are handed in as bytes and text so that the core stays free of I/O; `ShareGLib` reads
/// them from the very directories GIO uses, so both agree on every answer.
public struct MIMEHierarchy: Sendable {
  /// One directory's relations each, the most important first.
  ///
  /// Existentials, not an enum of the two kinds: a multi-payload enum keeps its case in the spare
  /// bits of its payload's pointers, which LeakSanitizer then takes for no pointers at all and
  /// reports the process's type system as leaked at exit.
  private var layers: [any MIMERelations] = []

  /// One directory's `subclasses` and `aliases` files, lowercased.
  private struct TextRelations: MIMERelations {
    var parents: [String: [String]] = [:]
    /// The first line for each alias.
    var aliases: [String: String] = [:]
    var aliasesByCanonical: [String: [String]] = [:]

    func canonical(ofAlias alias: String) -> String? { aliases[alias] }
    func lists(_ alias: String, asAliasOf canonical: String) -> Bool { aliases[alias] == canonical }
    func aliases(of canonical: String) -> [String] { aliasesByCanonical[canonical] ?? [] }
    func parents(of type: String) -> [String] { parents[type] ?? [] }
  }

  public init() {}

  /// Adds one directory's `subclasses` and `aliases` files. Call in order of precedence, the most
  /// important directory first; a later directory only adds relations.
  public mutating func add(subclasses: String, aliases aliasText: String) {
    var relations = TextRelations()
    for (child, parent) in Self.pairs(in: subclasses)
    where !(relations.parents[child]?.contains(parent) ?? false) {
      relations.parents[child, default: []].append(parent)
    }
    for (alias, canonical) in Self.pairs(in: aliasText) where relations.aliases[alias] == nil {
      relations.aliases[alias] = canonical
      relations.aliasesByCanonical[canonical, default: []].append(alias)
    }
    // A directory without the files (most of `XDG_DATA_DIRS`) would only make every lookup longer.
    guard !relations.parents.isEmpty || !relations.aliases.isEmpty else { return }
    layers.append(relations)
  }

  /// Adds one directory's compiled database (`mime.cache`), in the same order as
  /// ``add(subclasses:aliases:)``. Returns `false`, adding nothing, when `cache` is not one (the
  /// directory's text files are then the ones to add, as GIO reads them in that case).
  public mutating func add(cache: [UInt8]) -> Bool {
    guard let cache = MIMECache(cache) else { return false }
    layers.append(cache)
    return true
  }

  /// Adds one MIME directory as GIO reads it: its `mime.cache` when it has a valid one, else its
  /// `subclasses` and `aliases` files (as UTF-8; a file missing, unreadable or not UTF-8 adds
  /// nothing). `read` gives at least the first `limit` bytes of a file of the directory by name
  /// (all of it when it is shorter), `nil` when it cannot be read.
  public mutating func addDirectory(reading read: (_ fileName: String, _ limit: Int) -> [UInt8]?) {
    // The names and the two lists this reader uses come first in the cache (40 of the 157 KB
    // of shared-mime-info 2.2): the rest of the file is read only when they reach past that.
    if let start = read("mime.cache", MIMECache.usualExtent) {
      if add(cache: start) { return }
      if start.count >= MIMECache.usualExtent, let whole = read("mime.cache", Int.max),
        whole.count > start.count,
        add(cache: whole)
      {
        return
      }
    }
    func text(_ name: String) -> String {
      read(name, Int.max).flatMap { String(validating: $0, as: UTF8.self) } ?? ""
    }
    add(subclasses: text("subclasses"), aliases: text("aliases"))
  }

  /// The canonical name of a MIME type (resolving an alias), lowercased.
  ///
  /// The first directory to list the type as an alias names it. Two packages may each call the
  /// other's type an alias of theirs (shared-mime-info's `application/pkcs12` and gcr's
  /// `application/x-pkcs12`): GIO then treats both as types, and so does this, whichever
  /// directories the two entries are in.
  public func canonical(_ mimeType: String) -> String {
    let lowered = lowercase(mimeType)
    for layer in layers {
      guard let canonical = layer.canonical(ofAlias: lowered) else { continue }
      if !layers.contains(where: { $0.lists(canonical, asAliasOf: lowered) }) { return canonical }
    }
    return lowered
  }

  /// The other names of a canonical MIME type (`image/jpg` and `image/pjpeg` for `image/jpeg`).
  public func aliases(of canonicalType: String) -> [String] {
    var result: [String] = []
    for layer in layers {
      for alias in layer.aliases(of: canonicalType) where !result.contains(alias) {
        if canonical(alias) == canonicalType { result.append(alias) }
      }
    }
    return result
  }

  /// The parents shared-mime-info lists for a MIME type (`subclasses`), canonical.
  public func declaredParents(of mimeType: String) -> [String] {
    let type = canonical(mimeType)
    var parents: [String] = []
    for layer in layers {
      for parent in layer.parents(of: type) where !parents.contains(parent) { parents.append(parent) }
    }
    return parents.map(canonical)
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
  isLowercase(text) ? text : text.lowercased()
}

/// Whether `text` is lowercase ASCII, which ``lowercase(_:)`` leaves as it is.
func isLowercase(_ text: String) -> Bool {
  func isLowercase(_ byte: UInt8) -> Bool {
    byte < 0x80 && !(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
  }
  // The bytes in place where they are (literals, native strings): a loop over the view's
  // iterator cost several times as much, for every identifier of the standard table.
  return text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isLowercase) }
    ?? text.utf8.allSatisfy(isLowercase)
}

/// The relations one directory of shared-mime-info lists; every name given and returned is
/// lowercase.
protocol MIMERelations: Sendable {
  /// The canonical type of the first alias entry for `alias`.
  func canonical(ofAlias alias: String) -> String?
  /// Whether an entry makes `alias` an alias of `canonical`.
  func lists(_ alias: String, asAliasOf canonical: String) -> Bool
  /// The names listed as aliases of `canonical`.
  func aliases(of canonical: String) -> [String]
  /// The parents listed for `type`.
  func parents(of type: String) -> [String]
}
