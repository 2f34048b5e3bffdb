import Foundation
import ShareCore
import SharePOSIX
import ShareTestSupport
import Testing

/// `xdg-share why`: what a service was offered, its rule clause by clause, and the verdict, with
/// real content detection; the exit statuses scripts rely on; the JSON keys.
@Suite struct WhyTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
    try BundleFixture(
      id: "com.example.myshare", name: "MyShare",
      ruleXML: BundleFixture.activationDictionary([("SupportsImageWithMaxCount", "<integer>2</integer>")])
    ).write(into: desktop.userExtensions)
    try BundleFixture(
      id: "com.example.pictures", name: "Pictures",
      ruleXML: BundleFixture.predicate(
        """
        SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, \
        ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image").@count == $e.attachments.@count).@count == 1
        """)
    ).write(into: desktop.userExtensions)
    try desktop.writeFile(named: "notes.txt", contents: "some notes\n")
    // A PNG by its content, whatever its name says.
    try desktop.writeFile(named: Array("photo\nnamed badly.dat".utf8), contents: Self.png)
    try desktop.writeFile(named: Array("a.png".utf8), contents: Self.png)
  }

  static let png: [UInt8] =
    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D] + Array("IHDR".utf8)
    + [UInt8](repeating: 0, count: 17)

  /// What the issue asks of it, as an author reads it: the items as rules see them, the clause
  /// that refused which item, and the words of the refusal.
  @Test func aRefusalNamesTheClauseTheItemAndWhatTheServiceTakes() throws {
    let result = try Tool.run(["why", "com.example.myshare", "notes.txt"], on: desktop)
    #expect(result.status == 7)
    #expect(result.standardError.isEmpty)
    let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    #expect(lines.first == "MyShare (com.example.myshare)")
    #expect(lines.contains("  notes.txt (file)"))
    #expect(lines.contains("    type: text/plain, found by its name"))
    #expect(lines.contains { $0.hasPrefix("    as rules see it: public.plain-text, text/plain") })
    #expect(
      lines.contains(
        "  ✗ every attachment of a kind the rule declares (strict matching) — notes.txt of no declared kind"))
    #expect(lines.contains("Refused by: every attachment of a kind the rule declares (strict matching)"))
    #expect(
      lines.last(where: { !$0.isEmpty })
        == "MyShare takes up to 2 images; notes.txt is a text document (public.plain-text)")
  }

  @Test func theSameWordsAsTheShareItself() throws {
    let why = try Tool.run(["why", "com.example.pictures", "a.png", "notes.txt"], on: desktop)
    let share = try Tool.run(["--service", "com.example.pictures", "a.png", "notes.txt"], on: desktop)
    #expect(why.status == 7)
    #expect(share.status == 7)
    let words = "Pictures takes only images (public.image); notes.txt is a text document (public.plain-text)"
    #expect(why.standardOutput.hasSuffix(words + "\n"))
    #expect(share.standardError == "xdg-share: \(words)\n")
  }

  @Test func anAcceptedSelectionExitsZero() throws {
    let result = try Tool.run(["why", "com.example.pictures", "--", "a.png"], on: desktop)
    #expect(result.status == 0)
    #expect(result.standardOutput.hasSuffix("Offered: Pictures accepts these items.\n"))
  }

  @Test func aTypeFoundByContentSaysSo() throws {
    let result = try Tool.run(
      [Array("why".utf8), Array("com.example.pictures".utf8), Array("photo\nnamed badly.dat".utf8)],
      on: desktop)
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("  photo\\nnamed badly.dat (file)\n"))
    #expect(result.standardOutput.contains("    type: image/png, found by its content"))
  }

  @Test func noSuchServiceIsSixAndSuggests() throws {
    let result = try Tool.run(["why", "com.example.myshar", "a.png"], on: desktop)
    #expect(result.status == 6)
    #expect(
      result.standardError
        == "xdg-share: no share service 'com.example.myshar'; did you mean 'com.example.myshare'?\n")
  }

  @Test func withoutItemsItIsAUsageError() throws {
    #expect(try Tool.run(["why", "com.example.myshare"], on: desktop).status == 2)
    #expect(try Tool.run(["why"], on: desktop).status == 2)
  }

  @Test func anUnreadableFileIsOne() throws {
    let result = try Tool.run(["why", "com.example.myshare", "missing.png"], on: desktop)
    #expect(result.status == 1)
    #expect(result.standardError.hasSuffix("missing.png: no such file or directory\n"))
  }

  /// Hidden by the user: said first, and not offered, whatever the rule says.
  @Test func aHiddenServiceSaysSoFirst() throws {
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/config/xdg-share", withIntermediateDirectories: true)
    try "[Services]\nHidden=com.example.pictures;\n".write(
      toFile: "\(desktop.root)/config/xdg-share/settings.ini", atomically: true, encoding: .utf8)
    let result = try Tool.run(["why", "com.example.pictures", "a.png"], on: desktop)
    #expect(result.status == 7)
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines[2].hasPrefix("Not offered: Pictures is hidden: you hid it"))
    #expect(lines.last == "The rule accepts these items, but Pictures is not offered (see above).")
    let json = try Self.object(try Tool.run(["why", "--json", "com.example.pictures", "a.png"], on: desktop))
    #expect(json["accepted"] as? Bool == false)
    #expect(json["ruleAccepts"] as? Bool == true)
    let obstacles = try #require(json["obstacles"] as? [[String: Any]])
    #expect(obstacles.first?["reason"] as? String == "hidden")
  }

  @Test func aMissingProgramSaysWhichFirst() throws {
    try BundleFixture(
      id: "com.example.needy", name: "Needy",
      ruleXML: BundleFixture.activationDictionary([("SupportsText", "<true/>")]),
      extraXML: "<key>XDGShareRequiredPrograms</key><array><string>no-such-program-here</string></array>"
    ).write(into: desktop.userExtensions)
    let result = try Tool.run(["why", "com.example.needy", "--text", "hi"], on: desktop)
    #expect(result.status == 7)
    #expect(
      result.standardOutput.contains(
        "Not offered: Needy needs the program no-such-program-here (not on PATH)\n"))
    let json = try Self.object(
      try Tool.run(["why", "com.example.needy", "--json", "--text", "hi"], on: desktop))
    let obstacle = try #require((json["obstacles"] as? [[String: Any]])?.first)
    #expect(obstacle["reason"] as? String == "missing-requirements")
    #expect(obstacle["programs"] as? [String] == ["no-such-program-here"])
  }

  /// An invalid bundle is found by its identifier all the same, and says what is wrong.
  @Test func anInvalidBundleSaysWhyItDoesNotLoad() throws {
    var broken = BundleFixture(
      id: "com.example.broken", name: "Broken", ruleXML: BundleFixture.predicate("TRUEPREDICATE AND"))
    broken.executableName = "run"
    try broken.write(into: desktop.userExtensions)
    let result = try Tool.run(["why", "com.example.broken", "a.png"], on: desktop)
    #expect(result.status == 7)
    #expect(
      result.standardOutput.contains(
        "Not offered: Broken is invalid: its bundle does not load (1 error; see xdg-share validate)\n"))
    #expect(result.standardOutput.contains("NSExtensionActivationRule: invalid predicate"))
    #expect(result.standardOutput.hasSuffix("Rule: not read, as the bundle is invalid\n"))
    let json = try Self.object(try Tool.run(["why", "--json", "com.example.broken", "a.png"], on: desktop))
    #expect((json["obstacles"] as? [[String: Any]])?.first?["reason"] as? String == "invalid")
    #expect(json["rule"] == nil)
  }

  /// The same bundle installed twice: the one used, and the other named.
  @Test func aShadowedCopyIsNamed() throws {
    try BundleFixture(
      id: "com.example.myshare", name: "MyShare (system)",
      ruleXML: BundleFixture.activationDictionary([("SupportsText", "<true/>")])
    ).write(into: desktop.systemExtensions)
    let result = try Tool.run(["why", "com.example.myshare", "a.png"], on: desktop)
    #expect(result.status == 0)
    #expect(
      result.standardOutput.contains(
        "Also: \(desktop.systemExtensions)/com.example.myshare.shareext, with the same identifier, read after the one above and so not used\n"
      ))
  }

  /// A bundle by its path, installed or not: what an author checks before installing.
  @Test func aBundleByItsPath() throws {
    let bundle = try BundleFixture(
      id: "com.example.draft", name: "Draft",
      ruleXML: BundleFixture.activationDictionary([("SupportsText", "<true/>")])
    ).write(into: desktop.files)
    #expect(try Tool.run(["why", bundle, "--text", "hello"], on: desktop).status == 0)
    #expect(try Tool.run(["why", bundle, "a.png"], on: desktop).status == 7)
    #expect(try Tool.run(["why", "\(desktop.files)/nothing.shareext", "a.png"], on: desktop).status == 6)
  }

  /// Every key the documentation promises, and the trace as data.
  @Test func theJSONHasTheDocumentedKeys() throws {
    let json = try Self.object(
      try Tool.run(
        ["why", "--json", "com.example.pictures", "a.png", "notes.txt", "--url", "https://example.org/"],
        on: desktop))
    #expect(
      Set(json.keys) == [
        "service", "name", "bundle", "accepted", "ruleAccepts", "obstacles", "otherBundles", "items", "rule",
        "clauses", "refusedBy", "message", "entitlements",
      ])
    #expect(json["service"] as? String == "com.example.pictures")
    #expect(json["accepted"] as? Bool == false)
    #expect(
      json["refusedBy"] as? String
        == "ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.image\"")
    let items = try #require(json["items"] as? [[String: Any]])
    #expect(items.map { $0["kind"] as? String } == ["file", "file", "link"])
    #expect(items[0]["foundBy"] as? String == "name")
    #expect((items[0]["typeIdentifiers"] as? [String])?.prefix(2) == ["public.png", "image/png"])
    #expect((items[0]["conformsTo"] as? [String])?.contains("public.image") == true)
    #expect(items[2]["url"] as? String == "https://example.org/")
    #expect(items[2]["foundBy"] as? String == "kind")
    let rule = try #require(json["rule"] as? [String: Any])
    #expect(rule["form"] as? String == "predicate")
    let clause = try #require((json["clauses"] as? [[String: Any]])?.first)
    #expect(clause["holds"] as? Bool == false)
    #expect(clause["found"] as? String == "0 of 1 item, against 1")
    #expect((clause["clauses"] as? [[String: Any]])?.first?["clause"] as? String == "item 1")
  }

  /// `validate` warns of rules that accept nothing or everything, naming the clause.
  @Test(arguments: [
    ("TRUEPREDICATE", "warning: TRUEPREDICATE accepts everything"),
    (
      "extensionItems.@count == 2",
      "warning: this rule accepts nothing, so the service is never offered: extensionItems.@count == 2 can never hold"
    ),
    (
      "ANY extensionItems.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO \"com.example.nowhere\"",
      "warning: no MIME type of this system is \"com.example.nowhere\" or conforms to it"
    ),
  ])
  func validateWarnsOfRulesThatCannotWork(_ rule: String, _ warning: String) throws {
    let bundle = try BundleFixture(
      id: "com.example.lint", name: "Lint", ruleXML: BundleFixture.predicate(rule)
    )
    .write(into: desktop.files)
    let result = try Tool.run(["validate", bundle], on: desktop)
    #expect(result.status == 0)
    #expect(
      result.standardOutput.contains("NSExtensionActivationRule: \(warning)"), "\(result.standardOutput)")
    let install = try Tool.run(["install", bundle], on: desktop)
    #expect(install.status == 0)
    #expect(install.standardError.contains(warning))
  }

  static func object(_ result: Tool.Result) throws -> [String: Any] {
    try #require(
      JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
      "\(result.standardError)")
  }
}
