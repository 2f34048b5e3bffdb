import Foundation
import Testing

@testable import ShareCore

/// A `mime.cache` as `update-mime-database` lays it out (header, names, alias list, parent list),
/// with only the two lists this reader uses filled in.
private func cacheFile(
  aliases: [(String, String)], parents: [(String, [String])], major: UInt16 = 1, minor: UInt16 = 2
) -> [UInt8] {
  var names: [UInt8] = []
  var offsets: [String: Int] = [:]
  let headerSize = 40
  func offset(of name: String) -> Int {
    if let known = offsets[name] { return known }
    let offset = headerSize + names.count
    names += Array(name.utf8) + [0]
    offsets[name] = offset
    return offset
  }
  let aliasWords = aliases.flatMap { [offset(of: $0.0), offset(of: $0.1)] }
  let parentNames = parents.map { ($0.0, $0.1.map(offset(of:))) }.map { (offset(of: $0.0), $0.1) }
  while names.count % 4 != 0 { names.append(0) }
  let aliasListOffset = headerSize + names.count
  let parentListOffset = aliasListOffset + 4 + 8 * aliases.count
  var parentsOffset = parentListOffset + 4 + 8 * parents.count
  var parentListWords = [parents.count]
  var parentsWords: [Int] = []
  for (type, list) in parentNames {
    parentListWords += [type, parentsOffset]
    parentsWords += [list.count] + list
    parentsOffset += 4 + 4 * list.count
  }
  func bigEndian(_ value: Int, bytes: Int) -> [UInt8] {
    (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }
  var file = bigEndian(Int(major), bytes: 2) + bigEndian(Int(minor), bytes: 2)
  file += [aliasListOffset, parentListOffset].flatMap { bigEndian($0, bytes: 4) }
  file += [UInt8](repeating: 0, count: headerSize - file.count)
  file += names
  file += ([aliases.count] + aliasWords + parentListWords + parentsWords).flatMap { bigEndian($0, bytes: 4) }
  return file
}

/// Whether the hierarchy refuses `file` as a cache.
private func isRefused(_ file: [UInt8]) -> Bool {
  var mime = MIMEHierarchy()
  return !mime.add(cache: file)
}

extension MIMEHierarchy {
  fileprivate mutating func addCache(_ file: [UInt8], sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    let added = add(cache: file)
    try #require(added, "the cache was refused", sourceLocation: sourceLocation)
  }
}

private let sample = cacheFile(
  aliases: [("image/x-MS-bmp", "image/bmp"), ("image/jpg", "image/jpeg"), ("image/pjpeg", "image/jpeg")],
  parents: [
    ("application/vnd.ms-word.document.macroEnabled.12", ["application/zip", "application/x-own"]),
    ("image/svg+xml", ["application/xml"]),
  ])

@Suite("shared-mime-info's compiled cache")
struct MIMECacheTests {
  @Test func aliasesAndParentsAreFoundIgnoringCaseAndGivenLowercased() throws {
    var mime = MIMEHierarchy()
    try mime.addCache(sample)
    #expect(mime.canonical("IMAGE/JPG") == "image/jpeg")
    #expect(mime.canonical("image/x-ms-bmp") == "image/bmp")
    #expect(mime.canonical("image/unknown") == "image/unknown")
    #expect(mime.aliases(of: "image/jpeg") == ["image/jpg", "image/pjpeg"])
    #expect(mime.aliases(of: "image/bmp") == ["image/x-ms-bmp"])
    #expect(
      mime.declaredParents(of: "application/vnd.ms-word.document.macroenabled.12") == [
        "application/zip", "application/x-own",
      ])
    #expect(mime.declaredParents(of: "image/svg+xml") == ["application/xml"])
    #expect(mime.declaredParents(of: "image/png") == [])
  }

  /// The first lookups scan the lists; later ones probe a table built then: both answer alike,
  /// duplicates and case included.
  @Test func scansAndTheTableAnswerAlike() throws {
    let file = cacheFile(
      aliases: [("x/B", "x/two"), ("x/a", "x/one"), ("x/b", "x/other"), ("x/c", "x/one")],
      parents: [("y/B", ["y/two"]), ("y/a", ["y/one"]), ("y/b", ["y/three"])])
    var mime = MIMEHierarchy()
    try mime.addCache(file)
    for round in 0..<(2 * MIMECache.scansBeforeTable) {
      #expect(mime.canonical("x/b") == "x/two", "round \(round)")
      #expect(mime.aliases(of: "x/one") == ["x/a", "x/c"], "round \(round)")
      #expect(mime.declaredParents(of: "y/b") == ["y/two", "y/three"], "round \(round)")
      #expect(mime.canonical("x/none") == "x/none", "round \(round)")
    }
  }

  /// `strcmp` puts capitals before small letters: `a/B` before `a/a`. Ignoring case, they sort
  /// the other way round, and the lists are sorted again.
  @Test func listsInCaseSensitiveOrderAreStillSearchedIgnoringCase() throws {
    let file = cacheFile(
      aliases: [("x/B", "x/two"), ("x/a", "x/one"), ("x/c", "x/three")],
      parents: [("y/B", ["y/two"]), ("y/a", ["y/one"])])
    var mime = MIMEHierarchy()
    try mime.addCache(file)
    #expect(
      mime.canonical("x/a") == "x/one" && mime.canonical("x/b") == "x/two"
        && mime.canonical("x/c") == "x/three")
    #expect(mime.declaredParents(of: "y/a") == ["y/one"] && mime.declaredParents(of: "y/b") == ["y/two"])
  }

  /// Directories are layers, the first the most important, whichever form each is read in.
  @Test func aCacheAndTextFilesAreLayeredInOrderOfPrecedence() throws {
    var mime = MIMEHierarchy()
    mime.add(subclasses: "image/svg+xml text/x-own\n", aliases: "image/jpg image/x-own-jpeg\n")
    try mime.addCache(sample)
    #expect(mime.canonical("image/jpg") == "image/x-own-jpeg")
    #expect(mime.canonical("image/pjpeg") == "image/jpeg")
    #expect(mime.aliases(of: "image/jpeg") == ["image/pjpeg"])
    #expect(mime.aliases(of: "image/x-own-jpeg") == ["image/jpg"])
    #expect(mime.declaredParents(of: "image/svg+xml") == ["text/x-own", "application/xml"])
  }

  /// shared-mime-info's `application/pkcs12` and gcr's `application/x-pkcs12`, one in a cache and
  /// the other in a text file: both stay types.
  @Test func aliasesListedBothWaysAcrossDirectoriesAreTwoTypes() throws {
    var mime = MIMEHierarchy()
    try mime.addCache(cacheFile(aliases: [("application/x-pkcs12", "application/pkcs12")], parents: []))
    mime.add(subclasses: "", aliases: "application/pkcs12 application/x-pkcs12\n")
    #expect(mime.canonical("application/pkcs12") == "application/pkcs12")
    #expect(mime.canonical("application/x-pkcs12") == "application/x-pkcs12")
    #expect(
      mime.aliases(of: "application/pkcs12").isEmpty && mime.aliases(of: "application/x-pkcs12").isEmpty)
  }

  /// A directory is read as GIO reads it: its cache when valid, else its two text files.
  @Test func aDirectoryIsItsCacheWhenValidElseItsTextFiles() {
    let text = [
      "subclasses": Array("image/x-own image/png\n".utf8), "aliases": Array("image/jpg image/x-old\n".utf8),
    ]
    var cached = MIMEHierarchy()
    cached.addDirectory { name, _ in name == "mime.cache" ? sample : text[name] }
    #expect(cached.canonical("image/jpg") == "image/jpeg" && cached.declaredParents(of: "image/x-own") == [])
    var fallen = MIMEHierarchy()
    fallen.addDirectory { name, _ in name == "mime.cache" ? Array(sample.prefix(50)) : text[name] }
    #expect(
      fallen.canonical("image/jpg") == "image/x-old"
        && fallen.declaredParents(of: "image/x-own") == ["image/png"])
    var none = MIMEHierarchy()
    none.addDirectory { _, _ in nil }
    #expect(none.canonical("image/jpg") == "image/jpg")
  }

  /// The first part of a cache is read, and the whole of it only when its lists reach past that
  /// part; either way the answers are the whole file's.
  @Test func aCacheIsReadAsFarAsItsListsReach() {
    let long = "application/x-" + String(repeating: "a", count: MIMECache.usualExtent)
    let large = cacheFile(aliases: [("image/jpg", "image/jpeg"), (long, "image/png")], parents: [])
    for (file, expectedReads) in [
      (sample, [MIMECache.usualExtent]), (large, [MIMECache.usualExtent, Int.max]),
    ] {
      var limits: [Int] = []
      var mime = MIMEHierarchy()
      mime.addDirectory { name, limit in
        guard name == "mime.cache" else { return nil }
        limits.append(limit)
        return Array(file.prefix(limit))
      }
      #expect(limits == expectedReads)
      #expect(mime.canonical("image/jpg") == "image/jpeg")
    }
    var mime = MIMEHierarchy()
    mime.addDirectory { name, limit in name == "mime.cache" ? Array(large.prefix(limit)) : nil }
    #expect(mime.canonical(long) == "image/png")
  }

  @Test func aFileThatIsNoCacheThisReaderKnowsIsRefused() {
    #expect(isRefused([]))
    #expect(isRefused(Array("image/jpg image/jpeg\n".utf8)))
    #expect(isRefused(cacheFile(aliases: [], parents: [], major: 2)))
    #expect(isRefused(cacheFile(aliases: [], parents: [], minor: 3)))
    #expect(isRefused(cacheFile(aliases: [("image/jpg", "image/jpeg")], parents: [], minor: 0)))
    // Names that are not ASCII are left to the text files, which lowercase them as Unicode.
    #expect(isRefused(cacheFile(aliases: [("image/x-é", "image/x-own")], parents: [])))
    #expect(isRefused(cacheFile(aliases: [("", "image/x-own")], parents: [])))
  }

  /// Every prefix of a cache is refused, and every word of it set to offsets past its end is
  /// refused or read without reading outside it (Swift's bounds checks would end the test).
  @Test func truncatedOrCorruptCachesAreRefusedWithoutReadingPastTheirEnd() {
    for length in 0..<sample.count {
      #expect(isRefused(Array(sample[..<length])), "prefix of \(length) bytes")
    }
    for word in stride(from: 4, to: sample.count - 3, by: 4) {
      for value: [UInt8] in [[0xFF, 0xFF, 0xFF, 0xF0], [0, 0, 0, 1], [0x7F, 0xFF, 0xFF, 0xFF]] {
        var corrupt = sample
        corrupt.replaceSubrange(word..<word + 4, with: value)
        var mime = MIMEHierarchy()
        if mime.add(cache: corrupt) {
          _ = mime.declaredParents(of: "image/svg+xml")
          _ = mime.aliases(of: mime.canonical("image/jpg"))
        }
      }
    }
  }
}

@Suite(
  "This machine's compiled cache", .enabled(if: SystemMIMEInfo.isInstalled && SystemMIMECache.file != nil))
struct SystemMIMECacheTests {
  /// The cache and the text files are written from the same sources: every answer agrees, for
  /// every type and alias the database names and every parent it lists.
  @Test func theCacheAndTheTextFilesGiveTheSameAnswers() throws {
    var cached = MIMEHierarchy()
    try cached.addCache(try #require(SystemMIMECache.file))
    let text = SystemMIMEInfo.hierarchy
    var names = SystemMIMEInfo.knownTypes
    for (alias, canonical) in SystemMIMEInfo.aliases { names.formUnion([alias, canonical]) }
    for type in Array(names) { names.formUnion(text.declaredParents(of: type)) }
    #expect(names.count > 1_000)
    for name in names.sorted() {
      #expect(cached.canonical(name) == text.canonical(name), "\(name)")
      #expect(cached.declaredParents(of: name) == text.declaredParents(of: name), "\(name)")
      #expect(cached.aliases(of: name) == text.aliases(of: name), "\(name)")
      #expect(cached.ancestors(of: name) == text.ancestors(of: name), "\(name)")
    }
  }
}

enum SystemMIMECache {
  static let file: [UInt8]? = FileManager.default.contents(atPath: SystemMIMEInfo.directory + "/mime.cache")
    .map {
      [UInt8]($0)
    }
}
