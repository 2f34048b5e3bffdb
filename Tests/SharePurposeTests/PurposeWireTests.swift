import Foundation
import ShareCore
import Testing

@testable import SharePurpose

/// The wire of KDE Purpose's plugin processes, on the bytes the real library and applications
/// sent (`Captures/`, made with Debian 12's Purpose 5.103: see Tests/Tools/purpose-driver).
@Suite struct PurposeWireTests {
  static func capture(_ name: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Captures/\(name).bin")
    return Array(try Data(contentsOf: url))
  }

  /// Reads `bytes` as the job does from its socket: as many as asked for, at most.
  static func input(_ bytes: [UInt8]) throws -> [String: PurposeWire.Value] {
    var rest = bytes[...]
    return try PurposeWire.readInput { count in
      defer { rest = rest.dropFirst(count) }
      return Array(rest.prefix(count))
    }
  }

  @Test(arguments: [
    ("export-one-png", "image/png", ["file:///tmp/xdgshare-purpose-capture/files/one.png"]),
    (
      "export-two-files", "image/png",
      [
        "file:///tmp/xdgshare-purpose-capture/files/one.png",
        "file:///tmp/xdgshare-purpose-capture/files/two.png",
      ]
    ),
    (
      "fileitem-mixed", "*/*",
      [
        "file:///tmp/xdgshare-purpose-capture/files/one.png",
        "file:///tmp/xdgshare-purpose-capture/files/notes.txt",
      ]
    ),
    ("fileitem-unicode-name", "image/png", ["file:///tmp/xdgshare-purpose-capture/files/Grüße 1 %23%3F.png"]),
    ("dolphin-one-png", "image/png", ["file:///tmp/xdgshare-apps/files/one.png"]),
    ("okular-pdf", "application/pdf", ["file:///tmp/xdgshare-apps/files/doc.pdf"]),
  ])
  func exportJobsAsTheHostsSentThem(name: String, mimeType: String, urls: [String]) throws {
    let input = try Self.input(Self.capture(name))
    #expect(input["mimeType"] == .string(mimeType))
    #expect(input["urls"]?.strings == urls)
    #expect(input.count == 2)
  }

  @Test func aShareUrlJobHasATitleAndItsLink() throws {
    let input = try Self.input(Self.capture("shareurl-https"))
    #expect(input["title"] == .string("Example page"))
    #expect(
      PurposeJob.items(input["urls"]?.strings ?? []) == [.webURL("https://example.org/page?q=1&x=%C3%A4")])
  }

  @Test func urlsAsQtWritesThemBecomeTheFilesBytes() {
    #expect(
      PurposeJob.items([
        "file:///tmp/f/Grüße 1 %23%3F.png", "file:///tmp/caf%E9.txt", "https://x.org/", "notaurl",
      ])
        == [
          .file(FilePath("/tmp/f/Grüße 1 #?.png")),
          .file(FilePath(bytes: Array("/tmp/caf".utf8) + [0xE9] + Array(".txt".utf8))),
          .webURL("https://x.org/"),
        ])
  }

  @Test func nothingPastTheAnnouncedBytesIsRead() throws {
    var asked = 0
    let payload: [UInt8] = Array("1\n".utf8) + [0xA0] + Array("junk".utf8)
    var rest = payload[...]
    let input = try PurposeWire.readInput { count in
      asked += count
      defer { rest = rest.dropFirst(count) }
      return Array(rest.prefix(count))
    }
    #expect(input.isEmpty)
    #expect(asked == 3)
  }

  @Test func aJSONPayloadIsReadToo() throws {
    let json = Array(#"{"mimeType":"text/plain","urls":["file:///a.txt"],"n":[1,2.5,true,null]}"#.utf8)
    let input = try Self.input(Array("\(json.count)\n".utf8) + json)
    #expect(input["urls"]?.strings == ["file:///a.txt"])
    #expect(input["n"] == .array([.integer(1), .number(2.5), .bool(true), .null]))
  }

  @Test func cborOfEveryKindAJSONValueCanBecome() throws {
    // {"a": -2, "b": 1.5 (half), "c": [true, false, null], "d": h'01', "e": "x" in chunks, "f": 1000}
    let payload: [UInt8] = [
      0xA6, 0x61, 0x61, 0x21, 0x61, 0x62, 0xF9, 0x3E, 0x00, 0x61, 0x63, 0x83, 0xF5, 0xF4, 0xF6, 0x61, 0x64,
      0x41,
      0x01, 0x61, 0x65, 0x7F, 0x61, 0x78, 0x61, 0x79, 0xFF, 0x61, 0x66, 0x19, 0x03, 0xE8,
    ]
    let map = try PurposeWire.decode(payload)
    #expect(map["a"] == .integer(-2))
    #expect(map["b"] == .number(1.5))
    #expect(map["c"] == .array([.bool(true), .bool(false), .null]))
    #expect(map["d"] == .bytes([1]))
    #expect(map["e"] == .string("xy"))
    #expect(map["f"] == .integer(1000))
  }

  static let brokenInputs: [([UInt8], PurposeWire.InputError)] = [
    (Array("12".utf8), PurposeWire.InputError.truncated(received: 2)),
    (Array("x\n".utf8), .badLength),
    (Array("1234567890123\n".utf8), .badLength),
    (Array("99999999\n".utf8), .tooLong(99_999_999)),
    (Array("4\nab".utf8), .truncated(received: 4)),
    // A map, an array, a string: not what a job's input is.
    (Array("1\n".utf8) + [0x80], .malformed(offset: 0)),
    // An array that says it holds more than there is.
    (
      Array("12\n".utf8) + [0xA1, 0x61, 0x61, 0x9B] + Array(repeating: 0xFF, count: 8), .malformed(offset: 3)
    ),
    // Text that is not UTF-8.
    (Array("5\n".utf8) + [0xA1, 0x61, 0x61, 0x61, 0xFF], .malformed(offset: 3)),
    // Nested past any real input.
    (
      Array("100\n".utf8) + [0xA1, 0x61, 0x61] + Array(repeating: 0x81, count: 96) + [0x01],
      .malformed(offset: 66)
    ),
    (Array("3\n".utf8) + [0xA1, 0x01, 0x02], .malformed(offset: 1)),
  ]

  @Test(arguments: brokenInputs)
  func brokenInputsAreRefusedAsData(bytes: [UInt8], error: PurposeWire.InputError) {
    #expect(throws: error) { try Self.input(bytes) }
  }

  @Test func repliesAreOneJSONLineEach() {
    #expect(PurposeWire.percent(0.5) == Array(#"{"percent":50}"#.utf8) + [10])
    #expect(PurposeWire.percent(7) == Array(#"{"percent":100}"#.utf8) + [10])
    #expect(
      PurposeWire.output(url: "https://x.org/a?b") == Array(#"{"output":{"url":"https://x.org/a?b"}}"#.utf8)
        + [10])
    #expect(
      PurposeWire.error(.failed, "Upload failed: \"x\"\n")
        == Array(#"{"error":100,"errorText":"Upload failed: \"x\"\n"}"#.utf8) + [10])
    #expect(
      PurposeWire.error(.cancelled, "cancelled") == Array(#"{"error":1,"errorText":"cancelled"}"#.utf8) + [10]
    )
  }

  @Test func theCommandLineIsTheHashBangLinesAndPurposes() {
    func parse(_ words: [String]) -> PurposeJob.Arguments? { PurposeJob.parse(words.map { Array($0.utf8) }) }
    #expect(
      parse([
        "org.example.up", "/p/main.run", "--server", "/tmp/randomname-1", "--pluginType", "ShareUrl",
        "--pluginPath", "/p/main.run",
      ])
        == .init(service: "org.example.up", server: Array("/tmp/randomname-1".utf8), pluginType: "ShareUrl"))
    #expect(
      parse(["--picker", "--server", "/s"])
        == .init(service: nil, server: Array("/s".utf8), pluginType: "Export"))
    #expect(parse(["org.example.up", "/p/main.run"]) == nil)
    #expect(parse(["--server", "/s"]) == nil)
    #expect(parse(["org.example.up", "--server"]) == nil)
    #expect(parse([]) == nil)
  }
}
