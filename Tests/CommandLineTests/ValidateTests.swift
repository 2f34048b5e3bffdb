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

  static let truePredicate = BundleFixture.predicate("TRUEPREDICATE")

  @Test func validBundlePrintsNothing() throws {
    let (status, lines) = try validate(
      BundleFixture(id: "com.example.ok", name: "OK", ruleXML: Self.truePredicate))
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
    #expect(
      lines.first?.hasPrefix("Info.plist:13:47: NSExtensionActivationRule: invalid predicate: ") == true)
    #expect(lines.first?.contains("column") == true)
  }

  @Test func badIdentifierAndMissingExecutable() throws {
    var fixture = BundleFixture(id: "com.example/bad id", name: "Bad", ruleXML: Self.truePredicate)
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
    let bundle = try BundleFixture(id: "com.example.linked", name: "Linked", ruleXML: Self.truePredicate)
      .write(into: desktop.files, folder: "linked")
    try FileManager.default.moveItem(atPath: bundle + "/Info.plist", toPath: desktop.files + "/Info.plist")
    try FileManager.default.createSymbolicLink(
      atPath: bundle + "/Info.plist", withDestinationPath: "../Info.plist")
    let result = try Tool.run(["validate", bundle], on: desktop)
    #expect(result.status == 0, "\(result.standardOutput)")
  }

  /// What is there instead of the program, said as it is: the commonest first mistakes.
  @Test func theProgramThatCannotRunSaysWhy() throws {
    var fixture = BundleFixture(id: "com.example.noexec", name: "No exec", ruleXML: Self.truePredicate)
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
        \(bundle)/Info.plist:7:40: NSExtensionPointIdentifier: expected "com.apple.share-services", found the string "com.apple.widget-extension"
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
        id: "com.example.warn", name: "Warn", ruleXML: Self.truePredicate,
        extraXML: "<key>XDGShareRequiredProgram</key><array><string>sh</string></array>"))
    #expect(status == 0)
    #expect(
      lines == [
        "Info.plist:8:37: XDGShareRequiredProgram: warning: unknown key; did you mean XDGShareRequiredPrograms?"
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
    let bundle = try BundleFixture(id: "com.example.where", name: "Where", ruleXML: Self.truePredicate)
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
    let bundle = try BundleFixture(id: "com.example.after", name: "After", ruleXML: Self.truePredicate)
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
    let bundle = try BundleFixture(id: "com.example.binary", name: "Binary", ruleXML: Self.truePredicate)
      .write(into: desktop.userExtensions)
    let xml = try Data(contentsOf: URL(fileURLWithPath: "\(bundle)/Info.plist"))
    let plist = try PropertyListSerialization.propertyList(from: xml, format: nil)
    let binary = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    try binary.write(to: URL(fileURLWithPath: "\(bundle)/Info.plist"))
    #expect(try Tool.run(["validate", bundle], on: desktop).status == 0)
    #expect(try Tool.run(["list"], on: desktop).standardOutput.contains("com.example.binary"))
  }
}
