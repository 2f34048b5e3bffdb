import Foundation
import ShareTestSupport
import Testing

/// Issue 32, as a newcomer meets it with the built tool: a refusal says what the trace above it
/// found, the rule is printed with its author's variables, and a predicate's mistake is placed
/// where it is in Info.plist.
@Suite struct RuleWordsTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
    try desktop.writeFile(named: "a.pdf", contents: "%PDF-1.4\n%%EOF\n")
    try desktop.writeFile(named: "b.pdf", contents: "%PDF-1.4\n%%EOF\n")
  }

  /// The pattern docs/activation-rules.md gives for one thing and nothing else, for a PDF, its
  /// two clauses either way round: the clause that refuses two PDFs, what it found, and the
  /// words of the refusal.
  static let onePDF = [
    (
      """
      SUBQUERY(extensionItems, $e, $e.attachments.@count == 1 AND SUBQUERY($e.attachments, $a, \
      ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "com.adobe.pdf").@count == 1).@count == 1
      """,
      "$e.attachments.@count == 1", "2 attachments, against 1",
      "OnePDF takes exactly 1 item; it was given 2: a.pdf, b.pdf"
    ),
    (
      """
      SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, \
      ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "com.adobe.pdf").@count == 1 AND \
      $e.attachments.@count == 1).@count == 1
      """,
      """
      SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "com.adobe.pdf").@count == 1
      """,
      "2 of 2 attachments, against 1",
      "OnePDF takes exactly 1 PDF document (com.adobe.pdf); it was given 2: a.pdf, b.pdf"
    ),
  ]

  @Test(arguments: [0, 1])
  func whyAndTheShareSayWhatTheTraceFound(_ order: Int) throws {
    let (rule, clause, found, words) = Self.onePDF[order]
    try BundleFixture(id: "com.example.onepdf", name: "OnePDF", ruleXML: BundleFixture.predicate(rule))
      .write(into: desktop.userExtensions)

    let why = try Tool.run(["why", "com.example.onepdf", "a.pdf", "b.pdf"], on: desktop)
    #expect(why.status == 7)
    let lines = why.standardOutput.split(separator: "\n").map(String.init)
    // The rule as its author wrote it, and the clause that refused with what it found…
    #expect(lines.contains("  ✗ \(rule) — 0 of 1 item, against 1"), "\(why.standardOutput)")
    #expect(lines.contains { $0.hasSuffix("✗ \(clause) — \(found)") }, "\(why.standardOutput)")
    #expect(lines.contains("Refused by: \(clause)"))
    // …and the words that say the same.
    #expect(lines.last == words)

    let share = try Tool.run(["--service", "com.example.onepdf", "a.pdf", "b.pdf"], on: desktop)
    #expect(share.status == 7)
    #expect(share.standardError == "xdg-share: \(words)\n")

    let json = try #require(
      try JSONSerialization.jsonObject(
        with: Data(
          Tool.run(["why", "--json", "com.example.onepdf", "a.pdf", "b.pdf"], on: desktop).standardOutput.utf8
        ))
        as? [String: Any])
    #expect(json["message"] as? String == words)
    #expect(json["refusedBy"] as? String == clause)
    #expect((json["rule"] as? [String: Any])?["text"] as? String == rule)
  }

  /// A predicate written over several lines of its `<string>`, as Xcode and people write them:
  /// `validate` names the line and column of the mistake in the file, not of the `<string>`,
  /// and an operator of Apple's that xdg-share lacks by what it is.
  @Test func validatePlacesAPredicatesMistakeInTheFile() throws {
    let rule = """
      <string>
              SUBQUERY (
                extensionItems, $e,
                SUBQUERY ($e.attachments, $a,
                  ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO &quot;com.adobe.pdf&quot;
                  &amp;&amp; $a.registeredTypeIdentifiers.@count IN {2, 3}
                ).@count == 1
              ).@count == 1
            </string>
      """
    let bundle = try BundleFixture(id: "com.example.lines", name: "Lines", ruleXML: rule)
      .write(into: desktop.files)
    let result = try Tool.run(["validate", bundle], on: desktop)
    #expect(result.status == 1)
    // Where `IN` is, found in the file's text.
    let lines = try String(contentsOfFile: "\(bundle)/Info.plist", encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    let line = try #require(lines.firstIndex { $0.contains(" IN {") })
    let column =
      lines[line].distance(
        from: lines[line].startIndex, to: try #require(lines[line].firstRange(of: " IN {")).lowerBound) + 2
    #expect(
      result.standardOutput
        == "\(bundle)/Info.plist:\(line + 1):\(column): NSExtensionActivationRule: invalid predicate: \"IN\" is an operator of Apple's NSPredicate that xdg-share does not have; use == with OR\n"
    )
  }
}
