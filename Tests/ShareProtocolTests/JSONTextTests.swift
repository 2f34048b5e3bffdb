import FoundationEssentials
import Testing

@testable import ShareProtocol

/// `JSONValue.text(.encoder)` must write what the command line wrote with `JSONEncoder` before,
/// byte for byte: scripts parse it, and people diff it.
@Suite struct JSONTextTests {
  /// What `JSONText.object` wrote.
  private enum JSONText {
    static func object(_ object: [String: String]) -> String {
      JSONValue.object(object.mapValues(JSONValue.string)).text(.encoder)
    }

    static func array(_ objects: [[String: String]]) -> String {
      JSONValue.array(objects.map { .object($0.mapValues(JSONValue.string)) }).text(.encoder)
    }
  }

  private static func encoded(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  /// Every C0 control, both characters JSON escapes, DEL, slashes, line and paragraph
  /// separators, accents, an emoji and a combining mark.
  static let awkward =
    String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
    + "\"\\/\u{7F} é\u{2028}\u{2029}😀e\u{301} file:///tmp/a b/ü.png"

  static let objects: [[String: String]] = [
    [:],
    ["id": "org.example.one"],
    [
      "bundle": "/usr/share/xdg-share/extensions/org.example.shareext", "bundleURL": "file:///x%FF",
      "description": awkward, "icon": "", "id": "org.example.two", "name": "Two \"quoted\"", "version": "1.0",
    ],
    ["B": "upper", "a10": "", "a9": "", "_": "", "b": "lower", "é": "accent", "Z": "last upper"],
  ]

  @Test(arguments: objects)
  func anObjectIsWhatTheEncoderWrites(_ object: [String: String]) throws {
    #expect(JSONText.object(object) == (try Self.encoded(object)))
  }

  @Test func anArrayOfObjectsIsWhatTheEncoderWrites() throws {
    #expect(JSONText.array(Self.objects) == (try Self.encoded(Self.objects)))
    #expect(JSONText.array([]) == (try Self.encoded([[String: String]]())))
    #expect(JSONText.array([[:]]) == (try Self.encoded([[String: String]()])))
  }

  @Test func everyControlCharacterIsEscaped() {
    let text = JSONText.object(["k": Self.awkward])
    #expect(!text.utf8.contains { $0 < 0x20 && $0 != UInt8(ascii: "\n") })
    #expect(
      text.contains("\\u0000") && text.contains("\\u001f") && text.contains("\\b") && text.contains("\\t"))
  }
}
