import Foundation
import Testing

@testable import ShareCore

/// The XML writer: what it writes reads back as the same value, in the order it was read, and
/// Foundation's own reader agrees.
@Suite struct PropertyListWriterTests {
  static let everyType = PropertyListValue.dictionary([
    "string": .string("a < b & c > d \"quoted\" 'single' ünïcödé 🙂"),
    "controls": .string("tab\tline\nreturn\r bell\u{7} delete\u{7F}"),
    "empty string": .string(""),
    "integer": .integer(-42),
    "big": .integer(Int.max),
    "small": .integer(Int.min),
    "real": .real(0.1),
    "huge": .real(1e300),
    "infinity": .real(-.infinity),
    "yes": .boolean(true),
    "no": .boolean(false),
    "date": .date(-978_307_200),  // 1970-01-01T00:00:00Z
    "data": .data(Array(0...255)),
    "one byte": .data([0xFF]),
    "no data": .data([]),
    "array": .array([.string("x"), .array([]), .dictionary([:]), .array([.integer(1)])]),
    "nested": .dictionary(["NSExtension": .dictionary(["deep": .dictionary(["deeper": .boolean(true)])])]),
  ])

  @Test func whatItWritesReadsBackAsTheSameValue() throws {
    let xml = PropertyListWriter.xml(Self.everyType)
    let document = try PropertyListReader.read(Array(xml.utf8))
    #expect(document.format == .xml)
    #expect(document.value == Self.everyType)
  }

  /// XML holds whole seconds: a binary list's date with a fraction (found by the `plist` fuzz
  /// target, `Fuzz/crashes/`) is written rounded down, before the reference date as after it.
  @Test(arguments: [(2.5, 2.0), (-0.5, -1.0), (86_399.999, 86_399.0)])
  func aDateIsWrittenInWholeSecondsRoundedDown(seconds: Double, written: Double) throws {
    let xml = PropertyListWriter.xml(.dictionary(["d": .date(seconds)]))
    #expect(try PropertyListReader.read(Array(xml.utf8)).value == .dictionary(["d": .date(written)]))
  }

  @Test func foundationReadsItAsWritten() throws {
    let xml = PropertyListWriter.xml(Self.everyType)
    let object = try PropertyListSerialization.propertyList(from: Data(xml.utf8), format: nil)
    let root = try #require(object as? [String: Any])
    #expect(root["string"] as? String == "a < b & c > d \"quoted\" 'single' ünïcödé 🙂")
    #expect(root["integer"] as? Int == -42)
    #expect(root["real"] as? Double == 0.1)
    #expect(root["date"] as? Date == Date(timeIntervalSince1970: 0))
    #expect(root["data"] as? Data == Data(0...255))
    #expect(root["one byte"] as? Data == Data([0xFF]))
    #expect((root["nested"] as? [String: Any])?["NSExtension"] is [String: Any])
  }

  @Test func keysKeepTheOrderTheyWereReadIn() throws {
    let source = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
        <key>Zebra</key><string>z</string>
        <key>Apple</key>
        <dict>
          <key>second</key><true/>
          <key>first</key><false/>
        </dict>
        <key>Mango</key><integer>3</integer>
      </dict>
      </plist>
      """
    let document = try PropertyListReader.read(Array(source.utf8))
    guard case .dictionary(var root) = document.value else {
      Issue.record("not a dictionary")
      return
    }
    // A key added after reading has no position: it comes after the others, sorted.
    root["Added"] = .string("new")
    let xml = PropertyListWriter.xml(.dictionary(root), positions: document.positions)
    let keys = xml.split(separator: "\n").compactMap { line -> String? in
      guard let start = line.range(of: "<key>"), let end = line.range(of: "</key>") else { return nil }
      return String(line[start.upperBound..<end.lowerBound])
    }
    #expect(keys == ["Zebra", "Apple", "second", "first", "Mango", "Added"])
    // Without positions: sorted.
    let sorted = PropertyListWriter.xml(.dictionary(["b": .integer(1), "a": .integer(2)]))
    #expect(sorted.range(of: "<key>a</key>")!.lowerBound < sorted.range(of: "<key>b</key>")!.lowerBound)
  }

  @Test func theLayoutIsXcodes() {
    let xml = PropertyListWriter.xml(
      .dictionary(["CFBundleName": .string("Hoi"), "List": .array([.integer(1)]), "Empty": .dictionary([:])]))
    #expect(
      xml == """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>CFBundleName</key>
        \t<string>Hoi</string>
        \t<key>Empty</key>
        \t<dict/>
        \t<key>List</key>
        \t<array>
        \t\t<integer>1</integer>
        \t</array>
        </dict>
        </plist>

        """)
  }

  @Test(arguments: [
    (0.0, "2001-01-01T00:00:00Z"), (-978_307_200.0, "1970-01-01T00:00:00Z"), (59.9, "2001-01-01T00:00:59Z"),
    (-0.5, "2000-12-31T23:59:59Z"), (792_561_600.0, "2026-02-12T04:00:00Z"),
    (-63_113_904_000.0, "0001-01-01T00:00:00Z"),
  ])
  func datesAreUTCWholeSeconds(_ seconds: Double, _ text: String) throws {
    #expect(PropertyListWriter.date(seconds) == text)
    let read = try PropertyListReader.read(Array(PropertyListWriter.xml(.date(seconds)).utf8)).value
    #expect(read == .date(seconds.rounded(.down)))
  }

  @Test func deepNestingDoesNotRecurse() throws {
    var value = PropertyListValue.string("bottom")
    for _ in 0..<10_000 { value = .array([value]) }
    let xml = PropertyListWriter.xml(value)
    #expect(xml.contains("<string>bottom</string>"))
  }
}
