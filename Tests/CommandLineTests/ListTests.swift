import Foundation
import ShareTestSupport
import Testing

/// `xdg-share list`, run as a user runs it, on a throw-away desktop.
@Suite struct ListTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
    // Hoi: one image or one web URL (a seed example).
    try BundleFixture(
      id: "ch.example.hoi", name: "Hoi",
      ruleXML: BundleFixture.dictionary([
        ("NSExtensionActivationSupportsImageWithMaxCount", "<integer>1</integer>"),
        ("NSExtensionActivationSupportsWebURLWithMaxCount", "<integer>1</integer>"),
      ])
    ).write(into: desktop.userExtensions)
    try BundleFixture(
      id: "com.example.anything", name: "Anything", ruleXML: BundleFixture.predicate("TRUEPREDICATE")
    )
    .write(into: desktop.systemExtensions)
    try BundleFixture(
      id: "com.example.text", name: "text only",
      ruleXML: BundleFixture.dictionary([("NSExtensionActivationSupportsText", "<true/>")])
    ).write(into: desktop.systemExtensions)
  }

  func ids(_ result: Tool.Result) throws -> [String] {
    let array = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]]
    return try #require(array).compactMap { $0["id"] as? String }
  }

  @Test func withoutItemsListsEveryServiceByName() throws {
    let result = try Tool.run(["list", "--json"], on: desktop)
    #expect(result.status == 0)
    #expect(try ids(result) == ["com.example.anything", "ch.example.hoi", "com.example.text"])
    let objects = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]]
    #expect(objects?.first?["name"] as? String == "Anything")
    #expect(objects?.first?["icon"] as? String == "document-send")
  }

  @Test func plainOutputShowsIdentifierAndName() throws {
    let result = try Tool.run(["list"], on: desktop)
    #expect(
      result.standardOutput == """
        com.example.anything  Anything
        ch.example.hoi        Hoi
        com.example.text      text only

        """)
  }

  @Test func pngWithoutExtensionIsDetectedByContent() throws {
    let png = try desktop.writeFile(named: Array("picture".utf8), contents: tinyPNG)
    let result = try Tool.run([Array("list".utf8), Array("--json".utf8), png], on: desktop)
    #expect(result.status == 0)
    #expect(try ids(result) == ["com.example.anything", "ch.example.hoi"])
  }

  @Test func twoImagesExceedHoisMaximum() throws {
    let a = try desktop.writeFile(named: Array("a.png".utf8), contents: tinyPNG)
    let b = try desktop.writeFile(named: Array("b.png".utf8), contents: tinyPNG)
    let result = try Tool.run(
      [Array("list".utf8), Array("--json".utf8), Array("--".utf8), a, b], on: desktop)
    #expect(try ids(result) == ["com.example.anything"])
  }

  @Test func textFileIsNotText() throws {
    try desktop.writeFile(named: "notes.txt", contents: "hello\n")
    let result = try Tool.run(["list", "--json", "notes.txt"], on: desktop)
    #expect(try ids(result) == ["com.example.anything"])
  }

  @Test func textAndLinks() throws {
    #expect(
      try ids(Tool.run(["list", "--json", "--text", "hi"], on: desktop)) == [
        "com.example.anything", "com.example.text",
      ])
    #expect(
      try ids(Tool.run(["list", "--json", "--url", "https://example.org/"], on: desktop)) == [
        "com.example.anything", "ch.example.hoi",
      ])
    #expect(
      try ids(
        Tool.run(["list", "--json", "--url=https://a.example/", "--url", "https://b.example/"], on: desktop))
        == ["com.example.anything"])
  }

  @Test func hostileFileNamesAreTakenByteForByte() throws {
    let names: [[UInt8]] = [
      Array("new\nline.png".utf8), [0x6C, 0x61, 0x74, 0x69, 0x6E, 0xE9, 0x2E, 0x70, 0x6E, 0x67],
      Array("--service".utf8), Array("$(touch pwned).png".utf8),
    ]
    for name in names {
      try desktop.writeFile(named: name, contents: tinyPNG)
      let result = try Tool.run(
        [Array("list".utf8), Array("--json".utf8), Array("--".utf8), name], on: desktop)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(try ids(result) == ["com.example.anything", "ch.example.hoi"])
    }
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.files)/pwned"))
  }

  @Test func missingFileIsReportedNotACrash() throws {
    let result = try Tool.run(["list", "--", "no such.png"], on: desktop)
    #expect(result.status == 1)
    #expect(result.standardError == "xdg-share: \(desktop.files)/no such.png: no such file or directory\n")
  }

  @Test func userBundleOverridesSystemBundleWithTheSameIdentifier() throws {
    try BundleFixture(
      id: "com.example.text", name: "Mine", ruleXML: BundleFixture.predicate("FALSEPREDICATE")
    )
    .write(into: desktop.userExtensions)
    let result = try Tool.run(["list"], on: desktop)
    #expect(result.standardOutput.contains("com.example.text      Mine"))
    #expect(!result.standardOutput.contains("text only"))
  }

  @Test func brokenBundleIsReportedAndSkipped() throws {
    try BundleFixture(
      id: "com.example.broken", name: "Broken",
      ruleXML: BundleFixture.dictionary([
        ("NSExtensionActivationSupportsImageWithMaxCount", "<string>three</string>")
      ])
    ).write(into: desktop.userExtensions)
    let result = try Tool.run(["list", "--json"], on: desktop)
    #expect(result.status == 0)
    #expect(try ids(result) == ["com.example.anything", "ch.example.hoi", "com.example.text"])
    #expect(
      result.standardError
        == "\(desktop.userExtensions)/com.example.broken.shareext/Info.plist:13:110: NSExtensionActivationSupportsImageWithMaxCount: expected a non-negative integer, found the string \"three\"\n"
    )
  }

  @Test func hiddenServicesAreNotOffered() throws {
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/config/xdg-share", withIntermediateDirectories: true)
    try "[Services]\nHidden=com.example.anything;\n".write(
      toFile: "\(desktop.root)/config/xdg-share/settings.ini", atomically: true, encoding: .utf8)
    #expect(try ids(Tool.run(["list", "--json"], on: desktop)) == ["ch.example.hoi", "com.example.text"])
  }

  @Test func requiredProgramsHideServicesWhoseProgramIsMissing() throws {
    try BundleFixture(
      id: "com.example.needs", name: "Needs", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      extraXML: "<key>XDGShareRequiredPrograms</key><array><string>no-such-program-xyz|sh</string></array>"
    ).write(into: desktop.userExtensions)
    try BundleFixture(
      id: "com.example.missing", name: "Missing", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      extraXML: "<key>XDGShareRequiredPrograms</key><array><string>no-such-program-xyz</string></array>"
    ).write(into: desktop.userExtensions)
    let listed = try ids(Tool.run(["list", "--json"], on: desktop))
    #expect(listed.contains("com.example.needs"))
    #expect(!listed.contains("com.example.missing"))
  }

  @Test func localizedNameFollowsTheLanguageLikeGettext() throws {
    let bundle = try BundleFixture(
      id: "com.example.l10n", name: "Share", ruleXML: BundleFixture.predicate("TRUEPREDICATE")
    )
    .write(into: desktop.userExtensions)
    try FileManager.default.createDirectory(atPath: "\(bundle)/de.lproj", withIntermediateDirectories: true)
    try "/* German */\n\"CFBundleDisplayName\" = \"Teilen\";\n".write(
      toFile: "\(bundle)/de.lproj/InfoPlist.strings", atomically: true, encoding: .utf8)
    func name(_ environment: [String: String]) throws -> String {
      try Tool.run(["list"], on: desktop, environment: environment).standardOutput
        .split(separator: "\n").first { $0.hasPrefix("com.example.l10n") }.map {
          String($0.split(separator: " ").last!)
        } ?? ""
    }
    #expect(try name(["LANG": "de_DE.UTF-8"]) == "Teilen")
    #expect(try name(["LANG": "fr_FR.UTF-8", "LANGUAGE": "fr:de"]) == "Teilen")
    #expect(try name(["LANG": "C", "LANGUAGE": "de"]) == "Share")
    #expect(try name(["LC_ALL": "en_US.UTF-8", "LANG": "de_DE.UTF-8"]) == "Share")
  }
}
