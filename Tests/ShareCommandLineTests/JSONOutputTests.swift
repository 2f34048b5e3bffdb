import FoundationEssentials
import ShareHost
import ShareProtocol
import Testing

@testable import ShareCommandLine

/// `share --json` prints what `JSONEncoder` printed before, byte for byte: scripts parse it.
@Suite struct JSONOutputTests {
  static func encoded(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  static let outcomes: [ShareOutcome] = [
    .completed(returningItems: []),
    .completed(returningItems: [
      ItemPayload(attachments: []),
      ItemPayload(
        attributedContentText: "Saved \"here\"\n",
        attachments: [
          AttachmentPayload(
            typeIdentifiers: ["public.png", "public.image"], url: "file:///tmp/a%20b/ü.png",
            path: "/tmp/a b/ü.png",
            name: "ü.png", size: 123_456_789),
          AttachmentPayload(typeIdentifiers: [], url: "https://example.org/x?y=1"),
        ]),
    ]),
    .cancelled(code: 3, message: "No\tthanks"),
  ]

  @Test(arguments: outcomes)
  func aShareSummaryIsWhatTheEncoderWrote(_ outcome: ShareOutcome) throws {
    let summary = OutcomeSummary(
      requestId: "r-1", serviceId: "org.example.a", serviceName: "A", outcome: outcome)
    #expect(JSON.encode(summary) == (try Self.encoded(summary)))
  }

  @Test func anObjectOfStringsIsWhatTheEncoderWrote() throws {
    let object = ["status": "refused", "message": "no \"such\" service\u{1}/x"]
    #expect(JSON.encode(object) == (try Self.encoded(object)))
  }
}
