import Foundation
import ShareTestSupport
import Testing

/// What `why` and `doctor` print, text and JSON, whole: golden files in `Snapshots/`
/// (`why-*`, `doctor-*`), so that any change to their words, order or keys shows.
///
/// Each runs in a throw-away desktop, whose folder (`mkdtemp`) differs from run to run: it is
/// written `<root>` in the golden files. The types are this machine's shared-mime-info's, as in
/// every test of `why`; the services take a PNG and a text file, whose types it has always had.
@Suite struct ReportGoldenTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  /// `output` with the desktop's folder written `<root>`.
  func normalized(_ output: String) -> String {
    output.replacingOccurrences(of: desktop.root, with: "<root>")
  }

  /// Runs `xdg-share arguments`, expects `status` and nothing on standard error, and compares
  /// the output with `Snapshots/<name>.txt`.
  func expectGolden(
    _ arguments: [String], status: Int32, named name: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let result = try Tool.run(arguments, on: desktop)
    #expect(result.status == status, "\(result.standardError)", sourceLocation: sourceLocation)
    #expect(result.standardError.isEmpty, "\(result.standardError)", sourceLocation: sourceLocation)
    try Snapshot.assertMatches(normalized(result.standardOutput), named: name, sourceLocation: sourceLocation)
  }

  /// The `why` cases' desktop: a dictionary rule for up to two images, a predicate for images only,
  /// an invalid bundle (its program is missing and its predicate does not parse), a PNG and a text.
  func writeWhyDesktop() throws {
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
    var broken = BundleFixture(
      id: "com.example.broken", name: "Broken", ruleXML: BundleFixture.predicate("TRUEPREDICATE AND"))
    broken.executableName = "run"
    let brokenPath = try broken.write(into: desktop.userExtensions)
    try FileManager.default.removeItem(atPath: "\(brokenPath)/run")
    try desktop.writeFile(named: Array("a.png".utf8), contents: WhyTests.png)
    try desktop.writeFile(named: "notes.txt", contents: "some notes\n")
  }

  @Test(arguments: [
    // Offered: the rule accepts, nothing stands in the way.
    ("why-offered", ["com.example.pictures", "a.png"], Int32(0)),
    // Refused, with the trace clause by clause and the words of the refusal.
    ("why-refused", ["com.example.myshare", "a.png", "a.png", "notes.txt"], Int32(7)),
    ("why-refused-predicate", ["com.example.pictures", "a.png", "notes.txt"], Int32(7)),
    // An invalid bundle: found by its identifier, its errors, no rule.
    ("why-invalid", ["com.example.broken", "a.png"], Int32(7)),
  ])
  func why(_ name: String, _ arguments: [String], _ status: Int32) throws {
    try writeWhyDesktop()
    try expectGolden(["why"] + arguments, status: status, named: name)
    try expectGolden(["why", "--json"] + arguments, status: status, named: name + "-json")
  }

  /// Hidden by the user: said first, whatever the rule says.
  @Test func whyHidden() throws {
    try writeWhyDesktop()
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/config/xdg-share", withIntermediateDirectories: true)
    try "[Services]\nHidden=com.example.pictures;\n".write(
      toFile: "\(desktop.root)/config/xdg-share/settings.ini", atomically: true, encoding: .utf8)
    try expectGolden(["why", "com.example.pictures", "a.png"], status: 7, named: "why-hidden")
    try expectGolden(["why", "--json", "com.example.pictures", "a.png"], status: 7, named: "why-hidden-json")
  }

  /// A fresh install: no folder of bundles yet, no entries written; nothing needs the user.
  @Test func doctorOnAFreshInstall() throws {
    try expectGolden(["doctor"], status: 0, named: "doctor-fresh")
    try expectGolden(["doctor", "--json"], status: 0, named: "doctor-fresh-json")
  }

  /// A fresh install with a service that needs a program this desktop lacks (Send via KDE
  /// Connect without KDE Connect): it is not offered, which is worth knowing, but nothing needs
  /// the user, so `doctor` exits 0 and says so, in its words and in its JSON.
  @Test func doctorWithAServiceLackingAProgram() throws {
    try BundleFixture(
      id: "com.example.phone", name: "Phone",
      ruleXML: BundleFixture.activationDictionary([("SupportsFileWithMaxCount", "<integer>5</integer>")]),
      extraXML: "<key>XDGShareRequiredPrograms</key><array><string>no-such-program-here</string></array>"
    ).write(into: desktop.userExtensions)
    try expectGolden(["doctor"], status: 0, named: "doctor-requirements-missing")
    try expectGolden(["doctor", "--json"], status: 0, named: "doctor-requirements-missing-json")
  }

  /// A valid bundle and an invalid one (its program missing): the invalid one needs the user.
  @Test func doctorWithAnInvalidBundle() throws {
    try BundleFixture(
      id: "com.example.fine", name: "Fine",
      ruleXML: BundleFixture.activationDictionary([("SupportsFileWithMaxCount", "<integer>5</integer>")])
    ).write(into: desktop.userExtensions)
    var broken = BundleFixture(
      id: "com.example.broken", name: "Broken",
      ruleXML: BundleFixture.activationDictionary([("SupportsFileWithMaxCount", "<integer>5</integer>")]))
    broken.executableName = "run"
    let brokenPath = try broken.write(into: desktop.userExtensions)
    try FileManager.default.removeItem(atPath: "\(brokenPath)/run")
    try expectGolden(["doctor"], status: 1, named: "doctor-invalid")
    try expectGolden(["doctor", "--json"], status: 1, named: "doctor-invalid-json")
  }
}
