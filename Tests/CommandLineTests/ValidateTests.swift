import Foundation
import ShareTestSupport
import Testing

/// `xdg-share validate`: one line per problem, naming file, key, expected and found.
@Suite struct ValidateTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  func validate(_ fixture: BundleFixture) throws -> (status: Int32, lines: [String]) {
    let bundle = try fixture.write(into: desktop.files)
    let result = try Tool.run(["validate", bundle], on: desktop)
    let lines = result.standardOutput.split(separator: "\n").map {
      $0.replacingOccurrences(of: bundle + "/", with: "")
    }
    return (result.status, lines)
  }

  /// Any item: a rule that draws no warning (`TRUEPREDICATE` would, being offered for everything).
  static let anyItem = BundleFixture.predicate(
    "ANY extensionItems.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.item\"")

  @Test func validBundlePrintsNothing() throws {
    let (status, lines) = try validate(
      BundleFixture(id: "com.example.ok", name: "OK", ruleXML: Self.anyItem))
    #expect(status == 0)
    #expect(lines.isEmpty)
  }

  @Test(arguments: [
    (
      BundleFixture.dictionary([("NSExtensionActivationSupportsImageWithMaxCount", "<string>three</string>")]
      ),
      "Info.plist:13:110: NSExtensionActivationSupportsImageWithMaxCount: expected a non-negative integer, found the string \"three\""
    ),
    (
      BundleFixture.dictionary([("NSExtensionActivationSupportsFileWithMaxCount", "<integer>-1</integer>")]),
      "Info.plist:13:109: NSExtensionActivationSupportsFileWithMaxCount: expected a non-negative integer, found the integer -1"
    ),
    (
      BundleFixture.dictionary([("NSExtensionActivationSupportsText", "<string>maybe</string>")]),
      "Info.plist:13:97: NSExtensionActivationSupportsText: expected a boolean, found the string \"maybe\""
    ),
    (
      "<array><string>public.image</string></array>",
      "Info.plist:13:47: NSExtensionActivationRule: expected a dictionary or a predicate string, found an array"
    ),
  ])
  func brokenRule(_ rule: String, _ expected: String) throws {
    let (status, lines) = try validate(BundleFixture(id: "com.example.bad", name: "Bad", ruleXML: rule))
    #expect(status == 1)
    #expect(lines == [expected])
  }

  @Test func badPredicateNamesTheColumn() throws {
    let (status, lines) = try validate(
      BundleFixture(
        id: "com.example.bad", name: "Bad",
        ruleXML: BundleFixture.predicate("SUBQUERY(extensionItems, $x, TRUEPREDICATE).@count == ")))
    #expect(status == 1)
    #expect(lines.count == 1)
    // At the mistake in the file: the end of the predicate, where `</string>` begins (issue 32;
    // the column is the file's, so the words need none of their own).
    #expect(
      lines.first
        == "Info.plist:13:109: NSExtensionActivationRule: invalid predicate: expected a value, key path or SUBQUERY, found end of predicate"
    )
  }

  @Test func badIdentifierAndMissingExecutable() throws {
    var fixture = BundleFixture(id: "com.example/bad id", name: "Bad", ruleXML: Self.anyItem)
    fixture.executableName = "program"
    let bundle = try fixture.write(into: desktop.files, folder: "bad")
    try FileManager.default.removeItem(atPath: "\(bundle)/program")
    let result = try Tool.run(["validate", bundle], on: desktop)
    #expect(result.status == 1)
    #expect(
      result.standardOutput == """
        \(bundle)/Info.plist:5:32: CFBundleIdentifier: expected a reverse-DNS identifier of letters, digits, '.' and '-', found the string "com.example/bad id"
        \(bundle)/Info.plist:7:32: CFBundleExecutable: expected an executable file in the bundle, found no such file "program"

        """)
  }

  /// An Info.plist kept elsewhere and linked into the bundle is read where the link leads.
  @Test func aLinkedInfoPlistIsRead() throws {
    let bundle = try BundleFixture(id: "com.example.linked", name: "Linked", ruleXML: Self.anyItem)
      .write(into: desktop.files, folder: "linked")
    try FileManager.default.moveItem(atPath: bundle + "/Info.plist", toPath: desktop.files + "/Info.plist")
    try FileManager.default.createSymbolicLink(
      atPath: bundle + "/Info.plist", withDestinationPath: "../Info.plist")
    let result = try Tool.run(["validate", bundle], on: desktop)
    #expect(result.status == 0, "\(result.standardOutput)")
  }

  /// What is there instead of the program, said as it is: the commonest first mistakes.
  @Test func theProgramThatCannotRunSaysWhy() throws {
    var fixture = BundleFixture(id: "com.example.noexec", name: "No exec", ruleXML: Self.anyItem)
    fixture.executableName = "program"
    let bundle = try fixture.write(into: desktop.files, folder: "noexec")
    let prefix =
      "\(bundle)/Info.plist:7:32: CFBundleExecutable: expected an executable file in the bundle, found"
    chmod("\(bundle)/program", 0o644)
    #expect(
      try Tool.run(["validate", bundle], on: desktop).standardOutput
        == "\(prefix) \"program\" without permission to run it (chmod +x)\n")
    try FileManager.default.removeItem(atPath: "\(bundle)/program")
    try FileManager.default.createSymbolicLink(
      atPath: "\(bundle)/program", withDestinationPath: "../elsewhere")
    #expect(
      try Tool.run(["validate", bundle], on: desktop).standardOutput
        == "\(prefix) \"program\", a symbolic link to nothing (\"../elsewhere\")\n")
    try FileManager.default.removeItem(atPath: "\(bundle)/program")
    try FileManager.default.createDirectory(atPath: "\(bundle)/program", withIntermediateDirectories: false)
    #expect(
      try Tool.run(["validate", bundle], on: desktop).standardOutput == "\(prefix) a directory \"program\"\n")
    let nowhere = try Tool.run(["validate", "\(desktop.files)/nowhere.shareext"], on: desktop)
    #expect(nowhere.status == 1)
    #expect(nowhere.standardOutput == "\(desktop.files)/nowhere.shareext: no such file or directory\n")
  }

  @Test(arguments: ["<dict/>", "<string>FALSEPREDICATE</string>"])
  func aRuleThatAcceptsNothingIsWarnedAbout(_ rule: String) throws {
    let bundle = try BundleFixture(id: "com.example.never", name: "Never", ruleXML: rule)
      .write(into: desktop.files, folder: "never")
    let result = try Tool.run(["validate", bundle], on: desktop)
    #expect(result.status == 0, "a warning, not an error")
    #expect(result.standardOutput.contains("NSExtensionActivationRule: "), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("this rule accepts nothing"), "\(result.standardOutput)")
  }

  @Test func missingRuleAndWrongExtensionPoint() throws {
    let bundle = "\(desktop.files)/odd.shareext"
    try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict>
    <key>CFBundleIdentifier</key><string>com.example.odd</string>
    <key>CFBundleName</key><string>Odd</string>
    <key>CFBundleExecutable</key><string>run</string>
    <key>NSExtension</key><dict>
      <key>NSExtensionPointIdentifier</key><string>com.apple.widget-extension</string>
      <key>NSExtensionAttributes</key><dict/>
    </dict>
    </dict></plist>
    """.write(toFile: "\(bundle)/Info.plist", atomically: true, encoding: .utf8)
    try "#!/bin/sh\n".write(toFile: "\(bundle)/run", atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: "\(bundle)/run")
    let result = try Tool.run(["validate", "\(bundle)/Info.plist"], on: desktop)
    #expect(result.status == 1)
    #expect(
      result.standardOutput == """
        \(bundle)/Info.plist:7:40: NSExtensionPointIdentifier: expected "com.apple.share-services" or "com.apple.ui-services", found the string "com.apple.widget-extension"
        \(bundle)/Info.plist:8:35: NSExtensionActivationRule: expected a dictionary or a predicate string, found nothing (the key is missing)

        """)
  }

  @Test func notAPropertyListAndNothingThere() throws {
    let bundle = "\(desktop.files)/garbage.shareext"
    try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
    try "this is not a plist <".write(toFile: "\(bundle)/Info.plist", atomically: true, encoding: .utf8)
    let result = try Tool.run(["validate", bundle, "\(desktop.files)/nothing.shareext"], on: desktop)
    #expect(result.status == 1)
    #expect(
      result.standardOutput == """
        \(bundle)/Info.plist:1:6: cannot be read: not a property list: expected '=' or ';' after the key
        \(desktop.files)/nothing.shareext: no such file or directory

        """)
  }

  @Test func warningsDoNotFailValidation() throws {
    let (status, lines) = try validate(
      BundleFixture(
        id: "com.example.warn", name: "Warn", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
        extraXML: "<key>XDGShareRequiredProgram</key><array><string>sh</string></array>"))
    #expect(status == 0)
    #expect(
      lines == [
        "Info.plist:13:47: NSExtensionActivationRule: warning: TRUEPREDICATE accepts everything, so the service is offered for every file, link and text shared; name what it takes (e.g. NSExtensionActivationSupportsImageWithMaxCount)",
        "Info.plist:8:37: XDGShareRequiredProgram: warning: unknown key; did you mean XDGShareRequiredPrograms?",
      ])
  }

  /// Apple's tools install an extension whose rule has a key they do not know (shipped apps carry
  /// `NSExtensionActivationSupportsPlainText`): a warning with its likely meaning, not an error.
  @Test func unknownRuleKeysAreWarnings() throws {
    let (status, lines) = try validate(
      BundleFixture(
        id: "com.example.typo", name: "Typo",
        ruleXML: BundleFixture.dictionary([
          ("NSExtensionActivationSupportsImageWithMaxCont", "<integer>1</integer>"),
          ("NSExtensionActivationSupportsPlainText", "<true/>"),
          ("NSExtensionActivationSupportsText", "<true/>"),
        ])))
    #expect(status == 0)
    #expect(
      lines == [
        "Info.plist:13:109: NSExtensionActivationSupportsImageWithMaxCont: warning: unknown key; did you mean NSExtensionActivationSupportsImageWithMaxCount?",
        "Info.plist:13:178: NSExtensionActivationSupportsPlainText: warning: unknown key; did you mean NSExtensionActivationSupportsText?",
      ])
  }

  /// The position is that of the value, counted after comments of several lines and CRLF ends.
  @Test func anXMLProblemSaysLineAndColumn() throws {
    let bundle = try BundleFixture(id: "com.example.where", name: "Where", ruleXML: Self.anyItem)
      .write(into: desktop.files, folder: "where")
    try """
    <?xml version="1.0" encoding="UTF-8"?>\r
    <!-- a comment\r
         of three\r
         lines -->\r
    <plist version="1.0"><dict>\r
      <key>CFBundleIdentifier</key>\r
      \t<string>com.example.where</string>\r
      <key>CFBundleName</key>  <integer>7</integer>\r
    </dict></plist>\r

    """.write(toFile: "\(bundle)/Info.plist", atomically: true, encoding: .utf8)
    let result = try Tool.run(["validate", bundle], on: desktop)
    #expect(result.status == 1)
    #expect(
      result.standardOutput.split(separator: "\n").first
        == "\(bundle)/Info.plist:8:28: CFBundleName: expected a string, found the integer 7")
  }

  @Test func contentAfterTheRootIsRefused() throws {
    let bundle = try BundleFixture(id: "com.example.after", name: "After", ruleXML: Self.anyItem)
      .write(into: desktop.files, folder: "after")
    let path = "\(bundle)/Info.plist"
    let plist = try String(contentsOfFile: path, encoding: .utf8)
    try (plist + "\n<!-- allowed --><?allowed too?>\n  <dict/>\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    let result = try Tool.run(["validate", bundle], on: desktop)
    #expect(result.status == 1)
    #expect(
      result.standardOutput
        == "\(path):18:3: cannot be read: not a property list: content after the root element\n")
  }

  @Test func binaryPropertyListLoads() throws {
    let bundle = try BundleFixture(id: "com.example.binary", name: "Binary", ruleXML: Self.anyItem)
      .write(into: desktop.userExtensions)
    let xml = try Data(contentsOf: URL(fileURLWithPath: "\(bundle)/Info.plist"))
    let plist = try PropertyListSerialization.propertyList(from: xml, format: nil)
    let binary = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    try binary.write(to: URL(fileURLWithPath: "\(bundle)/Info.plist"))
    #expect(try Tool.run(["validate", bundle], on: desktop).status == 0)
    #expect(try Tool.run(["list"], on: desktop).standardOutput.contains("com.example.binary"))
  }

  // MARK: The seeds' extension dictionaries

  func validate(_ seed: SeedBundle, folder: String, part: String? = nil) throws -> (
    status: Int32, lines: [String]
  ) {
    let bundle = try seed.write(into: desktop.files, folder: folder, part: part)
    let result = try Tool.run(["validate", bundle], on: desktop)
    let lines = result.standardOutput.split(separator: "\n").map {
      $0.replacingOccurrences(of: bundle + "/", with: "")
    }
    return (result.status, lines)
  }

  /// ShareByMail (both printings) and Apple's template: no NSExtensionAttributes, so offered for
  /// everything; said at the NSExtension dictionary.
  @Test(arguments: [
    ("template", SeedBundle.shareByMailTemplate, 5), ("principal", SeedBundle.shareByMail, 5),
    ("apple", SeedBundle.appleTemplate, 1),
  ])
  func seedsWithoutAttributesAreValidWithAWarning(_ folder: String, _ seed: SeedBundle, _ column: Int) throws
  {
    let (status, lines) = try validate(seed, folder: folder)
    #expect(status == 0)
    #expect(
      lines == [
        "Info.plist:11:\(column): NSExtensionAttributes: warning: missing, so the service is offered for everything, as with TRUEPREDICATE; to restrict it, add NSExtensionAttributes with an NSExtensionActivationRule (e.g. NSExtensionActivationSupportsImageWithMaxCount)"
      ])
  }

  @Test func hoisNestedRuleIsIgnoredWithAWarning() throws {
    let (status, lines) = try validate(.hoi, folder: "hoi")
    #expect(status == 0)
    #expect(
      lines == [
        "Info.plist:17:4: NSExtensionActivationRule: warning: ignored: an undocumented key Xcode adds (here the string \"TRUEPREDICATE\"); the keys beside it decide what the service accepts"
      ])
  }

  /// ShareByMail as printed, with the `</key>` it never opened: refused where the tag is.
  @Test func theStrayCloseTagIsRefusedWhereItIs() throws {
    let (status, lines) = try validate(.shareByMail, folder: "stray", part: SeedBundle.shareByMail.printed)
    #expect(status == 1)
    #expect(lines == ["Info.plist:17:1: cannot be read: not a property list: expected </dict>, found </key>"])
  }

  /// Installed, the seeds are listed for what they take: ShareByMail for anything, Hoi for one
  /// image; an action extension is listed as a share extension is, and `--json` has no new key.
  @Test func seedsAndAnActionExtensionAreListed() throws {
    try SeedBundle.shareByMail.write(into: desktop.userExtensions)
    try SeedBundle.hoi.write(into: desktop.userExtensions)
    let action = BundleFixture(
      id: "com.example.action", name: "Action",
      ruleXML: BundleFixture.dictionary([("NSExtensionActivationSupportsText", "<true/>")]))
    let bundle = try action.write(into: desktop.userExtensions)
    let plist = try String(contentsOfFile: bundle + "/Info.plist", encoding: .utf8)
    try plist.replacingOccurrences(of: "com.apple.share-services", with: "com.apple.ui-services").write(
      toFile: bundle + "/Info.plist", atomically: true, encoding: .utf8)
    #expect(
      try String(contentsOfFile: bundle + "/Info.plist", encoding: .utf8).contains("com.apple.ui-services"))
    #expect(try Tool.run(["validate", bundle], on: desktop).standardOutput == "")

    let all = try Tool.run(["list"], on: desktop)
    #expect(all.status == 0)
    #expect(
      all.standardOutput == """
        com.example.action                            Action
        ch.iphonso.hoi.share                          Hoi
        com.martinnormark.ShareByMail.ShareExtension  ShareByMail

        """)
    let png = try desktop.writeFile(named: Array("photo.png".utf8), contents: tinyPNG)
    let forPNG = try Tool.run([Array("list".utf8), Array("--json".utf8), png], on: desktop)
    let objects = try #require(
      try JSONSerialization.jsonObject(with: Data(forPNG.standardOutput.utf8)) as? [[String: Any]])
    #expect(
      objects.compactMap { $0["id"] as? String } == [
        "ch.iphonso.hoi.share", "com.martinnormark.ShareByMail.ShareExtension",
      ])
    let forText = try Tool.run(["list", "--json", "--text", "Hoi"], on: desktop)
    let texts = try #require(
      try JSONSerialization.jsonObject(with: Data(forText.standardOutput.utf8)) as? [[String: Any]])
    #expect(
      texts.compactMap { $0["id"] as? String } == [
        "com.example.action", "com.martinnormark.ShareByMail.ShareExtension",
      ])
    #expect(
      texts.allSatisfy {
        Set($0.keys).isSubset(of: ["id", "name", "icon", "description", "version", "bundle", "entitlements"])
      })
  }

  /// A bundle copied from an Xcode project before a build: the variables xdg-share would use are
  /// errors, the others warnings, each pointing at `xdg-share new --from-xcode`.
  @Test func unexpandedBuildVariablesAreReported() throws {
    var fixture = BundleFixture(
      id: "$(PRODUCT_BUNDLE_IDENTIFIER)", name: "Xcode", ruleXML: Self.anyItem,
      extraXML: "<key>CFBundleVersion</key><string>$(CURRENT_PROJECT_VERSION)</string>")
    fixture.executableName = "${EXECUTABLE_NAME}"
    let bundle = try fixture.write(into: desktop.files, folder: "xcode")
    let result = try Tool.run(["validate", bundle], on: desktop)
    #expect(result.status == 1)
    let hint =
      "which only Xcode expands (write the value, or make the bundle with xdg-share new --from-xcode)"
    #expect(
      result.standardOutput == """
        \(bundle)/Info.plist:5:32: CFBundleIdentifier: expected the value itself, found the Xcode build variable $(PRODUCT_BUNDLE_IDENTIFIER), \(hint)
        \(bundle)/Info.plist:7:32: CFBundleExecutable: expected the value itself, found the Xcode build variable ${EXECUTABLE_NAME}, \(hint)
        \(bundle)/Info.plist:8:29: CFBundleVersion: warning: expected the value itself, found the Xcode build variable $(CURRENT_PROJECT_VERSION), \(hint)

        """)
  }
}
