import Foundation
import ShareTestSupport
import Testing

@testable import ShareCore

/// A bundle folder written by hand, for what `BundleFixture` cannot express: any Info.plist body,
/// any executable.
struct HandWrittenBundle {
  let path: String

  /// Writes `<folder>/Info.plist` holding `<dict>body</dict>`, and `share` unless `executable` is false.
  init(in folder: String, name: String = "hand.shareext", body: String, executable: Bool = true) throws {
    path = "\(folder)/\(name)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>\(body)</dict></plist>
      """
    try plist.write(toFile: "\(path)/Info.plist", atomically: true, encoding: .utf8)
    if executable {
      try "#!/bin/sh\n".write(toFile: "\(path)/share", atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: "\(path)/share")
    }
  }

  var plist: String { "\(path)/Info.plist" }

  /// A rule that takes any item (and, unlike `TRUEPREDICATE`, draws no warning).
  static let anyItem =
    "<string>ANY extensionItems.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.item\"</string>"

  /// The keys every valid bundle has, with `rule` as its activation rule.
  static func validKeys(id: String = "org.example.hand", rule: String = HandWrittenBundle.anyItem)
    -> String
  {
    """
    <key>CFBundleIdentifier</key><string>\(id)</string>
    <key>CFBundleName</key><string>Hand</string>
    <key>CFBundleExecutable</key><string>share</string>
    <key>NSExtension</key><dict>
      <key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string>
      <key>NSExtensionAttributes</key><dict><key>NSExtensionActivationRule</key>\(rule)</dict>
    </dict>
    """
  }
}

@Suite struct BundleLoaderTests {
  let desktop: TemporaryDesktop
  let loader = BundleLoader(languages: ["de_CH", "de"])

  init() throws {
    desktop = try TemporaryDesktop(prefix: "share-core-test")
  }

  var folder: String { desktop.userExtensions }

  @Test func aValidBundleLoadsWithEveryField() throws {
    let bundle = try BundleFixture(
      id: "ch.example.hoi", name: "Hoi",
      ruleXML: BundleFixture.dictionary([
        (InfoPlistKey.Rule.maxImages, "<integer>3</integer>"), (InfoPlistKey.Rule.supportsText, "<true/>"),
      ]),
      extraXML: """
        <key>CFBundleShortVersionString</key><string>2.1</string>
        <key>CFBundleIconFile</key><string>icon.png</string>
        <key>XDGShareDescription</key><string>Send to a friend</string>
        <key>XDGShareRequiredPrograms</key><array><string>wl-copy|xclip</string></array>
        <key>XDGShareRequiredBusNames</key><array><string>org.kde.kdeconnect</string></array>
        <key>XDGShareTimeout</key><real>2.5</real>
        <key>XDGShareApplicationGroups</key><array><string>group.ch.example.hoi</string></array>
        """
    ).write(into: folder)
    try Data(tinyPNG).write(to: URL(fileURLWithPath: "\(bundle)/icon.png"))
    try FileManager.default.createDirectory(atPath: "\(bundle)/de.lproj", withIntermediateDirectories: true)
    try #"/* German */ "CFBundleDisplayName" = "Hoi zäme"; "XDGShareDescription" = "An en Fründ";"#.write(
      toFile: "\(bundle)/de.lproj/InfoPlist.strings", atomically: true, encoding: .utf8)

    let outcome = loader.load(bundleAt: bundle + "/")
    #expect(outcome.problems == [])
    let service = try #require(outcome.service)
    #expect(
      service
        == ShareService(
          id: "ch.example.hoi", name: "Hoi zäme", icon: "\(bundle)/icon.png", description: "An en Fründ",
          version: "2.1", bundlePath: bundle, executablePath: "\(bundle)/share",
          rule: .dictionary(DictionaryRule(maxImages: 3, supportsText: true)),
          requirements: Requirements(programs: ["wl-copy|xclip"], busNames: ["org.kde.kdeconnect"]),
          timeout: 2.5, applicationGroups: ["group.ch.example.hoi"]))
    // Without the language, the Info.plist's own strings.
    let plain = try #require(BundleLoader(languages: []).load(bundleAt: bundle).service)
    #expect(plain.name == "Hoi")
    #expect(plain.description == "Send to a friend")
  }

  @Test func aPredicateRuleAndTheDefaultIcon() throws {
    let bundle = try HandWrittenBundle(
      in: folder, body: HandWrittenBundle.validKeys(rule: "<string>TRUEPREDICATE</string>"))
    let service = try #require(loader.load(bundleAt: bundle.path).service)
    #expect(service.rule == .predicate(.constant(true)))
    #expect(service.icon == ShareService.defaultIcon)
    #expect(service.name == "Hand")
    #expect(service.description == nil)
    #expect(service.version == nil)
    #expect(service.timeout == nil)
    #expect(service.requirements.isEmpty)
  }

  @Test func aMissingExecutableIsNamed() throws {
    let bundle = try HandWrittenBundle(in: folder, body: HandWrittenBundle.validKeys(), executable: false)
    let outcome = loader.load(bundleAt: bundle.path)
    #expect(outcome.service == nil)
    #expect(
      outcome.problems.withoutPositions == [
        BundleProblem(
          file: bundle.plist, key: InfoPlistKey.executable,
          kind: .missingFile(expected: .executableFileInBundle, name: "share", found: .nothing))
      ])
    // Reported where the key's value is, as `validate` prints it.
    #expect(outcome.problems.first?.position != nil)
  }

  /// Issue 32: a mistake in a predicate written over several lines of its `<string>` is placed
  /// where it is in the file, the entities before it counted as written, not at the `<string>`.
  @Test func aPredicatesMistakeIsPlacedWhereItIsInTheFile() throws {
    let rule = """
      <string>SUBQUERY (extensionItems, $e,
            SUBQUERY ($e.attachments, $a,
              ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO &quot;com.adobe.pdf&quot;
              &amp;&amp; $a.registeredTypeIdentifiers.@count IN {1, 2}
            ).@count == 1
          ).@count == 1</string>
      """
    let bundle = try HandWrittenBundle(in: folder, body: HandWrittenBundle.validKeys(rule: rule))
    let outcome = loader.load(bundleAt: bundle.path)
    #expect(outcome.service == nil)
    #expect(outcome.problems.count == 1)
    let problem = try #require(outcome.problems.first)
    // Where `IN` is in the file, found here in its text.
    let lines = try String(contentsOfFile: bundle.plist, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    let line = try #require(lines.firstIndex { $0.contains(" IN {") })
    let column =
      lines[line].distance(from: lines[line].startIndex, to: lines[line].firstRange(of: " IN {")!.lowerBound)
      + 2
    #expect((line + 1, column) == (10, 56))
    #expect(problem.position == TextPosition(line: line + 1, column: column))
    #expect(
      Diagnostics.line(for: problem)
        == "\(bundle.plist):10:56: NSExtensionActivationRule: invalid predicate: \"IN\" is an operator of Apple's NSPredicate that xdg-share does not have; use == with OR"
    )
  }

  /// A predicate that ends too soon is blamed where its `<string>` ends.
  @Test func aPredicateThatEndsTooSoonIsBlamedAtItsEnd() throws {
    let rule = "<string>\n  extensionItems.@count ==\n</string>"
    let bundle = try HandWrittenBundle(in: folder, body: HandWrittenBundle.validKeys(rule: rule))
    let problem = try #require(loader.load(bundleAt: bundle.path).problems.first)
    #expect(problem.position == TextPosition(line: 9, column: 1))
    #expect(
      Diagnostics.line(for: problem)
        == "\(bundle.plist):9:1: NSExtensionActivationRule: invalid predicate: expected a value, key path or SUBQUERY, found end of predicate"
    )
  }

  /// An old-style Info.plist keeps no place inside its strings: the problem is at the rule's
  /// value, and its words say the column in the predicate.
  @Test func anOldStylePredicatesMistakeSaysItsColumn() throws {
    let bundle = try HandWrittenBundle(in: folder, body: HandWrittenBundle.validKeys())
    try """
    {
      CFBundleIdentifier = org.example.hand; CFBundleName = Hand; CFBundleExecutable = share;
      NSExtension = {
        NSExtensionPointIdentifier = "com.apple.share-services";
        NSExtensionAttributes = { NSExtensionActivationRule = "extensionItems.@count IN {1}"; };
      };
    }
    """.write(toFile: bundle.plist, atomically: true, encoding: .utf8)
    let problem = try #require(loader.load(bundleAt: bundle.path).problems.first)
    #expect(problem.position?.line == 5)
    #expect(
      Diagnostics.message(for: problem.kind)
        == "invalid predicate: at column 23: \"IN\" is an operator of Apple's NSPredicate that xdg-share does not have; use == with OR"
    )
  }

  @Test func whatIsThereInsteadOfTheExecutableIsSaid() throws {
    func finding(_ prepare: (String) throws -> Void) throws -> BundleProblem.FileFinding? {
      let name = "b\(UInt32.random(in: 0...UInt32.max)).shareext"
      let bundle = try HandWrittenBundle(
        in: folder, name: name, body: HandWrittenBundle.validKeys(), executable: false)
      try prepare("\(bundle.path)/share")
      guard case .missingFile(_, _, let found)? = loader.load(bundleAt: bundle.path).problems.first?.kind
      else { return nil }
      return found
    }
    #expect(
      try finding { try "x".write(toFile: $0, atomically: true, encoding: .utf8) } == .notExecutable)
    #expect(
      try finding { try FileManager.default.createDirectory(atPath: $0, withIntermediateDirectories: false) }
        == .directory)
    #expect(
      try finding { try FileManager.default.createSymbolicLink(atPath: $0, withDestinationPath: "gone") }
        == .danglingLink(target: "gone"))
  }

  /// Every wrong value is reported, each with its file and key, not only the first.
  @Test func wrongTypesAreEachReportedWithTheirKey() throws {
    let bundle = try HandWrittenBundle(
      in: folder,
      body: """
        <key>CFBundleIdentifier</key><integer>5</integer>
        <key>CFBundleDisplayName</key><array/>
        <key>CFBundleName</key><string>Named</string>
        <key>CFBundleExecutable</key><string>share</string>
        <key>XDGShareTimeout</key><string>soon</string>
        <key>XDGShareRequiredPrograms</key><array><string>/usr/bin/qrencode</string></array>
        <key>XDGShareRequiredBusNames</key><string>org.kde.kdeconnect</string>
        <key>NSExtension</key><dict>
          <key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string>
          <key>NSExtensionAttributes</key><dict><key>NSExtensionActivationRule</key><dict>
            <key>NSExtensionActivationSupportsImageWithMaxCount</key><string>many</string>
          </dict></dict>
        </dict>
        """)
    let outcome = loader.load(bundleAt: bundle.path)
    #expect(outcome.service == nil)
    let expected: [BundleProblem] = [
      BundleProblem(
        file: bundle.plist, key: InfoPlistKey.identifier,
        kind: .unexpectedValue(expected: .bundleIdentifier, found: .integer(5))),
      BundleProblem(
        file: bundle.plist, key: InfoPlistKey.displayName,
        kind: .unexpectedValue(expected: .string, found: .array([]))),
      BundleProblem(
        file: bundle.plist, key: InfoPlistKey.Rule.maxImages,
        kind: .unexpectedValue(expected: .nonNegativeInteger, found: .string("many"))),
      BundleProblem(
        file: bundle.plist, key: InfoPlistKey.requiredPrograms,
        kind: .unexpectedValue(expected: .programName, found: .string("/usr/bin/qrencode"))),
      BundleProblem(
        file: bundle.plist, key: InfoPlistKey.requiredBusNames,
        kind: .unexpectedValue(expected: .arrayOfStrings, found: .string("org.kde.kdeconnect"))),
      BundleProblem(
        file: bundle.plist, key: InfoPlistKey.timeout,
        kind: .unexpectedValue(expected: .positiveNumber, found: .string("soon"))),
    ]
    // The order is the reader's; what matters is that each is there once.
    #expect(Set(outcome.problems.withoutPositions) == Set(expected))
    #expect(outcome.problems.count == expected.count)
    #expect(outcome.problems.allSatisfy { $0.severity == .error })
  }

  /// A name of the wrong type is reported as such, and only as such.
  @Test func aNameOfTheWrongTypeIsOneProblem() throws {
    let bundle = try HandWrittenBundle(
      in: folder,
      body: HandWrittenBundle.validKeys().replacingOccurrences(
        of: "<key>CFBundleName</key><string>Hand</string>",
        with: "<key>CFBundleName</key><integer>1</integer>"))
    let problems = loader.load(bundleAt: bundle.path).problems
    #expect(
      problems.withoutPositions.contains(
        BundleProblem(
          file: bundle.plist, key: InfoPlistKey.name,
          kind: .unexpectedValue(expected: .string, found: .integer(1)))))
    #expect(problems.count == 1)
  }

  @Test func warningsLeaveTheServiceLoaded() throws {
    let bundle = try HandWrittenBundle(
      in: folder,
      body: HandWrittenBundle.validKeys() + "<key>XDGShareTimout</key><integer>5</integer>"
        + "<key>CFBundleIconFile</key><string>missing.png</string>")
    let outcome = loader.load(bundleAt: bundle.path)
    #expect(outcome.service?.id == "org.example.hand")
    #expect(outcome.service?.icon == ShareService.defaultIcon)
    #expect(
      Set(outcome.problems.withoutPositions) == [
        BundleProblem(
          file: bundle.plist, key: "XDGShareTimout", kind: .unknownKey(suggestion: InfoPlistKey.timeout),
          severity: .warning),
        BundleProblem(
          file: bundle.plist, key: InfoPlistKey.iconFile,
          kind: .missingFile(expected: .fileInBundle, name: "missing.png"), severity: .warning),
      ])
  }

  @Test func somethingThatIsNoBundle() throws {
    let missing = "\(folder)/gone.shareext"
    #expect(
      loader.load(bundleAt: missing).problems == [
        BundleProblem(file: missing, kind: .notABundle(exists: false))
      ])
    let file = desktop.files + "/plain.shareext"
    try "x".write(toFile: file, atomically: true, encoding: .utf8)
    #expect(
      loader.load(bundleAt: file).problems == [BundleProblem(file: file, kind: .notABundle(exists: true))])
    let noPlist = "\(folder)/empty.shareext"
    try FileManager.default.createDirectory(atPath: noPlist, withIntermediateDirectories: true)
    #expect(
      loader.load(bundleAt: noPlist).problems == [
        BundleProblem(
          file: "\(noPlist)/Info.plist", kind: .missingFile(expected: .fileInBundle, name: "Info.plist"))
      ])
  }

  @Test func aBrokenPropertyListIsMalformedWithItsPosition() throws {
    let bundle = try HandWrittenBundle(in: folder, body: "<key>unclosed")
    let problems = loader.load(bundleAt: bundle.path).problems
    try #require(problems.count == 1)
    #expect(problems[0].file == bundle.plist)
    guard case .malformedPropertyList = problems[0].kind else {
      Issue.record("expected a malformed property list, found \(problems[0].kind)")
      return
    }
    #expect(problems[0].position != nil)
  }
}

extension [BundleProblem] {
  /// The problems without their text positions: for tests about what is wrong, not where.
  var withoutPositions: [BundleProblem] {
    map { problem in
      var problem = problem
      problem.position = nil
      return problem
    }
  }
}
