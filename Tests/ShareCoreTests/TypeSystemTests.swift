// Longer than 400 lines on purpose: one suite per question about types (UTIs, MIME, GIO), kept
// together so a change to the type system is checked in one place.

import Foundation
import Testing

@testable import ShareCore

/// This machine's shared-mime-info database (`/usr/share/mime`), read once, the way `ShareGLib`
/// feeds it to ``MIMEHierarchy``. The expectations below were written against shared-mime-info 2.2
/// (Debian 12).
enum SystemMIMEInfo {
  static let directory = "/usr/share/mime"

  static let subclassesText = read("subclasses")
  static let aliasesText = read("aliases")
  static let typesText = read("types")

  /// Whether the three files are there; the suites that need them are skipped otherwise.
  static var isInstalled: Bool { subclassesText != nil && aliasesText != nil && typesText != nil }

  static let hierarchy: MIMEHierarchy = {
    var hierarchy = MIMEHierarchy()
    hierarchy.add(subclasses: subclassesText ?? "", aliases: aliasesText ?? "")
    return hierarchy
  }()

  static let types = TypeSystem(mime: hierarchy)

  /// Every MIME type the database defines, lowercased.
  static let knownTypes: Set<String> = Set(lines(typesText).map { $0.lowercased() })

  /// Every alias of the database with its canonical type, lowercased; pairs listed both ways
  /// (each package calling the other's type its alias) are two types, as GIO takes them.
  static let aliases: [(alias: String, canonical: String)] = {
    let pairs = lines(aliasesText).compactMap { line -> (String, String)? in
      let fields = line.split(separator: " ")
      guard fields.count == 2 else { return nil }
      return (fields[0].lowercased(), fields[1].lowercased())
    }
    let both = Set(pairs.map { "\($0.0) \($0.1)" })
    return pairs.filter { !both.contains("\($0.1) \($0.0)") }
  }()

  private static func read(_ name: String) -> String? {
    try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)
  }

  private static func lines(_ text: String?) -> [String] {
    (text ?? "").split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("#") }
  }
}

/// `conforms(_:to:)` of this machine's type system. (A free function, so that a failed expectation
/// shows its arguments, not the whole type system.)
private func isA(
  _ identifier: String, _ target: String, in types: TypeSystem = SystemMIMEInfo.types
) -> Bool {
  types.conforms(identifier, to: target)
}

/// `typeIdentifiers(forMIMEType:)` of this machine's type system.
private func registered(_ mime: String, in types: TypeSystem = SystemMIMEInfo.types) -> [String] {
  types.typeIdentifiers(forMIMEType: mime)
}

/// The UTI parents of `identifier` in the table alone (no MIME types), itself included.
private func tableAncestors(of identifier: String, in table: UTITable = .standard) -> Set<String> {
  var seen: Set<String> = []
  var pending = [identifier]
  while let next = pending.popLast() {
    guard seen.insert(next).inserted else { continue }
    pending.append(contentsOf: table.entry(next)?.conformsTo ?? [])
  }
  return seen
}

// MARK: - The table on its own

@Suite("Standard UTI table")
struct StandardTableTests {
  let table = UTITable.standard

  @Test func isNotThePlaceholder() {
    #expect(table.allIdentifiers.count >= 140)
  }

  @Test func everyParentIsInTheTable() {
    for identifier in table.allIdentifiers {
      for parent in table.entry(identifier)?.conformsTo ?? [] {
        #expect(table.entry(parent) != nil, "\(identifier) conforms to \(parent), which is not in the table")
      }
    }
  }

  @Test func hierarchyHasNoCycles() {
    // Depth-first search: meeting a node that is still on the current path again is a cycle.
    var state: [String: Bool] = [:]  // false: on the current path, true: done
    func visit(_ identifier: String, path: [String]) {
      if let finished = state[identifier] {
        #expect(finished, "cycle: \((path + [identifier]).joined(separator: " -> "))")
        return
      }
      state[identifier] = false
      for parent in table.entry(identifier)?.conformsTo ?? [] {
        visit(parent, path: path + [identifier])
      }
      state[identifier] = true
    }
    for identifier in table.allIdentifiers { visit(identifier, path: []) }
  }

  @Test func identifiersAreLowercaseReverseDNS() {
    let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-")
    for identifier in table.allIdentifiers {
      #expect(identifier == identifier.lowercased(), "\(identifier)")
      #expect(identifier.allSatisfy(allowed.contains), "\(identifier) has a character outside [a-z0-9.-]")
      #expect(identifier.split(separator: ".").count >= 2, "\(identifier) is not reverse-DNS")
      #expect(!identifier.contains("/"), "\(identifier) would be taken for a MIME type")
    }
  }

  @Test func mimeTypesAreLowercaseAndWellFormed() {
    for identifier in table.allIdentifiers {
      for mime in table.entry(identifier)?.mimeTypes ?? [] {
        let parts = mime.split(separator: "/", omittingEmptySubsequences: false)
        #expect(parts.count == 2 && parts.allSatisfy { !$0.isEmpty }, "\(identifier): \(mime)")
        #expect(
          !mime.contains("*") && !mime.contains(";") && mime == mime.lowercased(), "\(identifier): \(mime)")
      }
    }
  }

  @Test func onlyFileSystemObjectsStandOutsidePublicData() {
    let notData = table.allIdentifiers.filter { identifier in
      guard let mime = table.entry(identifier)?.mimeTypes.first else { return false }
      return !tableAncestors(of: identifier).contains("public.data") && !mime.hasPrefix("inode/")
    }
    // Apple's `public.email-message` is abstract; `message/rfc822` makes it data on the MIME side.
    #expect(notData == ["public.email-message"])
  }

  @Test(
    "A MIME type shared by two entries goes to the first",
    arguments: [
      ("image/heif", "public.heic", "public.heif")
    ])
  func sharedMIMETypes(mime: String, owner: String, other: String) {
    #expect(table.identifier(forMIMEType: mime) == owner)
    #expect(table.entry(other)?.mimeTypes.contains(mime) == true)
  }

  @Test func noOtherMIMETypeIsShared() {
    var borrowed: [String] = []
    for identifier in table.allIdentifiers {
      for mime in table.entry(identifier)?.mimeTypes ?? []
      where table.identifier(forMIMEType: mime) != identifier {
        borrowed.append("\(identifier): \(mime) -> \(table.identifier(forMIMEType: mime) ?? "nil")")
      }
    }
    #expect(borrowed == ["public.heif: image/heif -> public.heic"])
  }

  @Test(
    "Apple's parents",
    arguments: [
      ("public.png", ["public.image"]),
      ("public.image", ["public.data", "public.content"]),
      ("public.plain-text", ["public.text"]),
      ("public.text", ["public.data", "public.content"]),
      ("public.source-code", ["public.plain-text"]),
      ("public.html", ["public.text"]),
      ("public.folder", ["public.directory"]),
      ("public.directory", ["public.item"]),
      ("public.movie", ["public.audiovisual-content"]),
      ("public.audiovisual-content", ["public.data", "public.content"]),
      ("public.video", ["public.movie"]),
      ("public.audio", ["public.audiovisual-content"]),
      ("public.url", ["public.data"]),
      ("public.file-url", ["public.url"]),
      ("public.vcard", ["public.text", "public.contact"]),
      ("com.adobe.pdf", ["public.data", "public.composite-content"]),
      ("com.microsoft.word.doc", ["public.data", "public.composite-content"]),
      ("public.zip-archive", ["com.pkware.zip-archive"]),
      ("com.pkware.zip-archive", ["public.data", "public.archive"]),
      ("public.heic", ["public.heif-standard"]),
      ("public.python-script", ["public.shell-script"]),
      ("com.netscape.javascript-source", ["public.script", "public.executable"]),
      ("public.mpeg-4-audio", ["public.audio"]),
    ])
  func parents(identifier: String, parents: [String]) {
    #expect(table.entry(identifier)?.conformsTo == parents)
  }
}

// MARK: - The table against this machine's shared-mime-info

@Suite("Type system on this machine's shared-mime-info", .enabled(if: SystemMIMEInfo.isInstalled))
struct SystemTypeSystemTests {
  let table = UTITable.standard

  // MARK: Table integrity

  /// MIME types that shared-mime-info 2.2 does not know, kept for other versions and for callers
  /// that pass MIME types of their own.
  static let allowedUnknownMIMETypes: Set<String> = [
    "text/x-swift",  // 2.2 has no Swift type; the conventional x- name
    "application/x-msdownload",  // the MIME type macOS declares for .exe
    "application/yaml",  // IANA's registration (RFC 9512)
    "application/x-bzip2-compressed-tar",  // the bzip2 spelling of application/x-bzip-compressed-tar
  ]

  @Test func everyMIMETypeIsKnownHereOrAllowed() {
    let aliasNames = Set(SystemMIMEInfo.aliases.map(\.alias))
    for identifier in table.allIdentifiers {
      for mime in table.entry(identifier)?.mimeTypes ?? [] {
        let known = SystemMIMEInfo.knownTypes.contains(mime) || aliasNames.contains(mime)
        #expect(
          known || Self.allowedUnknownMIMETypes.contains(mime), "\(identifier): \(mime) is unknown here")
      }
    }
  }

  /// ``TypeSystem`` treats an entry's first MIME type as the identifier itself, without resolving
  /// aliases; an alias there would cut the link (see `knownIssueAliasAsFirstMIMEType`).
  @Test func firstMIMETypesAreCanonical() {
    for identifier in table.allIdentifiers {
      guard let first = table.entry(identifier)?.mimeTypes.first else { continue }
      #expect(SystemMIMEInfo.hierarchy.canonical(first) == first, "\(identifier): \(first) is an alias")
      #expect(
        SystemMIMEInfo.knownTypes.contains(first) || Self.allowedUnknownMIMETypes.contains(first),
        "\(identifier): \(first)")
    }
  }

  @Test func everyMIMETypeOfAnEntryLeadsBackToIt() {
    // Both HEIF names are `image/heif` here, which public.heic owns.
    let exceptions = ["public.heif": "public.heic"]
    for identifier in table.allIdentifiers {
      for mime in table.entry(identifier)?.mimeTypes ?? [] {
        #expect(
          registered(mime).first == exceptions[identifier] ?? identifier,
          "\(mime) of \(identifier)")
      }
    }
  }

  /// Where an Apple parent has a MIME type, the child's MIME type should descend from it in
  /// shared-mime-info too. These are the places where it does not: Apple's tree is finer there.
  /// A new entry that adds to this list deserves a second look.
  @Test func appleParentsThatSharedMIMEInfoLacks() {
    var missing: [String] = []
    for identifier in table.allIdentifiers {
      guard let mime = table.entry(identifier)?.mimeTypes.first else { continue }
      var pending = table.entry(identifier)?.conformsTo ?? []
      var seen: Set<String> = []
      while let parent = pending.popLast() {
        guard seen.insert(parent).inserted, let entry = table.entry(parent) else { continue }
        if let parentMIME = entry.mimeTypes.first {
          if !SystemMIMEInfo.hierarchy.ancestors(of: mime).contains(parentMIME) {
            missing.append("\(identifier) -> \(parent)")
          }
        } else {
          pending.append(contentsOf: entry.conformsTo)
        }
      }
    }
    #expect(
      missing.sorted() == [
        "public.aiff-audio -> public.aifc-audio",
        "public.perl-script -> public.shell-script",
        "public.php-script -> public.shell-script",
        "public.python-script -> public.shell-script",
        "public.ruby-script -> public.shell-script",
      ])
  }

  // MARK: MIME type -> registered identifiers

  @Test(
    "typeIdentifiers(forMIMEType:)",
    arguments: [
      // Images
      ("image/png", "public.png", "image/png"),
      ("image/jpeg", "public.jpeg", "image/jpeg"),
      ("image/gif", "com.compuserve.gif", "image/gif"),
      ("image/bmp", "com.microsoft.bmp", "image/bmp"),
      ("image/x-MS-bmp", "com.microsoft.bmp", "image/bmp"),
      ("image/tiff", "public.tiff", "image/tiff"),
      ("image/heif", "public.heic", "image/heif"),
      ("image/heic", "public.heic", "image/heif"),
      ("image/webp", "org.webmproject.webp", "image/webp"),
      ("image/svg+xml", "public.svg-image", "image/svg+xml"),
      ("image/vnd.microsoft.icon", "com.microsoft.ico", "image/vnd.microsoft.icon"),
      ("image/x-canon-cr2", "public.camera-raw-image", "image/x-canon-cr2"),
      ("image/x-adobe-dng", "public.camera-raw-image", "image/x-adobe-dng"),
      ("image/vnd.adobe.photoshop", "com.adobe.photoshop-image", "image/vnd.adobe.photoshop"),
      // Video and audio
      ("video/mp4", "public.mpeg-4", "video/mp4"),
      ("video/x-m4v", "public.mpeg-4", "video/mp4"),
      ("video/quicktime", "com.apple.quicktime-movie", "video/quicktime"),
      ("video/x-msvideo", "public.avi", "video/x-msvideo"),
      ("video/mpeg", "public.mpeg", "video/mpeg"),
      ("video/webm", "org.webmproject.webm", "video/webm"),
      ("video/x-matroska", "org.matroska.mkv", "video/x-matroska"),
      ("video/3gpp", "public.3gpp", "video/3gpp"),
      ("audio/mpeg", "public.mp3", "audio/mpeg"),
      ("audio/mp4", "public.mpeg-4-audio", "audio/mp4"),
      ("audio/x-m4a", "public.mpeg-4-audio", "audio/mp4"),
      ("audio/x-wav", "com.microsoft.waveform-audio", "audio/x-wav"),
      ("audio/wav", "com.microsoft.waveform-audio", "audio/x-wav"),
      ("audio/flac", "org.xiph.flac", "audio/flac"),
      ("audio/ogg", "org.xiph.ogg-audio", "audio/ogg"),
      ("audio/x-vorbis+ogg", "org.xiph.ogg-audio", "audio/x-vorbis+ogg"),
      ("audio/x-aiff", "public.aiff-audio", "audio/x-aiff"),
      // Text and code
      ("text/plain", "public.plain-text", "text/plain"),
      ("text/html", "public.html", "text/html"),
      ("text/css", "public.css", "text/css"),
      ("text/csv", "public.comma-separated-values-text", "text/csv"),
      ("text/markdown", "net.daringfireball.markdown", "text/markdown"),
      ("text/x-markdown", "net.daringfireball.markdown", "text/markdown"),
      ("text/x-python", "public.python-script", "text/x-python"),
      ("text/x-python3", "public.python-script", "text/x-python3"),
      ("text/x-csrc", "public.c-source", "text/x-csrc"),
      ("text/x-c++hdr", "public.c-plus-plus-header", "text/x-c++hdr"),
      ("text/x-java", "com.sun.java-source", "text/x-java"),
      ("application/x-shellscript", "public.shell-script", "application/x-shellscript"),
      ("text/javascript", "com.netscape.javascript-source", "application/javascript"),
      ("application/json", "public.json", "application/json"),
      ("text/xml", "public.xml", "application/xml"),
      ("application/x-yaml", "public.yaml", "application/x-yaml"),
      ("text/x-log", "com.apple.log", "text/x-log"),
      ("text/x-vcard", "public.vcard", "text/vcard"),
      ("text/calendar", "com.apple.ical.ics", "text/calendar"),
      ("message/rfc822", "public.email-message", "message/rfc822"),
      // Documents
      ("application/pdf", "com.adobe.pdf", "application/pdf"),
      (
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "org.openxmlformats.wordprocessingml.document",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
      ),
      (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "org.openxmlformats.spreadsheetml.sheet",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
      ),
      (
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "org.openxmlformats.presentationml.presentation",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation"
      ),
      // A subclass of docx: resolves to its nearest ancestor in the table.
      (
        "application/vnd.ms-word.document.macroEnabled.12", "org.openxmlformats.wordprocessingml.document",
        "application/vnd.ms-word.document.macroenabled.12"
      ),
      ("application/msword", "com.microsoft.word.doc", "application/msword"),
      ("application/vnd.ms-excel", "com.microsoft.excel.xls", "application/vnd.ms-excel"),
      ("application/vnd.ms-powerpoint", "com.microsoft.powerpoint.ppt", "application/vnd.ms-powerpoint"),
      (
        "application/vnd.oasis.opendocument.text", "org.oasis-open.opendocument.text",
        "application/vnd.oasis.opendocument.text"
      ),
      (
        "application/vnd.oasis.opendocument.spreadsheet", "org.oasis-open.opendocument.spreadsheet",
        "application/vnd.oasis.opendocument.spreadsheet"
      ),
      ("application/epub+zip", "org.idpf.epub-container", "application/epub+zip"),
      // Archives
      ("application/zip", "public.zip-archive", "application/zip"),
      ("application/x-zip-compressed", "public.zip-archive", "application/zip"),
      ("application/gzip", "org.gnu.gnu-zip-archive", "application/gzip"),
      ("application/x-gzip", "org.gnu.gnu-zip-archive", "application/gzip"),
      ("application/x-compressed-tar", "org.gnu.gnu-zip-tar-archive", "application/x-compressed-tar"),
      ("application/x-tar", "public.tar-archive", "application/x-tar"),
      ("application/x-bzip2", "public.bzip2-archive", "application/x-bzip"),
      ("application/x-xz", "org.tukaani.xz-archive", "application/x-xz"),
      ("application/x-7z-compressed", "org.7-zip.7-zip-archive", "application/x-7z-compressed"),
      ("application/x-rar-compressed", "com.rarlab.rar-archive", "application/vnd.rar"),
      // Fonts, executables
      ("font/ttf", "public.truetype-ttf-font", "font/ttf"),
      ("application/x-executable", "public.unix-executable", "application/x-executable"),
      // File system objects
      ("inode/directory", "public.folder", "inode/directory"),
      ("inode/mount-point", "public.volume", "inode/mount-point"),
      ("inode/symlink", "public.symlink", "inode/symlink"),
      ("inode/fifo", "public.named-pipe", "inode/fifo"),
      // Unknown to the table
      ("application/octet-stream", "public.data", "application/octet-stream"),
      ("application/x-unknown-thing", "public.data", "application/x-unknown-thing"),
      ("text/x-unknown-thing", "public.plain-text", "text/x-unknown-thing"),
    ])
  func registeredIdentifiers(mime: String, uti: String, canonical: String) {
    #expect(registered(mime) == [uti, canonical])
  }

  /// Every type this machine defines is registered under a UTI of the table that it conforms to,
  /// and is an item; everything but `inode/*` is also data.
  @Test func everyTypeOfThisMachineConformsToItsIdentifier() {
    let all = SystemMIMEInfo.knownTypes
    #expect(all.count > 500)
    for mime in all {
      let ids = registered(mime)
      // A type one package defines may be another's alias (gcr's application/x-x509-ca-cert), as
      // GIO also takes it: it is registered under the type it stands for.
      #expect(ids.count == 2 && ids[1] == SystemMIMEInfo.hierarchy.canonical(mime), "\(mime): \(ids)")
      #expect(table.entry(ids[0]) != nil, "\(mime): \(ids[0]) is not in the table")
      #expect(isA(mime, ids[0]), "\(mime) does not conform to its own \(ids[0])")
      #expect(isA(mime, "public.item"), "\(mime)")
      #expect(isA(mime, "public.data") == !mime.hasPrefix("inode/"), "\(mime)")
    }
  }

  // MARK: Conformance

  @Test(
    "conforms",
    arguments: [
      // The Apple chain, from a UTI and from its MIME type.
      ("public.png", "public.image"),
      ("public.png", "public.data"),
      ("public.png", "public.content"),
      ("public.png", "public.item"),
      ("public.png", "image/png"),
      ("image/png", "public.png"),
      ("image/png", "public.image"),
      ("image/png", "public.item"),
      ("image/png", "image/*"),
      ("image/png", "application/octet-stream"),
      ("public.image", "public.item"),
      // Subclasses of text/plain are plain text, under both names.
      ("text/x-python", "text/plain"),
      ("text/x-python", "public.plain-text"),
      ("text/x-python", "public.text"),
      ("text/x-python", "public.python-script"),
      ("text/x-python", "public.source-code"),
      ("text/x-python", "text/*"),
      ("text/x-python3", "text/x-python"),
      ("public.python-script", "text/plain"),
      ("text/x-unknown-thing", "public.plain-text"),
      ("public.comma-separated-values-text", "public.delimited-values-text"),
      ("text/csv", "public.plain-text"),
      ("text/calendar", "public.calendar-event"),
      ("com.apple.ical.ics", "public.text"),
      ("text/x-log", "public.log"),
      // Documents
      ("application/vnd.oasis.opendocument.text", "public.composite-content"),
      ("application/vnd.oasis.opendocument.text", "public.content"),
      ("application/vnd.oasis.opendocument.text", "public.data"),
      ("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "public.composite-content"),
      (
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "org.openxmlformats.openxml"
      ),
      ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "public.spreadsheet"),
      ("application/vnd.ms-powerpoint", "public.presentation"),
      ("application/vnd.ms-powerpoint", "public.composite-content"),
      ("application/pdf", "com.adobe.pdf"),
      ("com.adobe.pdf", "application/pdf"),
      ("com.adobe.pdf", "public.composite-content"),
      // Folders
      ("inode/directory", "public.folder"),
      ("inode/directory", "public.directory"),
      ("inode/directory", "public.item"),
      ("inode/directory", "inode/*"),
      ("public.folder", "inode/directory"),
      ("inode/mount-point", "public.folder"),
      ("inode/mount-point", "inode/directory"),
      // Links
      ("public.url", "public.data"),
      ("public.url", "public.item"),
      ("public.file-url", "public.url"),
      // Unknown types are data.
      ("application/x-unknown-thing", "public.data"),
      ("application/x-unknown-thing", "public.item"),
      ("application/x-unknown-thing", "application/octet-stream"),
      // Aliases resolve in either position.
      ("text/x-vcard", "text/vcard"),
      ("text/vcard", "text/x-vcard"),
      ("text/x-vcard", "public.vcard"),
      ("text/x-vcard", "public.contact"),
      ("image/x-MS-bmp", "image/bmp"),
      ("image/x-ms-bmp", "com.microsoft.bmp"),
      ("audio/x-m4a", "public.mpeg-4-audio"),
      ("application/x-gzip", "public.archive"),
      // Media
      ("video/mp4", "public.movie"),
      ("video/mp4", "public.audiovisual-content"),
      ("video/3gpp", "public.mpeg-4"),
      ("public.video", "public.movie"),
      ("audio/mp4", "public.audio"),
      ("audio/x-opus+ogg", "public.audio"),
      ("image/x-canon-cr2", "public.camera-raw-image"),
      ("image/heif", "public.heic"),
      ("image/heic", "public.heic"),
      ("public.heic", "image/heif"),
      ("public.heif", "public.heic"),
      ("image/svg+xml", "public.xml"),
      ("image/svg+xml", "application/xml"),
      ("image/svg+xml", "application/*"),
      // Archives
      ("application/x-compressed-tar", "org.gnu.gnu-zip-archive"),
      ("application/x-compressed-tar", "public.archive"),
      ("application/x-compressed-tar", "application/gzip"),
      ("public.zip-archive", "public.archive"),
      ("application/x-java-archive", "public.zip-archive"),
      // Case does not matter.
      ("PUBLIC.PNG", "Public.Image"),
      ("IMAGE/PNG", "image/png"),
    ])
  func conforms(identifier: String, target: String) {
    #expect(isA(identifier, target))
  }

  @Test(
    "does not conform",
    arguments: [
      ("inode/directory", "public.data"),
      ("inode/directory", "application/octet-stream"),
      ("inode/directory", "public.content"),
      ("public.folder", "public.data"),
      ("public.png", "public.movie"),
      ("public.png", "public.text"),
      ("public.png", "image/jpeg"),
      ("image/png", "public.jpeg"),
      ("image/png", "text/plain"),
      ("image/png", "*/*"),  // like GIO: `*/*` is no supertype
      ("text/plain", "public.image"),
      ("text/plain", "public.source-code"),
      ("audio/mp4", "public.movie"),
      ("public.mpeg-4-audio", "public.movie"),
      ("application/pdf", "public.text"),
      ("application/pdf", "public.image"),
      ("com.adobe.pdf", "public.archive"),
      ("public.url", "public.text"),
      ("public.url", "public.file-url"),
      ("text/x-python", "public.ruby-script"),
      ("application/x-unknown-thing", "public.content"),
      ("application/x-unknown-thing", "public.folder"),
      ("public.item", "public.data"),
      ("public.data", "public.png"),
      ("application/vnd.ms-excel", "public.presentation"),
      ("public.aiff-audio", "public.movie"),
      // One UTI per MIME type: `.heif` files are `public.heic` here, and a `public.heif` rule
      // matches only through the MIME type.
      ("image/heif", "public.heif"),
    ])
  func doesNotConform(identifier: String, target: String) {
    #expect(!isA(identifier, target))
  }

  /// Conformances that come from shared-mime-info, not from Apple, because the type system joins
  /// both trees. They match GIO's `g_content_type_is_a`; they are listed so that nobody is surprised.
  @Test(
    "conformances shared-mime-info adds",
    arguments: [
      // OOXML, ODF and EPUB files are subclasses of application/zip.
      ("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "public.zip-archive"),
      ("application/vnd.oasis.opendocument.text", "public.archive"),
      ("org.idpf.epub-container", "public.zip-archive"),
      // JSON is a subclass of JavaScript, which is an executable script.
      ("application/json", "com.netscape.javascript-source"),
      ("application/json", "public.executable"),
      // Scripts are subclasses of application/x-executable.
      ("text/x-python", "public.unix-executable"),
      ("application/x-shellscript", "public.unix-executable"),
      // Raw camera images are subclasses of image/tiff.
      ("image/x-canon-cr2", "public.tiff"),
      // Compressed SVG is a subclass of application/gzip.
      ("image/svg+xml-compressed", "public.archive"),
      // HTML, XML, vCards, calendars, mail and C++ headers are plain text and their parents' kinds.
      ("text/html", "public.plain-text"),
      ("application/xml", "public.plain-text"),
      ("text/calendar", "public.plain-text"),
      ("message/rfc822", "public.plain-text"),
      ("text/x-c++hdr", "public.c-header"),
      ("font/otf", "public.truetype-ttf-font"),
    ])
  func sharedMIMEInfoConformance(identifier: String, target: String) {
    #expect(isA(identifier, target))
    let uti = TypeSystem.isMIMEType(identifier) ? registered(identifier)[0] : identifier
    #expect(!tableAncestors(of: uti).contains(target), "Apple's tree already has \(uti) -> \(target)")
  }

  // MARK: Aliases

  /// Two packages each naming the other's type as an alias of theirs: GIO keeps both as types.
  @Test func aliasesListedBothWaysAreTwoTypes() {
    var mime = MIMEHierarchy()
    mime.add(
      subclasses: "",
      aliases: "application/pkcs12 application/x-pkcs12\napplication/x-pkcs12 application/pkcs12\n")
    #expect(mime.canonical("application/pkcs12") == "application/pkcs12")
    #expect(mime.canonical("application/x-pkcs12") == "application/x-pkcs12")
    #expect(
      mime.aliases(of: "application/pkcs12").isEmpty && mime.aliases(of: "application/x-pkcs12").isEmpty)
    // A later (less important) directory listing one of the two ways does not bring the alias back.
    mime.add(subclasses: "", aliases: "application/pkcs12 application/x-pkcs12\n")
    #expect(mime.canonical("application/pkcs12") == "application/pkcs12")
    let types = TypeSystem(mime: mime)
    #expect(
      types.typeIdentifiers(forMIMEType: "application/x-pkcs12") == [
        "com.rsa.pkcs-12", "application/x-pkcs12",
      ])
  }

  @Test func filesAreReadLineByLineWithCommentsSpacesAndCaseAsSharedMIMEInfoWritesThem() {
    var mime = MIMEHierarchy()
    mime.add(
      subclasses:
        "# a comment line\r\nImage/X-Own  image/PNG\n\n  text/x-own text/plain\ntoo many fields here\nalone\n",
      aliases: "image/x-Old image/x-own\r\n#image/x-commented image/png\nimage/x-é image/x-own")
    #expect(mime.declaredParents(of: "image/x-own") == ["image/png"])
    #expect(mime.declaredParents(of: "text/x-own") == ["text/plain"])
    #expect(mime.declaredParents(of: "too") == [] && mime.declaredParents(of: "alone") == [])
    #expect(mime.canonical("IMAGE/X-OLD") == "image/x-own")
    #expect(mime.canonical("image/x-commented") == "image/x-commented")
    // Not ASCII: lowercased by Unicode's rules, like the rest of the standard library.
    #expect(mime.canonical("image/x-É") == "image/x-own")
    #expect(mime.aliases(of: "image/x-own") == ["image/x-old", "image/x-é"])
  }

  @Test func everyAliasOfThisMachineResolvesToItsCanonicalType() {
    #expect(SystemMIMEInfo.aliases.count > 200)
    for (alias, canonical) in SystemMIMEInfo.aliases {
      #expect(SystemMIMEInfo.hierarchy.canonical(alias) == canonical, "\(alias)")
      #expect(
        registered(alias) == registered(canonical), "\(alias)")
      #expect(isA(alias, canonical), "\(alias) -> \(canonical)")
      #expect(isA(canonical, alias), "\(canonical) -> \(alias)")
    }
  }

  // MARK: Selections

  /// The kinds that the dictionary rules count (`...ImageWithMaxCount`, `...MovieWithMaxCount`).
  @Test func activationKindsFollowTheTable() {
    let files: [(name: String, mime: String, kind: ActivationSelection.Kind)] = [
      ("photo.heic", "image/heif", .image),
      ("raw.cr2", "image/x-canon-cr2", .image),
      ("drawing.svgz", "image/svg+xml-compressed", .image),
      ("clip.mkv", "video/x-matroska", .movie),
      ("clip.3gp", "video/3gpp", .movie),
      ("song.m4a", "audio/mp4", .otherFile),
      // audio/webm is a subclass of video/webm in shared-mime-info, so this sound counts as a movie.
      ("voice.weba", "audio/webm", .movie),
      ("notes.md", "text/markdown", .otherFile),
      ("report.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", .otherFile),
    ]
    let attachments = files.map { file in
      ShareCore.Attachment(
        item: .file(FilePath("/tmp/" + file.name)), typeIdentifiers: registered(file.mime),
        file: FileFacts(contentType: file.mime, size: 1, isDirectory: false))
    }
    let selection = ActivationSelection(attachments: attachments, types: SystemMIMEInfo.types)
    #expect(selection.typeClasses.map(\.kind) == files.map(\.kind))
    #expect(registered("audio/webm") == ["org.webmproject.webm", "audio/webm"])
  }
}

// MARK: - Agreement with GIO where the two hierarchies meet

@Suite("Agreement with GIO", .enabled(if: SystemMIMEInfo.isInstalled))
struct TypeSystemGIOAgreementTests {
  /// The implicit `application/octet-stream` parent ends the walk, as in GIO:
  /// `g_content_type_is_a("image/png", "application/*")` is false, while `image/svg+xml` is an
  /// `application/*` through its declared parent `application/xml`.
  @Test(arguments: ["image/png", "text/plain", "public.png", "video/mp4"])
  func implicitParentGivesNoApplicationWildcard(identifier: String) {
    #expect(!isA(identifier, "application/*"))
    #expect(isA(identifier, "application/octet-stream"))
  }

  @Test func declaredParentGivesItsWildcard() {
    #expect(isA("image/svg+xml", "application/*"))
  }

  /// Declared ancestors come before the implicit ones: a macro-enabled Word template is an OOXML
  /// template, which is an `application/zip`.
  @Test func declaredGrandparentsOutrankImplicitParents() {
    let mime = "application/vnd.ms-word.template.macroEnabled.12"
    #expect(
      SystemMIMEInfo.hierarchy.ancestors(of: mime) == [
        "application/vnd.ms-word.template.macroenabled.12",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.template",
        "application/zip",
        "application/octet-stream",
      ])
    #expect(registered(mime).first == "public.zip-archive")
  }

  /// An entry whose first MIME type is an alias on this system still links to the canonical type.
  @Test func aliasAsFirstMIMETypeIsCanonicalised() {
    let table = UTITable(entries: [
      .init("public.item", conformsTo: []),
      .init("public.data", conformsTo: ["public.item"], mimeTypes: ["application/octet-stream"]),
      .init("public.image", conformsTo: ["public.data"]),
      .init("com.microsoft.ico", conformsTo: ["public.image"], mimeTypes: ["image/x-icon"]),
    ])
    let types = TypeSystem(table: table, mime: SystemMIMEInfo.hierarchy)
    #expect(SystemMIMEInfo.hierarchy.canonical("image/x-icon") == "image/vnd.microsoft.icon")
    #expect(types.conforms("com.microsoft.ico", to: "image/vnd.microsoft.icon"))
  }

  /// An unknown `inode/*` type falls back to `public.item`, which it conforms to; an unknown
  /// `video/*` type still counts as a movie.
  @Test func fallbacksConformToTheirType() {
    let table = UTITable(entries: [
      .init("public.item", conformsTo: []),
      .init("public.data", conformsTo: ["public.item"], mimeTypes: ["application/octet-stream"]),
    ])
    let types = TypeSystem(table: table, mime: SystemMIMEInfo.hierarchy)
    let uti = types.typeIdentifiers(forMIMEType: "inode/fifo")[0]
    #expect(uti == "public.item")
    #expect(types.conforms("inode/fifo", to: uti))
    #expect(SystemMIMEInfo.types.typeIdentifiers(forMIMEType: "video/x-flv")[0] == "public.movie")
  }
}
