import Foundation
import ShareCore
import ShareProtocol
import Testing

// `HistoryRecord`'s memberwise initializer is internal.
@testable import ShareHost

/// The README's account of `history --json` names every key a record can have, and says what
/// `log` is: a path (issue 32).
@Suite struct HistoryDocsTests {
  static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("README.md")

  /// The README's paragraph on `history --json`.
  static func paragraph() throws -> String {
    let text = try String(contentsOf: readme, encoding: .utf8)
    let start = try #require(text.range(of: "`history --json` prints"))
    let end = try #require(text.range(of: "\n\n", range: start.upperBound..<text.endIndex))
    return String(text[start.lowerBound..<end.lowerBound])
  }

  /// A record with every key set, and an item of each kind.
  static let record = HistoryRecord(
    id: "r", serviceId: "org.example.x", serviceName: "X",
    items: [
      .file(url: "file:///a.png"), .webURL("https://example.org/"), .text("hi"), .handedOver(name: "b.png"),
    ],
    started: Date(timeIntervalSince1970: 1_800_000_000), finished: Date(timeIntervalSince1970: 1_800_000_001),
    status: .completed, message: "m", returningItems: [], log: "/state/xdg-share/logs/r.log", host: 1,
    hostStarted: 2, retryOf: "q", caller: "org.example.App", compose: ComposePayload(contentText: "t"),
    target: TargetPayload(id: "t", title: "T"))

  @Test func everyKeyOfARecordIsDocumented() throws {
    let json = try #require(
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.record)) as? [String: Any])
    let items = try #require(json["items"] as? [[String: Any]])
    let keys = Set(json.keys).union(items.flatMap(\.keys))
    #expect(keys.count == 20, "\(keys.sorted())")
    let paragraph = try Self.paragraph()
    for key in keys.sorted() {
      #expect(paragraph.contains("`\(key)`"), "history --json's `\(key)` is not in the README")
    }
  }

  @Test func logIsSaidToBeAPath() throws {
    let paragraph = try Self.paragraph()
    #expect(!paragraph.contains("`log` (the program's standard error)"))
    #expect(paragraph.contains("`log` (the path of the file"))
  }
}
