// Over 400 lines: the reader's three formats are tested side by side in one file, as issue 9 asks.

import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

@testable import ShareCore

/// Reads `text` as UTF-8, failing the test on an error.
private func read(_ text: String) throws -> PropertyListValue {
  try PropertyListReader.read(Array(text.utf8)).value
}

/// The error reading `bytes` gives (nil when it reads).
private func failure(_ bytes: [UInt8]) -> PropertyListError? {
  do {
    _ = try PropertyListReader.read(bytes)
    return nil
  } catch {
    return error
  }
}

private func failure(_ text: String) -> PropertyListError? {
  failure(Array(text.utf8))
}

private func at(_ line: Int, _ column: Int) -> PropertyListError.Location {
  .text(TextPosition(line: line, column: column))
}

@Suite struct XMLPropertyListTests {
  @Test func everyElementType() throws {
    let value = try read(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
        <key>string</key><string>a &lt;b&gt; &amp; &apos;c&apos; &quot;d&quot; &#65;&#x42;&#x1F600; <![CDATA[<e> & f]]></string>
        <key>empty</key><string/>
        <key>integers</key><array><integer>42</integer><integer>-7</integer><integer> 0x1F</integer><integer>000</integer></array>
        <key>real</key><real>-1.5e3</real>
        <key>infinity</key><real>-Infinity</real>
        <key>booleans</key><array><true/><false/><true></true></array>
        <key>dates</key><array><date>2001-01-01T00:00:01Z</date><date>1970-01-01T00:00:00Z</date></array>
        <key>data</key><data>
          aGVs
          bG8=
        </data>
        <key>dict</key><dict/>
        <key>array</key><array/>
        <key>nested</key><dict><key>k</key><array><dict><key>deep</key><string>yes</string></dict></array></dict>
        <key>keyAsValue</key><key>v</key>
      </dict>
      </plist>
      """)
    let expected: PropertyListValue = .dictionary([
      "string": .string("a <b> & 'c' \"d\" AB😀 <e> & f"),
      "empty": .string(""),
      "integers": .array([.integer(42), .integer(-7), .integer(31), .integer(0)]),
      "real": .real(-1500),
      "infinity": .real(-.infinity),
      "booleans": .array([.boolean(true), .boolean(false), .boolean(true)]),
      "dates": .array([.date(1), .date(-978_307_200)]),
      "data": .data(Array("hello".utf8)),
      "dict": .dictionary([:]),
      "array": .array([]),
      "nested": .dictionary(["k": .array([.dictionary(["deep": .string("yes")])])]),
      "keyAsValue": .string("v"),
    ])
    #expect(value == expected)
  }

  @Test func aBareValueIsARoot() throws {
    #expect(try read("<string>bare</string>") == .string("bare"))
    #expect(try read("  <!-- c --> <integer>-9223372036854775808</integer> ") == .integer(Int.min))
  }

  /// A byte-order mark, UTF-16 with one, the declaration, comments and processing instructions.
  @Test func prologAndEpilogue() throws {
    let text =
      "<?xml version=\"1.0\"?>\n<!-- one -->\n<?pi x?><plist><string>é</string></plist>\n<!-- two --><?pi?>\n"
    #expect(try PropertyListReader.read([0xEF, 0xBB, 0xBF] + Array(text.utf8)).value == .string("é"))
    var utf16LE: [UInt8] = [0xFF, 0xFE]
    for unit in text.utf16 { utf16LE += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    #expect(try PropertyListReader.read(utf16LE).value == .string("é"))
    let latin1 =
      Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><string>".utf8) + [0xE9] + Array("</string>".utf8)
    #expect(try PropertyListReader.read(latin1).value == .string("é"))
    #expect(
      failure("<?xml version=\"1.0\" encoding=\"EBCDIC\"?><string/>")?.reason
        == .unsupportedEncoding("EBCDIC"))
  }

  /// As CoreFoundation: a key given twice keeps its last value.
  @Test func duplicateKeysKeepTheLast() throws {
    let document = try PropertyListReader.read(
      Array("<dict><key>a</key><dict><key>x</key><true/></dict>\n<key>a</key><string>2</string></dict>".utf8))
    #expect(document.value == .dictionary(["a": .string("2")]))
    #expect(document.positions[["a"]] == TextPosition(line: 2, column: 13))
    #expect(document.positions[["a", "x"]] == nil)
  }

  @Test func positionsOfValuesByKeyPath() throws {
    let document = try PropertyListReader.read(
      Array(
        """
        <plist>
        <dict>
        \t<key>list</key>
        \t<array><string>a</string>  <string>b</string></array>
        \t<key>é</key><dict><key>n</key><integer>1</integer></dict>
        </dict>
        </plist>
        """.utf8))
    #expect(document.positions[[]] == TextPosition(line: 2, column: 1))
    #expect(document.positions[["list"]] == TextPosition(line: 4, column: 2))
    #expect(document.positions[["list", "1"]] == TextPosition(line: 4, column: 29))
    #expect(document.positions[["é", "n"]] == TextPosition(line: 5, column: 32))
  }

  /// A byte of a string's text, as read (entities and CDATA resolved), placed where it is
  /// written in the file: what a predicate's error is reported at.
  @Test func aPlaceInAStringIsFoundInTheFile() throws {
    let document = try PropertyListReader.read(
      Array(
        """
        <plist><dict>
          <key>rule</key>
          <string attribute="x">a &amp;&amp; b
            &quot;c&quot; <![CDATA[<d> & é]]>&#x1F600;x</string>
          <key>empty</key><string/>
        </dict></plist>
        """.utf8))
    let text = "a && b\n    \"c\" <d> & é😀x"
    #expect(document.value == .dictionary(["rule": .string(text), "empty": .string("")]))
    func place(_ marker: String) -> TextPosition? {
      let offset = text.utf8.distance(from: text.startIndex, to: text.firstRange(of: marker)!.lowerBound)
      return document.position(ofByte: offset, inStringAt: ["rule"])
    }
    #expect(place("a") == TextPosition(line: 3, column: 25))
    #expect(place("&&") == TextPosition(line: 3, column: 27))
    #expect(place("& b") == TextPosition(line: 3, column: 32))
    #expect(place("b") == TextPosition(line: 3, column: 38))
    #expect(place("\"c") == TextPosition(line: 4, column: 5))
    #expect(place("c") == TextPosition(line: 4, column: 11))
    #expect(place("<d>") == TextPosition(line: 4, column: 28))
    #expect(place("é") == TextPosition(line: 4, column: 34))
    #expect(place("😀") == TextPosition(line: 4, column: 38))
    #expect(place("x") == TextPosition(line: 4, column: 47))
    // The end of the text: where the close tag begins.
    #expect(
      document.position(ofByte: text.utf8.count, inStringAt: ["rule"]) == TextPosition(line: 4, column: 48))
    #expect(document.position(ofByte: 0, inStringAt: ["empty"]) == nil)
    #expect(document.position(ofByte: 0, inStringAt: ["nothing"]) == nil)
    #expect(document.position(ofByte: text.utf8.count + 1, inStringAt: ["rule"]) == nil)
    // Old-style and binary property lists keep no text to look in.
    let openStep = try PropertyListReader.read(Array("{ rule = \"a b\"; }".utf8))
    #expect(openStep.position(ofByte: 2, inStringAt: ["rule"]) == nil)
  }

  @Test(arguments: [
    // Content after the root element, with its position.
    ("<plist><string>a</string></plist>\n  junk", PropertyListError.Reason.contentAfterRoot, 2, 3),
    ("<plist><string>a</string></plist><string>b</string>", .contentAfterRoot, 1, 34),
    ("<string>a</string><!DOCTYPE plist>", .contentAfterRoot, 1, 19),
    // Lines after a comment of several lines, with CRLF, and after a lone CR.
    (
      "<!-- a\nb\r\nc -->\n<dict>\n<key>k</key>  <integer>1x</integer></dict>",
      .invalidContent(element: "integer", text: "1x"), 5, 24
    ),
    (
      "<plist>\r\n<dict>\r\n  <key>a</key>\r\n  <strin>x</strin>\r\n</dict>\r\n</plist>",
      .unknownElement("strin"), 4, 3
    ),
    ("<dict>\r<key>a</key>\r<foo/></dict>", .unknownElement("foo"), 3, 1),
    // Columns count characters, not bytes.
    ("<plist><string>héllo</string> <oops/></plist>", .extraValueInPlist, 1, 31),
    ("<dict><key>a</key><string>&nbsp;</string></dict>", .unknownEntity("nbsp"), 1, 27),
    ("<string>&#xD800;</string>", .invalidCharacterReference("&#xD800;"), 1, 9),
    ("<dict>\n  <key>lonely</key>\n</dict>", .missingValue(key: "lonely"), 3, 1),
    ("<dict><string>x</string></dict>", .expectedKey(found: "string"), 1, 7),
    ("<array><string>x</string></dict>", .mismatchedCloseTag(expected: "array", found: "dict"), 1, 26),
    ("<array>\n <!-- never closed", .unexpectedEnd(inside: .comment), 2, 2),
    ("<plist>\n<dict>\n<key>a</key><true/>", .unexpectedEnd(inside: .element("dict")), 2, 1),
    ("<string>x", .unexpectedEnd(inside: .element("string")), 1, 1),
    ("<integer/>", .emptyElement("integer"), 1, 1),
    ("<integer>9223372036854775808</integer>", .integerOutOfRange("9223372036854775808"), 1, 10),
    (
      "<date>2001-13-01T00:00:00Z</date>", .invalidContent(element: "date", text: "2001-13-01T00:00:00Z"), 1,
      7
    ),
    ("<real>0x1p3</real>", .invalidContent(element: "real", text: "0x1p3"), 1, 7),
    ("<plist></plist>", .emptyPlist, 1, 1),
    ("<true>x</true>", .mismatchedCloseTag(expected: "true", found: nil), 1, 7),
    ("<dict>text</dict>", .unexpectedText("text</dict>"), 1, 7),
    ("  <!-- only a comment -->  ", .empty, 1, 28),
  ])
  func errorsSayWhere(_ text: String, _ reason: PropertyListError.Reason, _ line: Int, _ column: Int) {
    let error = failure(text)
    #expect(error?.reason == reason)
    #expect(error?.location == at(line, column))
  }

  @Test func nestingIsBounded() throws {
    let limit = PropertyListReader.maximumDepth
    let deepest = String(repeating: "<array>", count: limit) + String(repeating: "</array>", count: limit)
    #expect(failure(deepest) == nil)
    let tooDeep =
      String(repeating: "<array>", count: limit + 1) + String(repeating: "</array>", count: limit + 1)
    #expect(failure(tooDeep)?.reason == .tooDeep(limit: limit))
    // Far past the limit, still an error rather than a stack overflow.
    #expect(
      failure(String(repeating: "<dict><key>k</key>", count: 100_000))?.reason == .tooDeep(limit: limit))
  }

  @Test func emptyAndUndecodableFiles() {
    #expect(failure([])?.reason == .empty)
    #expect(failure([0xFF, 0xFE, 0x3C])?.reason == .invalidText(encoding: "UTF-16"))
    #expect(
      failure(Array("<string>".utf8) + [0xC3, 0x28] + Array("</string>".utf8))?.reason
        == .invalidText(encoding: "UTF-8"))
  }
}

@Suite struct OldStylePropertyListTests {
  @Test func stringsFileInUTF8() throws {
    let text = """
      /* Localized Info.plist keys */
      "CFBundleDisplayName" = "Teilen \\"mit\\" \\U00e9\\n";  // a comment
      CFBundleName = 'Kurz';
      "Alone";
      "Emoji" = "\\UD83D\\UDE00";
      "Octal" = "\\101\\0";
      """
    #expect(
      try read(text)
        == .dictionary([
          "CFBundleDisplayName": .string("Teilen \"mit\" é\n"), "CFBundleName": .string("Kurz"),
          "Alone": .string("Alone"), "Emoji": .string("😀"), "Octal": .string("A\0"),
        ]))
  }

  @Test(arguments: [true, false])
  func stringsFileInUTF16(bigEndian: Bool) throws {
    var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
    for unit in "\"CFBundleDisplayName\" = \"Partager ☕\";\n".utf16 {
      bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
    }
    #expect(
      try PropertyListReader.read(bytes).value == .dictionary(["CFBundleDisplayName": .string("Partager ☕")]))
  }

  @Test func openStepValues() throws {
    let document = try PropertyListReader.read(
      Array("{\n  list = (a, \"b c\", <0fbd 77>, );\n  nested = { k = v; };\n}".utf8))
    #expect(
      document.value
        == .dictionary([
          "list": .array([.string("a"), .string("b c"), .data([0x0F, 0xBD, 0x77])]),
          "nested": .dictionary(["k": .string("v")]),
        ]))
    #expect(document.format == .openStep)
    #expect(document.positions[["list", "2"]] == TextPosition(line: 2, column: 21))
    #expect(try read("  // nothing\n") == .dictionary([:]))
  }

  @Test(arguments: [
    ("\"a\" = \"b\"\n\"c\" = \"d\";", PropertyListError.Reason.expected(.semicolon), 2, 1),
    ("\"a\" = \"unterminated;\n", .unexpectedEnd(inside: .quotedString), 1, 7),
    ("this is not a plist <", .expected(.equalsOrSemicolon), 1, 6),
    ("{ a = b; } extra", .contentAfterRoot, 1, 12),
    ("( a, b", .expected(.commaOrClosingParenthesis), 1, 7),
    ("x = <0g>;", .invalidHexData, 1, 6),
    ("/* open", .unexpectedEnd(inside: .comment), 1, 1),
  ])
  func errorsSayWhere(_ text: String, _ reason: PropertyListError.Reason, _ line: Int, _ column: Int) {
    let error = failure(text)
    #expect(error?.reason == reason)
    #expect(error?.location == at(line, column))
  }

  @Test func nestingIsBounded() {
    #expect(
      failure(String(repeating: "(", count: 100_000))?.reason
        == .tooDeep(limit: PropertyListReader.maximumDepth))
  }

  @Test func localizedStringsAreReadFromTheBundle() throws {
    let bundle = FileManager.default.temporaryDirectory.appendingPathComponent("plist-\(UUID().uuidString)")
      .path
    defer { try? FileManager.default.removeItem(atPath: bundle) }
    try FileManager.default.createDirectory(atPath: bundle + "/de.lproj", withIntermediateDirectories: true)
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in "\"CFBundleDisplayName\" = \"Teilen\";".utf16 {
      bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
    }
    try Data(bytes).write(to: URL(fileURLWithPath: bundle + "/de.lproj/InfoPlist.strings"))
    #expect(
      Localization.strings(inBundle: bundle, languages: ["fr", "de"]) == ["CFBundleDisplayName": "Teilen"])
  }
}

/// A binary property list of `objects` (each its marker and content), with references of
/// `referenceSize` bytes.
private func bplist(_ objects: [[UInt8]], top: Int = 0, referenceSize: Int = 1) -> [UInt8] {
  func bigEndian(_ value: Int, _ size: Int) -> [UInt8] {
    (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
  }
  var data = Array("bplist00".utf8)
  var offsets: [Int] = []
  for object in objects {
    offsets.append(data.count)
    data += object
  }
  let tableOffset = data.count
  let offsetSize = tableOffset < 256 ? 1 : 2
  for offset in offsets { data += bigEndian(offset, offsetSize) }
  data += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
  data += bigEndian(objects.count, 8) + bigEndian(top, 8) + bigEndian(tableOffset, 8)
  return data
}

@Suite struct BinaryPropertyListTests {
  static let python = "/usr/bin/python3"

  /// The same value written by Python's plistlib as binary and as XML reads the same both ways.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: python), "needs /usr/bin/python3"))
  func roundTripThroughPlistlib() throws {
    let script = """
      import datetime, plistlib, sys
      value = {"ascii": "text", "unicode": "h\\u00e9llo \\u2615 \\U0001F600", "long": "x" * 100,
               "ints": [0, 255, 256, 65535, 65536, 2**32, -1, -2**63, 2**63 - 1], "real": 1.5,
               "t": True, "f": False, "date": datetime.datetime(2001, 1, 1, 0, 0, 1),
               "data": b"\\x00\\x01binary", "nested": {"a": [{"b": []}], "empty": {}},
               "many": list(range(20))}
      sys.stdout.write(plistlib.dumps(value, fmt=plistlib.FMT_BINARY).hex() + " " + plistlib.dumps(value).hex())
      """
    let run = try CapturedRun.run([Self.python, "-c", script].map { Array($0.utf8) }, environment: [:])
    let halves = String(decoding: run.standardOutput, as: UTF8.self).split(separator: " ").map(Self.bytes)
    try #require(halves.count == 2, "\(String(decoding: run.standardError, as: UTF8.self))")
    let binary = try PropertyListReader.read(halves[0])
    let xml = try PropertyListReader.read(halves[1])
    #expect(binary.format == .binary)
    #expect(binary.positions.isEmpty)
    #expect(binary.value == xml.value)
    guard case .dictionary(let root) = binary.value else {
      Issue.record("not a dictionary: \(binary.value)")
      return
    }
    #expect(root["unicode"] == .string("héllo ☕ 😀"))
    #expect(root["long"] == .string(String(repeating: "x", count: 100)))
    #expect(
      root["ints"]
        == .array([0, 255, 256, 65535, 65536, 1 << 32, -1, Int.min, Int.max].map(PropertyListValue.integer)))
    #expect(root["date"] == .date(1))
    #expect(root["data"] == .data([0, 1] + Array("binary".utf8)))
    #expect(root["many"] == .array((0..<20).map(PropertyListValue.integer)))

    // No prefix and no one-byte change of a real file may crash or hang the reader.
    let file = halves[0]
    for length in 0..<file.count { _ = failure(Array(file[..<length])) }
    for index in file.indices {
      for byte: UInt8 in [0x00, 0xFF, file[index] ^ 0x0F] {
        var changed = file
        changed[index] = byte
        _ = failure(changed)
      }
    }
  }

  @Test func handAssembledObjects() throws {
    let value = try PropertyListReader.read(
      bplist([
        [0xA6, 1, 2, 3, 4, 5, 6],
        [0x11, 0x01, 0x00],  // 256 in two bytes
        [0x14] + [UInt8](repeating: 0xFF, count: 16),  // -1 in 128 bits
        [0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE],  // -2 in eight bytes
        [0x22, 0x3F, 0xC0, 0x00, 0x00],  // 1.5 as a float
        [0x62, 0x00, 0xE9, 0x00, 0x41],  // "éA" in UTF-16
        [0xD2, 7, 7, 8, 9],  // {"a": 1, "a": 2}
        [0x51, 0x61], [0x10, 0x01], [0x10, 0x02],
      ])
    ).value
    #expect(
      value
        == .array([
          .integer(256), .integer(-1), .integer(-2), .real(1.5), .string("éA"),
          // Binary dictionaries keep the first of a duplicate key, as CoreFoundation reads them.
          .dictionary(["a": .integer(1)]),
        ]))
  }

  @Test func malformedFilesAreErrors() {
    let valid = bplist([[0xA1, 1], [0x51, 0x61]])
    #expect(failure(valid) == nil)
    #expect(failure(Array(valid.dropLast()))?.reason == .damagedTrailer)
    #expect(failure(Array(valid.prefix(20)))?.reason == .damagedTrailer)
    #expect(failure(Array("bplist00".utf8))?.reason == .damagedTrailer)
    #expect(failure(Array("bplist15".utf8) + valid.dropFirst(8))?.reason == .damagedTrailer)
    // An array that holds itself, and a dictionary and an array that hold each other.
    #expect(failure(bplist([[0xA1, 0]])) == PropertyListError(.cycle, at: .byte(8)))
    #expect(failure(bplist([[0xD1, 1, 2], [0x51, 0x6B], [0xA1, 0]]))?.reason == .cycle)
    var badOffset = valid
    badOffset[valid.count - 33] = 0xF0
    #expect(failure(badOffset)?.reason == .offsetOutOfRange(0xF0))
    #expect(failure(bplist([[0xA1, 5]])) == PropertyListError(.referenceOutOfRange(5), at: .byte(9)))
    let absurd: [UInt8] = [0xAF, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    #expect(failure(bplist([absurd]))?.reason == .countTooLarge(Int.max))
    #expect(failure(bplist([[0x4F, 0x10, 0x05, 0x00]]))?.reason == .offsetOutOfRange(8))
    #expect(failure(bplist([[0x00]])) == PropertyListError(.unsupportedObject(marker: 0x00), at: .byte(8)))
    #expect(failure(bplist([[0x0F]]))?.reason == .unsupportedObject(marker: 0x0F))
    #expect(failure(bplist([[0x80, 0x01]]))?.reason == .unsupportedObject(marker: 0x80))
    #expect(failure(bplist([[0xD1, 1, 1], [0x10, 0x05]]))?.reason == .nonStringKey)
    #expect(failure(bplist([[0x52, 0x61, 0xE9]]))?.reason == .invalidText(encoding: "ASCII"))
    #expect(failure(bplist([[0x61, 0xD8, 0x00]]))?.reason == .invalidText(encoding: "UTF-16"))
    let huge =
      [UInt8(0x14), 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01] + [UInt8](repeating: 0, count: 8)
    #expect(failure(bplist([huge]))?.reason == .integerOutOfRange("0x10000000000000000"))
  }

  @Test func nestingAndSharingAreBounded() {
    let limit = PropertyListReader.maximumDepth
    func chain(_ count: Int) -> [[UInt8]] {
      (0..<count).map { (index: Int) -> [UInt8] in
        index == count - 1 ? [0xA0] : [0xA1, UInt8((index + 1) >> 8), UInt8((index + 1) & 0xFF)]
      }
    }
    #expect(failure(bplist(chain(limit), referenceSize: 2)) == nil)
    #expect(failure(bplist(chain(limit + 1), referenceSize: 2))?.reason == .tooDeep(limit: limit))
    // Forty arrays, each holding the next twice: 2^40 values from a few hundred bytes.
    let laughs: [[UInt8]] = (0..<40).map { (index: Int) -> [UInt8] in
      let next = UInt8(index + 1)
      return index == 39 ? [0xA0] : [0xA2, next, next]
    }
    #expect(failure(bplist(laughs))?.reason == .tooManyValues(limit: BinaryPropertyListParser.maximumValues))
  }

  static func bytes(_ hex: Substring) -> [UInt8] {
    var out: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
      out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
      index = next
    }
    return out
  }
}
