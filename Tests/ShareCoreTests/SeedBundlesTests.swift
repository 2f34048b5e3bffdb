import Foundation
import ShareTestSupport
import Testing

@testable import ShareCore

/// The extension dictionaries of the documents xdg-share was designed from load as printed, with
/// the warnings that say what xdg-share makes of them.
@Suite struct SeedBundlesTests {
  let desktop: TemporaryDesktop
  let loader = BundleLoader(languages: [])

  init() throws {
    desktop = try TemporaryDesktop(prefix: "share-seeds-test")
  }

  func load(_ seed: SeedBundle, folder: String, part: String? = nil) throws -> BundleLoader.Outcome {
    loader.load(bundleAt: try seed.write(into: desktop.files, folder: folder, part: part))
  }

  /// ShareByMail (both printings) and Apple's template have no `NSExtensionAttributes`: offered
  /// for everything, as `TRUEPREDICATE`, with a warning placed at the `NSExtension` dictionary.
  /// `NSExtensionMainStoryboard` and `NSExtensionPrincipalClass` are no problem.
  @Test(arguments: [
    ("template", SeedBundle.shareByMailTemplate), ("principal", SeedBundle.shareByMail),
    ("apple", SeedBundle.appleTemplate),
  ])
  func withoutAttributesEverythingIsOffered(_ folder: String, _ seed: SeedBundle) throws {
    let outcome = try load(seed, folder: folder)
    let service = try #require(outcome.service)
    #expect(service.id == seed.id)
    #expect(service.name == seed.name)
    #expect(service.version == "1.0")
    #expect(service.kind == .share)
    #expect(service.rule == .predicate(.constant(true)))
    let plist = "\(desktop.files)/\(folder).shareext/Info.plist"
    #expect(
      outcome.problems.withoutPositions == [
        BundleProblem(
          file: plist, key: InfoPlistKey.extensionAttributes, kind: .offeredForEverything, severity: .warning)
      ])
    // At the NSExtension dictionary, the line after its key: ShareByMail indents it by 4.
    let column = seed.printed.contains("\n    <dict>") ? 5 : 1
    #expect(outcome.problems.first?.position == TextPosition(line: 11, column: column))
  }

  /// Hoi's rule dictionary: the nested `TRUEPREDICATE` is ignored with a warning at its value, and
  /// the real keys make one image or one link (counts of 0 and `<false/>` are absent keys).
  @Test func hoiLoadsWithItsRealKeys() throws {
    let outcome = try load(.hoi, folder: "hoi")
    let service = try #require(outcome.service)
    #expect(service.kind == .share)
    #expect(service.rule == .dictionary(DictionaryRule(maxImages: 1, maxWebURLs: 1)))
    #expect(
      outcome.problems == [
        BundleProblem(
          file: "\(desktop.files)/hoi.shareext/Info.plist", key: InfoPlistKey.activationRule,
          kind: .ignoredNestedRule(found: .string("TRUEPREDICATE")), severity: .warning,
          position: TextPosition(line: 17, column: 4))
      ])
    let types = TypeSystem(mime: MIMEHierarchy())
    func accepts(_ attachments: [Attachment]) -> Bool {
      service.rule.accepts(ActivationSelection(attachments: attachments, types: types))
    }
    let png = Attachment(item: .file(FilePath("/a.png")), typeIdentifiers: ["public.png", "image/png"])
    let pdf = Attachment(
      item: .file(FilePath("/a.pdf")), typeIdentifiers: ["com.adobe.pdf", "application/pdf"])
    let link = Attachment(item: .webURL("https://gethoi.ch/"), typeIdentifiers: TypeSystem.webURLIdentifiers)
    let text = Attachment(item: .text("Hoi"), typeIdentifiers: TypeSystem.textIdentifiers)
    #expect(accepts([png]))
    #expect(accepts([link]))
    #expect(accepts([png, link]))
    #expect(!accepts([png, png]), "not TRUEPREDICATE: the nested key is ignored")
    #expect(!accepts([pdf]))
    #expect(!accepts([text]))
  }

  /// The nested key alone leaves a rule that takes nothing, which is said too.
  @Test func theNestedKeyAloneAcceptsNothing() throws {
    let bundle = try HandWrittenBundle(
      in: desktop.files, name: "nested.shareext",
      body: HandWrittenBundle.validKeys(
        rule: "<dict><key>NSExtensionActivationRule</key><string>TRUEPREDICATE</string></dict>"))
    let outcome = loader.load(bundleAt: bundle.path)
    #expect(outcome.service?.rule == .dictionary(DictionaryRule()))
    #expect(
      Set(outcome.problems.map(\.kind)) == [
        .ignoredNestedRule(found: .string("TRUEPREDICATE")), .acceptsNothing,
      ])
    #expect(outcome.problems.allSatisfy { $0.severity == .warning })
  }

  /// ShareByMail's printing closes a `</key>` it never opened. No property-list reader takes that
  /// (Apple's says the close tag does not match `dict`), so neither does xdg-share, at its place.
  @Test func theStrayCloseTagAsPrintedIsRefusedWhereItIs() throws {
    let outcome = try load(.shareByMail, folder: "stray", part: SeedBundle.shareByMail.printed)
    #expect(outcome.service == nil)
    try #require(outcome.problems.count == 1)
    #expect(
      outcome.problems[0].kind
        == .malformedPropertyList(
          PropertyListError(
            .mismatchedCloseTag(expected: "dict", found: "key"), at: .text(TextPosition(line: 17, column: 1)))
        ))
    #expect(outcome.problems[0].position == TextPosition(line: 17, column: 1))
  }

  /// Action extensions load as share extensions do, with their kind; other extension points
  /// stay an error naming both that are accepted.
  @Test func actionExtensionsLoadWithTheirKind() throws {
    func bundle(_ point: String, _ name: String) throws -> String {
      try HandWrittenBundle(
        in: desktop.files, name: name,
        body: HandWrittenBundle.validKeys().replacingOccurrences(
          of: InfoPlistKey.shareServicesExtensionPoint, with: point)
      ).path
    }
    let outcome = loader.load(bundleAt: try bundle("com.apple.ui-services", "action.shareext"))
    #expect(outcome.problems == [])
    #expect(outcome.service?.kind == .action)
    #expect(
      loader.load(bundleAt: try bundle("com.apple.share-services", "share.shareext")).service?.kind == .share)

    let widget = loader.load(bundleAt: try bundle("com.apple.widget-extension", "widget.shareext"))
    #expect(widget.service == nil)
    #expect(
      widget.problems.map(\.kind) == [
        .unexpectedValue(
          expected: .oneOf(["com.apple.share-services", "com.apple.ui-services"]),
          found: .string("com.apple.widget-extension"))
      ])
    #expect(
      ShareService.Kind.allCases.map { ShareService.Kind(extensionPoint: $0.extensionPoint) } == [
        .share, .action,
      ])
  }

  @Test func principalClassAndStoryboardBesideARuleAreNoProblem() throws {
    let bundle = try HandWrittenBundle(
      in: desktop.files, name: "principal.shareext",
      body: HandWrittenBundle.validKeys().replacingOccurrences(
        of: "<key>NSExtensionAttributes</key>",
        with: """
          <key>NSExtensionPrincipalClass</key><string>ShareByMail.EntryViewController</string>
          <key>NSExtensionMainStoryboard</key><string>MainInterface</string>
          <key>NSExtensionAttributes</key>
          """))
    let outcome = loader.load(bundleAt: bundle.path)
    #expect(outcome.problems == [])
    #expect(outcome.service?.rule == loader.load(bundleAt: try plainBundle()).service?.rule)
  }

  /// The same keys without the two.
  private func plainBundle() throws -> String {
    try HandWrittenBundle(in: desktop.files, name: "plain.shareext", body: HandWrittenBundle.validKeys()).path
  }
}

/// Xcode's `$(…)`/`${…}` build variables: an error where xdg-share reads the value, a warning
/// elsewhere, always instead of what the value would otherwise be reported as.
@Suite struct BuildVariableTests {
  let desktop: TemporaryDesktop
  let loader = BundleLoader(languages: [])

  init() throws {
    desktop = try TemporaryDesktop(prefix: "share-variables-test")
  }

  @Test(arguments: [
    ("$(PRODUCT_BUNDLE_IDENTIFIER)", "$(PRODUCT_BUNDLE_IDENTIFIER)"),
    ("${EXECUTABLE_NAME}", "${EXECUTABLE_NAME}"),
    ("com.example.$(PRODUCT_NAME:rfc1034identifier).share", "$(PRODUCT_NAME:rfc1034identifier)"),
    ("${A}$(B)", "${A}"),
    ("$(_x1)", "$(_x1)"),
  ])
  func variablesAreFound(_ text: String, _ variable: String) {
    #expect(InfoPlistForm.buildVariable(in: text) == variable)
  }

  @Test(arguments: [
    "", "$", "$(", "$()", "$(1A)", "${A", "$(A B)", "$(A}", "costs $5", "$attachment", "$(A:mod\n)",
    "SUBQUERY(extensionItems, $e, $e.attachments.@count == 1).@count == 1",
  ])
  func otherTextHasNone(_ text: String) {
    #expect(InfoPlistForm.buildVariable(in: text) == nil)
  }

  /// What a bundle copied from an Xcode project without building it looks like.
  @Test func readValuesAreErrorsAndOthersWarnings() throws {
    let bundle = try HandWrittenBundle(
      in: desktop.files, name: "xcode.shareext",
      body: """
        <key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
        <key>CFBundleName</key><string>Hand</string>
        <key>CFBundleExecutable</key><string>${EXECUTABLE_NAME}</string>
        <key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string>
        <key>CFBundleVersion</key><string>$(CURRENT_PROJECT_VERSION)</string>
        <key>XDGShareRequiredPrograms</key><array><string>sh</string><string>$(TOOL)</string></array>
        <key>NSExtension</key><dict>
          <key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string>
          <key>NSExtensionAttributes</key><dict>
            <key>NSExtensionJavaScriptPreprocessingFile</key><string>$(PRODUCT_NAME)</string>
            <key>NSExtensionActivationRule</key><dict>
              <key>NSExtensionActivationSupportsImageWithMaxCount</key><string>$(MAX_IMAGES)</string>
            </dict>
          </dict>
        </dict>
        """)
    let outcome = loader.load(bundleAt: bundle.path)
    #expect(outcome.service == nil)
    func problem(_ key: String, _ variable: String, _ severity: BundleProblem.Severity) -> BundleProblem {
      BundleProblem(
        file: bundle.plist, key: key, kind: .unexpandedBuildVariable(variable), severity: severity)
    }
    let expected = [
      problem(InfoPlistKey.identifier, "$(PRODUCT_BUNDLE_IDENTIFIER)", .error),
      problem(InfoPlistKey.executable, "${EXECUTABLE_NAME}", .error),
      problem(InfoPlistKey.shortVersion, "$(MARKETING_VERSION)", .error),
      problem(InfoPlistKey.requiredPrograms, "$(TOOL)", .error),
      problem(InfoPlistKey.Rule.maxImages, "$(MAX_IMAGES)", .error),
      problem("CFBundleVersion", "$(CURRENT_PROJECT_VERSION)", .warning),
      problem("NSExtensionJavaScriptPreprocessingFile", "$(PRODUCT_NAME)", .warning),
    ]
    // Each once, and nothing else: not also "not a reverse-DNS identifier" or "no such file".
    #expect(Set(outcome.problems.withoutPositions) == Set(expected))
    #expect(outcome.problems.count == expected.count)
    #expect(outcome.problems.allSatisfy { $0.position != nil })
    let programs = try #require(outcome.problems.first { $0.key == InfoPlistKey.requiredPrograms })
    #expect(programs.position?.line == 7, "at the array's element")
  }

  /// A variable only in keys xdg-share does not read leaves the bundle loaded.
  @Test func unreadVariablesLeaveTheServiceLoaded() throws {
    let bundle = try HandWrittenBundle(
      in: desktop.files, name: "built.shareext",
      body: HandWrittenBundle.validKeys()
        + "<key>CFBundleDevelopmentRegion</key><string>$(DEVELOPMENT_LANGUAGE)</string>")
    let outcome = loader.load(bundleAt: bundle.path)
    #expect(outcome.service != nil)
    #expect(
      outcome.problems.map(\.kind) == [.unexpandedBuildVariable("$(DEVELOPMENT_LANGUAGE)")])
    #expect(outcome.problems.map(\.severity) == [.warning])
  }

  @Test func theMessagePointsAtFromXcode() {
    let line = Diagnostics.line(
      for: BundleProblem(
        file: "x.shareext/Info.plist", key: "CFBundleIdentifier",
        kind: .unexpandedBuildVariable("$(PRODUCT_BUNDLE_IDENTIFIER)"),
        position: TextPosition(line: 5, column: 32)))
    #expect(
      line
        == "x.shareext/Info.plist:5:32: CFBundleIdentifier: expected the value itself, found the Xcode build variable $(PRODUCT_BUNDLE_IDENTIFIER), which only Xcode expands (write the value, or make the bundle with xdg-share new --from-xcode)"
    )
  }
}
