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
      "Info.plist: NSExtensionActivationSupportsImageWithMaxCount: expected a non-negative integer, found the string \"three\""
    ),
    (
      BundleFixture.dictionary([("NSExtensionActivationSupportsFileWithMaxCount", "<integer>-1</integer>")]),
      "Info.plist: NSExtensionActivationSupportsFileWithMaxCount: expected a non-negative integer, found the integer -1"
    ),
    (
      BundleFixture.dictionary([("NSExtensionActivationSupportsText", "<string>maybe</string>")]),
      "Info.plist: NSExtensionActivationSupportsText: expected a boolean, found the string \"maybe\""
    ),
    (
      BundleFixture.dictionary([("NSExtensionActivationSupportsImageWithMaxCont", "<integer>1</integer>")]),
      "Info.plist: NSExtensionActivationSupportsImageWithMaxCont: unknown key; did you mean NSExtensionActivationSupportsImageWithMaxCount?"
    ),
    (
      "<array><string>public.image</string></array>",
      "Info.plist: NSExtensionActivationRule: expected a dictionary or a predicate string, found an array"
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
    #expect(lines.first?.hasPrefix("Info.plist: NSExtensionActivationRule: invalid predicate: ") == true)
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
        \(bundle)/Info.plist: CFBundleIdentifier: expected a reverse-DNS identifier of letters, digits, '.' and '-', found the string "com.example/bad id"
        \(bundle)/Info.plist: CFBundleExecutable: expected an executable file in the bundle, found no such file "program"

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
    let prefix = "\(bundle)/Info.plist: CFBundleExecutable: expected an executable file in the bundle, found"
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
        \(bundle)/Info.plist: NSExtensionPointIdentifier: expected "com.apple.share-services", found the string "com.apple.widget-extension"
        \(bundle)/Info.plist: NSExtensionActivationRule: expected a dictionary or a predicate string, found nothing (the key is missing)

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
        \(bundle)/Info.plist: cannot be read: not a property list
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
        "Info.plist: XDGShareRequiredProgram: warning: unknown key; did you mean XDGShareRequiredPrograms?"
      ])
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
