import Foundation
import ShareTestSupport
import Testing

@testable import ShareCore

/// `XDGShareComposeSheet`: the declarative compose sheet, read and checked like every other key.
@Suite struct ComposeSheetTests {
  let desktop: TemporaryDesktop
  let loader = BundleLoader(languages: [])

  init() throws {
    desktop = try TemporaryDesktop(prefix: "compose-sheet-test")
  }

  private func load(_ sheet: String, attributes: String = "") throws -> (BundleLoader.Outcome, String) {
    let bundle = try HandWrittenBundle(
      in: desktop.userExtensions,
      body: """
        <key>CFBundleIdentifier</key><string>org.example.micro</string>
        <key>CFBundleName</key><string>Micro</string>
        <key>CFBundleExecutable</key><string>share</string>
        <key>NSExtension</key><dict>
          <key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string>
          <key>NSExtensionAttributes</key><dict>
            <key>NSExtensionActivationRule</key>\(HandWrittenBundle.anyItem)\(attributes)
          </dict>
        </dict>
        \(sheet)
        """)
    return (loader.load(bundleAt: bundle.path), bundle.plist)
  }

  static let microblog = """
    <key>XDGShareComposeSheet</key><dict>
      <key>Title</key><string>Microblog</string>
      <key>PostButtonTitle</key><string>Toot</string>
      <key>Placeholder</key><string>What is new?</string>
      <key>MaximumCharacters</key><integer>100</integer>
      <key>ConfigurationItems</key><array>
        <dict>
          <key>Identifier</key><string>visibility</string><key>Title</key><string>Visibility</string>
          <key>Choices</key><array><string>Public</string><string>Followers</string></array>
          <key>Default</key><string>Followers</string>
        </dict>
        <dict><key>Identifier</key><string>server</string><key>Title</key><string>Server</string></dict>
        <dict>
          <key>Identifier</key><string>password</string><key>Title</key><string>Password</string>
          <key>Secure</key><true/>
        </dict>
      </array>
    </dict>
    """

  /// `HasText` false: a sheet with no text to write; without it, a text.
  @Test func aSheetMaySayItHasNoText() throws {
    let (outcome, _) = try load(
      """
      <key>XDGShareComposeSheet</key><dict>
        <key>HasText</key><false/>
        <key>ConfigurationItems</key><array>
          <dict><key>Identifier</key><string>folder</string><key>Title</key><string>Folder</string></dict>
        </array>
      </dict>
      """)
    #expect(outcome.problems == [])
    #expect(outcome.service?.composeSheet?.hasText == false)
    let (withText, _) = try load(Self.microblog)
    #expect(withText.service?.composeSheet?.hasText == true)
  }

  @Test func theDeclarationIsRead() throws {
    let (outcome, _) = try load(Self.microblog)
    #expect(outcome.problems == [])
    let sheet = try #require(outcome.service?.composeSheet)
    #expect(
      sheet
        == ComposeSheetDeclaration(
          title: "Microblog", postButtonTitle: "Toot", placeholder: "What is new?", maximumCharacters: 100,
          configurationItems: [
            .init(
              identifier: "visibility", title: "Visibility", choices: ["Public", "Followers"],
              defaultValue: "Followers"),
            .init(identifier: "server", title: "Server"),
            .init(identifier: "password", title: "Password", isSecure: true),
          ]))
    #expect(sheet.secureIdentifiers == ["password"])
    #expect(sheet.item("visibility")?.initialValue == "Followers")
    #expect(sheet.item("server")?.initialValue == nil)
    #expect(sheet.item("visibility")?.accepts("Nobody") == false)
    #expect(sheet.item("server")?.accepts("anything") == true)
  }

  @Test func aServiceWithoutOneHasNone() throws {
    let (outcome, _) = try load("")
    #expect(outcome.problems == [])
    #expect(try #require(outcome.service).composeSheet == nil)
  }

  @Test func aChoiceWithoutDefaultStartsAtTheFirstChoice() {
    let item = ComposeSheetDeclaration.Item(identifier: "v", title: "V", choices: ["a", "b"])
    #expect(item.initialValue == "a")
  }

  @Test func insideTheExtensionAttributesItIsReadToo() throws {
    let (outcome, _) = try load("", attributes: Self.microblog)
    #expect(outcome.problems == [])
    #expect(outcome.service?.composeSheet?.title == "Microblog")
  }

  @Test func inBothPlacesItIsAnError() throws {
    let (outcome, plist) = try load(Self.microblog, attributes: Self.microblog)
    #expect(outcome.service == nil)
    #expect(
      outcome.problems.withoutPositions == [
        BundleProblem(file: plist, key: "XDGShareComposeSheet", kind: .declaredTwice)
      ])
  }

  @Test func wrongTypesAreReportedWithKeyLineExpectedAndFound() throws {
    let (outcome, plist) = try load(
      """
      <key>XDGShareComposeSheet</key><dict>
        <key>Title</key><integer>3</integer>
        <key>MaximumCharacters</key><string>many</string>
        <key>ConfigurationItems</key><array>
          <string>visibility</string>
          <dict><key>Identifier</key><string>v</string><key>Title</key><string>V</string>
            <key>Choices</key><string>Public</string><key>Secure</key><string>maybe</string></dict>
        </array>
      </dict>
      """)
    #expect(outcome.service == nil)
    #expect(
      outcome.problems.withoutPositions == [
        BundleProblem(
          file: plist, key: "Title", kind: .unexpectedValue(expected: .string, found: .integer(3))),
        BundleProblem(
          file: plist, key: "MaximumCharacters",
          kind: .unexpectedValue(expected: .nonNegativeInteger, found: .string("many"))),
        BundleProblem(
          file: plist, key: "ConfigurationItems",
          kind: .unexpectedValue(expected: .dictionary, found: .string("visibility"))),
        BundleProblem(
          file: plist, key: "Choices",
          kind: .unexpectedValue(expected: .arrayOfStrings, found: .string("Public"))),
        BundleProblem(
          file: plist, key: "Secure", kind: .unexpectedValue(expected: .boolean, found: .string("maybe"))),
      ])
    // Each at its value: the file's header is line 1, the sheet's key line 11.
    #expect(outcome.problems.map { $0.position?.line } == [12, 13, 15, 17, 17])
    #expect(
      Diagnostics.line(for: outcome.problems[0]).hasSuffix(": Title: expected a string, found the integer 3"))
  }

  @Test func aDefaultNotAmongTheChoicesDuplicatesAndMissingKeysAreErrors() throws {
    let (outcome, plist) = try load(
      """
      <key>XDGShareComposeSheet</key><dict>
        <key>ConfigurationItems</key><array>
          <dict><key>Identifier</key><string>v</string><key>Title</key><string>V</string>
            <key>Choices</key><array><string>a</string></array><key>Default</key><string>b</string></dict>
          <dict><key>Identifier</key><string>v</string><key>Title</key><string>Again</string></dict>
          <dict><key>Title</key><string>No identifier</string></dict>
          <dict><key>Identifier</key><string>a=b</string><key>Title</key><string>Bad</string></dict>
          <dict><key>Identifier</key><string>c</string><key>Title</key><string>C</string>
            <key>Choices</key><array/></dict>
        </array>
      </dict>
      """)
    #expect(outcome.service == nil)
    #expect(
      outcome.problems.withoutPositions == [
        BundleProblem(
          file: plist, key: "Default", kind: .unexpectedValue(expected: .oneOf(["a"]), found: .string("b"))),
        BundleProblem(file: plist, key: "Identifier", kind: .duplicateIdentifier("v", firstIndex: 0)),
        BundleProblem(file: plist, key: "Identifier", kind: .missingKey(expected: .string)),
        BundleProblem(
          file: plist, key: "Identifier",
          kind: .unexpectedValue(expected: .configurationIdentifier, found: .string("a=b"))),
        BundleProblem(
          file: plist, key: "Choices",
          kind: .unexpectedValue(expected: .nonEmptyArrayOfStrings, found: .array([]))),
      ])
    #expect(
      Diagnostics.message(for: .duplicateIdentifier("v", firstIndex: 0))
        == #"expected an identifier of its own, found "v", which configuration item 0 already has"#)
  }

  @Test func unknownKeysAreWarningsWithASuggestion() throws {
    let (outcome, plist) = try load(
      """
      <key>XDGShareComposeSheet</key><dict>
        <key>Titel</key><string>x</string>
        <key>ConfigurationItems</key><array>
          <dict><key>Identifier</key><string>v</string><key>Title</key><string>V</string>
            <key>Defaults</key><string>b</string></dict>
        </array>
      </dict>
      <key>XDGShareComposeSheets</key><dict/>
      """)
    #expect(outcome.service?.composeSheet?.configurationItems.count == 1)
    #expect(
      outcome.problems.withoutPositions == [
        BundleProblem(file: plist, key: "Titel", kind: .unknownKey(suggestion: "Title"), severity: .warning),
        BundleProblem(
          file: plist, key: "Defaults", kind: .unknownKey(suggestion: "Default"), severity: .warning),
        BundleProblem(
          file: plist, key: "XDGShareComposeSheets", kind: .unknownKey(suggestion: "XDGShareComposeSheet"),
          severity: .warning),
      ])
  }

  @Test func notADictionaryIsAnError() throws {
    let (outcome, plist) = try load("<key>XDGShareComposeSheet</key><string>yes</string>")
    #expect(outcome.service == nil)
    #expect(
      outcome.problems.withoutPositions == [
        BundleProblem(
          file: plist, key: "XDGShareComposeSheet",
          kind: .unexpectedValue(expected: .dictionary, found: .string("yes")))
      ])
  }

  @Test func aFolderItemIsReadAndItsChoiceIsTheFolderTheSandboxBinds() throws {
    let (outcome, _) = try load(
      """
      <key>XDGShareComposeSheet</key><dict><key>ConfigurationItems</key><array>
        <dict>
          <key>Identifier</key><string>folder</string><key>Title</key><string>Folder</string>
          <key>Default</key><string>~/Public</string><key>Kind</key><string>folder</string>
        </dict>
        <dict><key>Identifier</key><string>server</string><key>Title</key><string>Server</string></dict>
      </array></dict>
      """)
    #expect(outcome.problems == [])
    let sheet = try #require(outcome.service?.composeSheet)
    #expect(sheet.configurationItems.map(\.kind) == [.folder, .text])
    let home = FilePath("/home/me")
    #expect(sheet.chosenFolders(in: [:], home: home) == [FilePath("/home/me/Public")])
    #expect(
      sheet.chosenFolders(in: ["folder": "/srv/drop", "server": "/x"], home: home) == [FilePath("/srv/drop")])
    #expect(sheet.chosenFolders(in: ["folder": "$HOME/Out"], home: home) == [FilePath("/home/me/Out")])
    #expect(sheet.chosenFolders(in: ["folder": ""], home: home) == [])
  }

  @Test func anUnknownKindIsAnError() throws {
    let (outcome, _) = try load(
      """
      <key>XDGShareComposeSheet</key><dict><key>ConfigurationItems</key><array>
        <dict>
          <key>Identifier</key><string>folder</string><key>Title</key><string>Folder</string>
          <key>Kind</key><string>directory</string>
        </dict>
      </array></dict>
      """)
    #expect(outcome.problems.contains { $0.severity == .error })
  }
}
