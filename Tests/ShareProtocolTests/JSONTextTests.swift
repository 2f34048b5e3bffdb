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

  /// Nested values, numbers and empty containers, in the encoder's layout: what `share --json`
  /// printed through `JSONEncoder`.
  @Test func nestedValuesAreWhatTheEncoderWrites() throws {
    struct Summary: Encodable {
      var requestId = "r1"
      var size: UInt64 = 12_345
      var ok = true
      var items: [[String: [String]]] = [[:], ["types": []], ["types": ["public.png", "a/b"]]]
    }
    let value = JSONValue.object([
      "requestId": .string("r1"), "size": .number(12_345), "ok": .bool(true),
      "items": .array([
        .object([:]), .object(["types": .array([])]),
        .object(["types": .array([.string("public.png"), .string("a/b")])]),
      ]),
    ])
    #expect(value.text(.encoder) == (try Self.encoded(Summary())))
  }

  /// Reports write an empty array or object as `[]` and `{}`.
  @Test func reportsWriteEmptyContainersShort() {
    let value = JSONValue.object(["a": .array([]), "b": .object([:]), "c": .number(-3), "d": .number(2.5)])
    #expect(value.text(.report) == "{\n  \"a\" : [],\n  \"b\" : {},\n  \"c\" : -3,\n  \"d\" : 2.5\n}")
  }

  /// Files: the keys named first in their order, then the rest sorted; `"key": value`; DEL,
  /// the line and paragraph separators and every control character as `\u`; a final newline.
  @Test func filesOrderTheirKeysAndEscapeEverySeparator() {
    let value = JSONValue.object([
      "z": .string("\u{8}\u{C}\u{7F}\u{2028}\u{2029}\n\"é"), "type": .null, "name": .array([]),
      "b": .bool(false),
    ])
    #expect(
      value.text(.file(keyOrder: ["name", "type", "absent"]))
        == "{\n  \"name\": [],\n  \"type\": null,\n  \"b\": false,\n"
        + "  \"z\": \"\\u0008\\u000c\\u007f\\u2028\\u2029\\n\\\"é\"\n}\n")
  }
}
