import Synchronization

/// The alias and parent lists of a compiled shared-mime-info database (`mime.cache`), looked up
/// where they lie in the file.
///
/// `update-mime-database` writes the cache next to the `subclasses` and `aliases` text files, from
/// the same sources, and GIO reads it in their place. Reading it costs a pass over its entries and
/// no string until one is asked for, where parsing the text files makes a dictionary of some 1,500
/// strings: most of the start-up of every short-lived process that answers a type question
/// (`xdg-share list` among them).
///
/// The format (shared-mime-info's specification, "The cache format"): big-endian 32-bit words
/// after two 16-bit version fields; the header gives the offset of the alias list
/// (`N, N × (alias, type)`) and of the parent list (`N, N × (type, parents)`, where `parents` is the
/// offset of `n, n × type`); every name is the offset of a NUL-terminated string. Both lists are
/// sorted by `strcmp`; lookups here ignore ASCII case, as the rest of ``MIMEHierarchy`` does.
struct MIMECache: MIMERelations {
  private struct Alias: Sendable {
    var alias: Name
    var canonical: Name
  }

  private struct Parents: Sendable {
    var type: Name
    /// The range of this type's parents in ``parentNames``.
    var first: UInt32
    var count: UInt32
  }

  /// The file as read, or, when much more was read, up to the end of its last name the two lists
  /// use: the glob, magic and icon sections after them are not kept.
  private let bytes: [UInt8]
  private let aliasList: [Alias]
  /// ``aliasList`` by alias, and by canonical type for the aliases of a type.
  private let aliasesByName: NameIndex
  private let aliasesByCanonical: NameIndex
  private let parentList: [Parents]
  private let parentsByType: NameIndex
  private let parentNames: [Name]

  /// How much of a cache to read first: its names and its alias and parent lists lie in that
  /// much in the caches `update-mime-database` writes, as they come before the glob and magic
  /// sections.
  static let usualExtent = 64 << 10

  /// How many lookups of a list scan it before its names are hashed into a table.
  static var scansBeforeTable: Int { NameIndex.scansBeforeTable }

  /// Reads a cache; `nil` when it is not one this reader knows (major version 1, minor 1 or 2),
  /// when any offset or count points outside it, or when a name is not ASCII (all MIME types are,
  /// RFC 6838 §4.2, and the text files are read instead: they lowercase any other name as Unicode).
  init?(_ file: [UInt8]) {
    let reader = Reader(bytes: file)
    // Every offset is a 32-bit word; so is every position kept here.
    guard file.count >= 40, file.count <= UInt32.max, let major = reader.half(at: 0),
      let minor = reader.half(at: 2),
      major == 1, (1...2).contains(minor),
      let aliasListOffset = reader.word(at: 4), let parentListOffset = reader.word(at: 8)
    else { return nil }
    var end = 0
    func name(at offset: Int?) -> Name? {
      guard let offset, let name = reader.name(at: offset) else { return nil }
      end = max(end, Int(name.start) + Int(name.count) + 1)
      return name
    }

    guard let aliasCount = reader.word(at: aliasListOffset),
      reader.holds(aliasListOffset + 4, count: aliasCount, of: 8)
    else { return nil }
    var aliasList: [Alias] = []
    aliasList.reserveCapacity(aliasCount)
    for index in 0..<aliasCount {
      let entry = aliasListOffset + 4 + 8 * index
      guard let alias = name(at: reader.word(at: entry)), let canonical = name(at: reader.word(at: entry + 4))
      else { return nil }
      aliasList.append(Alias(alias: alias, canonical: canonical))
    }

    guard let parentCount = reader.word(at: parentListOffset),
      reader.holds(parentListOffset + 4, count: parentCount, of: 8)
    else { return nil }
    var parentList: [Parents] = []
    var parentNames: [Name] = []
    parentList.reserveCapacity(parentCount)
    for index in 0..<parentCount {
      let entry = parentListOffset + 4 + 8 * index
      guard let type = name(at: reader.word(at: entry)), let listOffset = reader.word(at: entry + 4),
        let count = reader.word(at: listOffset), reader.holds(listOffset + 4, count: count, of: 4)
      else { return nil }
      let first = parentNames.count
      for parent in 0..<count {
        guard let parent = name(at: reader.word(at: listOffset + 4 + 4 * parent)) else { return nil }
        parentNames.append(parent)
      }
      parentList.append(Parents(type: type, first: UInt32(first), count: UInt32(count)))
    }

    // Kept as read unless much was read past the lists (the whole file read for long lists).
    self.bytes = file.count - end <= Self.usualExtent / 2 ? file : Array(file[..<end])
    self.aliasList = aliasList
    self.parentList = parentList
    self.parentNames = parentNames
    aliasesByName = NameIndex(aliasList.map(\.alias))
    aliasesByCanonical = NameIndex(aliasList.map(\.canonical))
    parentsByType = NameIndex(parentList.map(\.type))
  }

  /// The canonical type the first entry for `alias` names, lowercased; `alias` is lowercase.
  func canonical(ofAlias alias: String) -> String? {
    lookUp(alias) { bytes, key in
      aliasesByName.first(named: key, in: bytes).map { Self.string(aliasList[$0].canonical, in: bytes) }
    }
  }

  /// Whether an entry makes `alias` an alias of `canonical`; both are lowercase.
  func lists(_ alias: String, asAliasOf canonical: String) -> Bool {
    lookUp(alias) { bytes, key in
      aliasesByName.all(named: key, in: bytes).contains {
        Self.string(aliasList[$0].canonical, in: bytes) == canonical
      }
    }
  }

  /// The names listed as aliases of `canonical` (lowercase), lowercased.
  func aliases(of canonical: String) -> [String] {
    lookUp(canonical) { bytes, key in
      aliasesByCanonical.all(named: key, in: bytes).map { Self.string(aliasList[$0].alias, in: bytes) }
    }
  }

  /// The parents listed for `type` (lowercase), lowercased, in the order of the file.
  func parents(of type: String) -> [String] {
    lookUp(type) { bytes, key in
      parentsByType.all(named: key, in: bytes).flatMap { index in
        let entry = parentList[index]
        return parentNames[Int(entry.first)..<Int(entry.first + entry.count)].map {
          Self.string($0, in: bytes)
        }
      }
    }
  }

  private func lookUp<Result>(
    _ key: String, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    var key = key
    return key.withUTF8 { key in bytes.withUnsafeBufferPointer { body($0, key) } }
  }

  /// A name of the cache, lowercased.
  private static func string(_ name: Name, in bytes: UnsafeBufferPointer<UInt8>) -> String {
    String(unsafeUninitializedCapacity: Int(name.count)) { buffer in
      for index in 0..<Int(name.count) { buffer[index] = lowercased(bytes[Int(name.start) + index]) }
      return Int(name.count)
    }
  }
}

/// The positions of a list's entries by name, ignoring ASCII case.
///
/// The lists of the file are sorted by `strcmp`, in which capitals sort before small letters
/// (`audio/AMR` before `audio/aac`), so they cannot be searched ignoring case as they are; sorting
/// them again would cost every process that reads the cache more than reading it. A process that
/// asks a few names (`xdg-share list`) scans the list for each; one that asks many (the service: a
/// type never seen is looked up a dozen times on its way through the hierarchies) hashes each
/// name once, after ``scansBeforeTable`` scans, and probes the table from then on.
private final class NameIndex: Sendable {
  private let names: [Name]
  /// How many lookups scan before the table is built: a scan costs a few instructions a name,
  /// the table some two hundred.
  static let scansBeforeTable = 32
  /// The lookups made so far, and once built the table: a position in ``names`` plus one, at the
  /// slot its name hashes to or the next free one; 0 is a free slot. Twice as many slots as names
  /// keeps probes short.
  private let table = Mutex<(lookups: Int, slots: [UInt32]?)>((0, nil))

  init(_ names: [Name]) {
    self.names = names
  }

  private static func slots(for names: [Name], in bytes: UnsafeBufferPointer<UInt8>) -> [UInt32] {
    var count = 8
    while count < 2 * names.count { count *= 2 }
    var slots = [UInt32](repeating: 0, count: count)
    for (position, name) in names.enumerated() {
      var slot = Self.hash(Self.span(name, in: bytes)) & (count - 1)
      while slots[slot] != 0 { slot = (slot + 1) & (count - 1) }
      slots[slot] = UInt32(position + 1)
    }
    return slots
  }

  /// The position of the first entry named `key` (lowercase).
  func first(named key: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var first: Int?
    forEach(named: key, in: bytes) { first = min(first ?? $0, $0) }
    return first
  }

  /// The positions of every entry named `key` (lowercase), in the list's order.
  func all(named key: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
    var positions: [Int] = []
    forEach(named: key, in: bytes) { positions.append($0) }
    return positions.count > 1 ? positions.sorted() : positions
  }

  /// Calls `body` with the position of each entry named `key`: in the list's order while scanning,
  /// in the table's once it is built.
  private func forEach(
    named key: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Void
  ) {
    let slots = table.withLock { table in
      if table.slots == nil {
        table.lookups += 1
        if table.lookups > Self.scansBeforeTable { table.slots = Self.slots(for: names, in: bytes) }
      }
      return table.slots
    }
    func isNamed(_ name: Name) -> Bool {
      Int(name.count) == key.count
        && Self.span(name, in: bytes).elementsEqual(key, by: { lowercased($0) == $1 })
    }
    guard let slots else {
      for (position, name) in names.enumerated() where isNamed(name) { body(position) }
      return
    }
    var slot = Self.hash(key) & (slots.count - 1)
    while slots[slot] != 0 {
      let position = Int(slots[slot] - 1)
      if isNamed(names[position]) { body(position) }
      slot = (slot + 1) & (slots.count - 1)
    }
  }

  private static func span(_ name: Name, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: bytes[Int(name.start)..<Int(name.start) + Int(name.count)])
  }

  /// FNV-1a of the name's bytes, capitals taken as small letters.
  private static func hash(_ name: UnsafeBufferPointer<UInt8>) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name { hash = (hash ^ UInt64(lowercased(byte))) &* 0x100_0000_01b3 }
    return Int(truncatingIfNeeded: hash ^ (hash >> 32))
  }
}

private func lowercased(_ byte: UInt8) -> UInt8 {
  (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
}

/// A name in a cache: where it starts and how many bytes it has (without its NUL).
private struct Name: Sendable {
  var start: UInt32
  var count: UInt32
}

/// Bounds-checked big-endian reads of a cache file.
private struct Reader {
  let bytes: [UInt8]

  func half(at offset: Int) -> Int? {
    guard offset >= 0, offset + 2 <= bytes.count else { return nil }
    return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
  }

  func word(at offset: Int) -> Int? {
    guard offset >= 0, offset + 4 <= bytes.count else { return nil }
    return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
  }

  /// Whether `count` entries of `size` bytes from `offset` lie inside the file.
  func holds(_ offset: Int, count: Int, of size: Int) -> Bool {
    offset >= 0 && count <= (bytes.count - min(offset, bytes.count)) / size
  }

  /// The NUL-terminated, non-empty ASCII name at `offset`.
  func name(at offset: Int) -> Name? {
    guard offset >= 0, offset < bytes.count else { return nil }
    var end = offset
    while end < bytes.count, bytes[end] != 0 {
      guard bytes[end] < 0x80 else { return nil }
      end += 1
    }
    guard end < bytes.count, end > offset else { return nil }
    return Name(start: UInt32(offset), count: UInt32(end - offset))
  }
}
