import Foundation
import Testing

@testable import ShareWeb

/// The browser extension checks a share in the page before it reaches the host
/// (`data/browser-extension/page.js`: `LIMITS`, `PERMITTED_EXTENSIONS`, `PERMITTED_TYPES`), and
/// the host checks it again (``WebShareRequest/Limits``, ``WebShareTypes``): both must say the
/// same, or a page is refused by one and not the other.
@Suite struct ExtensionTablesTests {
  static let page: String = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let url = root.appendingPathComponent("data/browser-extension/page.js")
    return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }()

  /// The text between `const NAME = ` and the end of its statement.
  static func constant(_ name: String) -> Substring? {
    guard let start = page.range(of: "const \(name) = ") else { return nil }
    let rest = page[start.upperBound...]
    return rest[..<(rest.range(of: ";\n")?.lowerBound ?? rest.endIndex)]
  }

  /// The quoted strings of a `new Set([...])`.
  static func strings(of name: String) -> Set<String> {
    let text = constant(name) ?? ""
    return Set(
      text.split(separator: "'", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
        .map { String($0.element) })
  }

  @Test func theLimitsAreTheHosts() throws {
    let text = try #require(Self.constant("LIMITS"))
    var limits: [String: Int] = [:]
    for member in text.trimmingCharacters(in: CharacterSet(charactersIn: "{} ")).split(separator: ",") {
      let parts = member.split(separator: ":")
      try #require(parts.count == 2)
      let factors = parts[1].split(separator: "*").map { Int($0.trimmingCharacters(in: .whitespaces)) }
      limits[parts[0].trimmingCharacters(in: .whitespaces)] = try factors.reduce(1) { try #require($1) * $0 }
    }
    #expect(
      limits == [
        "files": WebShareRequest.Limits.files, "fileBytes": WebShareRequest.Limits.totalFileBytes,
        "title": WebShareRequest.Limits.title, "url": WebShareRequest.Limits.url,
        "text": WebShareRequest.Limits.text,
      ])
  }

  @Test func theTypesAreTheHosts() {
    #expect(
      Set(Self.strings(of: "PERMITTED_EXTENSIONS").map { "." + $0 }) == WebShareTypes.permittedExtensions)
    #expect(Self.strings(of: "PERMITTED_TYPES") == WebShareTypes.permittedTypes)
    #expect(!WebShareTypes.permittedTypes.isEmpty)
  }
}
