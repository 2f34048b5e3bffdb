import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// `xdg-share new --from-xcode`: real-world Info.plists become bundles that validate, install
/// and run (their stub cancels); undefined variables are named.
@Suite struct NewFromXcodeTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  /// Writes `xml` as `ShareExtension/Info.plist` in the folder `new` runs in, or its binary form
  /// (made by Python's plistlib, an independent writer); returns the relative path.
  func writeSource(_ xml: String, binary: Bool = false) throws -> String {
    let folder = desktop.files + "/ShareExtension"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try xml.write(toFile: folder + "/Info.plist", atomically: true, encoding: .utf8)
    if binary {
      let script = """
        import plistlib, sys
        with open(sys.argv[1], "rb") as source:
            value = plistlib.load(source)
        with open(sys.argv[1], "wb") as target:
            plistlib.dump(value, target, fmt=plistlib.FMT_BINARY)
        """
      let run = try CapturedRun.run(
        ["/usr/bin/python3", "-c", script, folder + "/Info.plist"].map { Array($0.utf8) },
        environment: desktop.environment)
      try #require(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: folder + "/Info.plist")).starts(with: Array("bplist".utf8)))
    }
    return "ShareExtension/Info.plist"
  }

  /// The top-level keys of an XML plist, in the order written.
  func topLevelKeys(_ path: String) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line in
      guard line.hasPrefix("\t<key>"), line.hasSuffix("</key>") else { return nil }
      return String(line.dropFirst("\t<key>".count).dropLast("</key>".count))
    }
  }

  func plist(_ path: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
  }

  @Test(arguments: XcodeFixture.all, [false, true])
  func aRealWorldShapeIsPortedAndWorks(_ fixture: XcodeFixture, binary: Bool) throws {
    let source = try writeSource(fixture.xml, binary: binary)
    let ported = try Tool.run(["new", "--from-xcode", source] + fixture.defines + ["Share"], on: desktop)
    #expect(ported.status == 0, "\(ported.standardError)")
    #expect(
      ported.standardOutput.hasPrefix("Wrote Share.shareext (\(fixture.identifier)) from \(source).\n"),
      "\(ported.standardOutput)")
    for warning in fixture.warnings {
      #expect(ported.standardError.contains(warning), "\(ported.standardError)")
    }
    #expect(!ported.standardError.contains("xdg-share:"), "\(ported.standardError)")

    let validated = try Tool.run(["validate", "Share.shareext"], on: desktop)
    #expect(validated.status == 0, "\(validated.standardOutput)")
    let installed = try Tool.run(["install", "Share.shareext"], on: desktop)
    #expect(installed.status == 0, "\(installed.standardError)")
    #expect(try Tool.run(["list"], on: desktop).standardOutput.hasPrefix(fixture.identifier + "  "))
    // The stub is a program that speaks the protocol: it cancels, saying why.
    let shared = try Tool.run(
      ["--service", fixture.identifier, "--url", "https://example.org/"], on: desktop)
    #expect(shared.status == 3)
    #expect(shared.standardError.contains("not ported yet"), "\(shared.standardError)")

    // Every key of the source is kept; Xcode's own keys are there.
    let written = try plist(desktop.files + "/Share.shareext/Info.plist")
    let original = try plist(desktop.files + "/" + source)
    #expect(Set(original.keys).isSubset(of: Set(written.keys)))
    #expect(written["CFBundleIdentifier"] as? String == fixture.identifier)
    #expect(written["CFBundleExecutable"] as? String == "Share")
    #expect(written["CFBundleName"] as? String != nil)
    #expect(written["CFBundleVersion"] as? String != nil)
    #expect(FileManager.default.isExecutableFile(atPath: desktop.files + "/Share.shareext/Share"))
  }

  @Test func valuesAreSubstitutedAndTheOrderKept() throws {
    let source = try writeSource(XcodeFixture.mastodon.xml)
    #expect(try Tool.run(["new", "--from-xcode", source, "Tooter"], on: desktop).status == 0)
    let written = try plist(desktop.files + "/Tooter.shareext/Info.plist")
    #expect(written["CFBundleDevelopmentRegion"] as? String == "en")
    #expect(written["CFBundleIdentifier"] as? String == "local.tooter")
    #expect(written["CFBundleName"] as? String == "Tooter")
    #expect(written["CFBundleShortVersionString"] as? String == "1.0")
    #expect(written["CFBundleVersion"] as? String == "1")
    // Xcode's value for an app extension.
    #expect(written["CFBundlePackageType"] as? String == "XPC!")
    let nsExtension = try #require(written["NSExtension"] as? [String: Any])
    #expect(nsExtension["NSExtensionPrincipalClass"] as? String == "Tooter.ShareViewController")
    #expect(
      try topLevelKeys(desktop.files + "/Tooter.shareext/Info.plist") == [
        "CFBundleDevelopmentRegion", "CFBundleDisplayName", "CFBundleExecutable", "CFBundleIdentifier",
        "CFBundleInfoDictionaryVersion", "CFBundleName", "CFBundlePackageType", "CFBundleShortVersionString",
        "CFBundleVersion", "NSExtension",
      ])
  }

  @Test func theKeysXcodeAddsComeAfterTheSources() throws {
    let source = try writeSource(XcodeFixture.generated.xml)
    let ported = try Tool.run(
      ["new", "--from-xcode", source, "--identifier", "ch.example.hoi", "Hoi"], on: desktop)
    #expect(ported.status == 0, "\(ported.standardError)")
    #expect(!ported.standardError.contains("$("), "\(ported.standardError)")
    #expect(
      try topLevelKeys(desktop.files + "/Hoi.shareext/Info.plist") == [
        "NSExtension", "CFBundleExecutable", "CFBundleIdentifier", "CFBundleName",
        "CFBundleShortVersionString",
        "CFBundleVersion",
      ])
    let written = try plist(desktop.files + "/Hoi.shareext/Info.plist")
    #expect(written["CFBundleIdentifier"] as? String == "ch.example.hoi")
    #expect(written["CFBundleName"] as? String == "Hoi")
  }

  @Test func anUndefinedVariableInAKeyItReadsIsAnErrorAndNothingIsWritten() throws {
    let source = try writeSource(XcodeFixture.firefox.xml)
    let ported = try Tool.run(["new", "--from-xcode", source, "Share"], on: desktop)
    #expect(ported.status == 1)
    #expect(ported.standardOutput == "")
    #expect(
      ported.standardError == """
        ShareExtension/Info.plist:10:2: CFBundleIdentifier: $(MOZ_BUNDLE_ID) is not defined; give it a value with --define MOZ_BUNDLE_ID=VALUE
        ShareExtension/Info.plist:14:2: MozDevelopmentTeam: warning: $(DEVELOPMENT_TEAM) is not defined; left as written, as xdg-share does not read this key
        xdg-share: Share.shareext was not written

        """)
    #expect(try FileManager.default.contentsOfDirectory(atPath: desktop.files) == ["ShareExtension"])
  }

  @Test func aBinarySourceHasNoLinesToName() throws {
    let source = try writeSource(XcodeFixture.firefox.xml, binary: true)
    let ported = try Tool.run(["new", "--from-xcode", source, "Share"], on: desktop)
    #expect(ported.status == 1)
    #expect(
      ported.standardError.hasPrefix(
        "ShareExtension/Info.plist: CFBundleIdentifier: $(MOZ_BUNDLE_ID) is not defined"))
  }

  @Test func definitionsAndModifiers() throws {
    let source = try writeSource(
      XcodeFixture(
        name: "modifiers",
        dictionary: """
          <dict>
          \t<key>CFBundleIdentifier</key>
          \t<string>com.example.$(PRODUCT_NAME:rfc1034identifier).${SUFFIX:lower}</string>
          \t<key>CFBundleExecutable</key>
          \t<string>$(PRODUCT_MODULE_NAME)</string>
          \t<key>CFBundleDisplayName</key>
          \t<string>$(PRODUCT_NAME:upper) $(LABEL:default=Share) $(NESTED_$(KIND))</string>
          \t<key>NSExtension</key>
          \t<dict>
          \t\t<key>NSExtensionAttributes</key>
          \t\t<dict>
          \t\t\t<key>NSExtensionActivationRule</key>
          \t\t\t<string>TRUEPREDICATE</string>
          \t\t</dict>
          \t\t<key>NSExtensionPointIdentifier</key>
          \t\t<string>com.apple.share-services</string>
          \t</dict>
          </dict>
          """, identifier: ""
      ).xml)
    let ported = try Tool.run(
      [
        "new", "--from-xcode", source, "--define", "PRODUCT_NAME=My App", "--define", "SUFFIX=Share",
        "--define", "KIND=A", "--define", "NESTED_A=$(SUFFIX)!", "--define", "SUFFIX=Ext", "Hoi",
      ], on: desktop)
    #expect(ported.status == 0, "\(ported.standardError)")
    // Xcode's template takes everything; the port says so, and keeps it.
    #expect(
      ported.standardError
        == "Hoi.shareext/Info.plist:16:4: NSExtensionActivationRule: warning: TRUEPREDICATE accepts everything, so the service is offered for every file, link and text shared; name what it takes (e.g. NSExtensionActivationSupportsImageWithMaxCount)\n"
    )
    let written = try plist(desktop.files + "/Hoi.shareext/Info.plist")
    #expect(written["CFBundleIdentifier"] as? String == "com.example.My-App.ext")
    #expect(written["CFBundleExecutable"] as? String == "My_App")
    #expect(written["CFBundleDisplayName"] as? String == "MY APP Share Ext!")
    #expect(FileManager.default.isExecutableFile(atPath: desktop.files + "/Hoi.shareext/My_App"))
  }

  @Test func anUnknownModifierOrACycleIsNamed() throws {
    let source = try writeSource(
      XcodeFixture.generated.xml.replacingOccurrences(
        of: "<dict>\n\t<key>NSExtension</key>",
        with:
          "<dict>\n\t<key>CFBundleName</key>\n\t<string>$(PRODUCT_NAME:camel) $(LOOP)</string>\n\t<key>NSExtension</key>"
      ))
    let ported = try Tool.run(
      ["new", "--from-xcode", source, "--define", "LOOP=a$(LOOP)", "Hoi"], on: desktop)
    #expect(ported.status == 1)
    #expect(
      ported.standardError.hasPrefix(
        """
        ShareExtension/Info.plist:6:2: CFBundleName: $(PRODUCT_NAME:camel): unknown modifier 'camel' (expected rfc1034identifier, c99extidentifier, identifier, lower, upper or default=VALUE)
        ShareExtension/Info.plist:6:2: CFBundleName: $(LOOP) refers to itself; give it a value with --define LOOP=VALUE

        """), "\(ported.standardError)")
  }

  @Test(arguments: [
    (
      "<plist><dict><key>x</key>\n  <strin>y</string></dict></plist>",
      "bad.plist:2:3: cannot be read: not a property list: unknown element <strin>"
    ),
    ("hello", "bad.plist:1:1: cannot be read: the top level is not a dictionary"),
    ("", "bad.plist:1:1: cannot be read: not a property list: the file holds no value"),
  ])
  func aFileThatIsNotAPropertyListIsRefused(_ contents: String, _ message: String) throws {
    try contents.write(toFile: desktop.files + "/bad.plist", atomically: true, encoding: .utf8)
    let ported = try Tool.run(["new", "--from-xcode", "bad.plist", "Hoi"], on: desktop)
    #expect(ported.status == 1)
    #expect(ported.standardError == message + "\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: desktop.files) == ["bad.plist"])
  }

  @Test func aMissingFileOrAFolderIsRefused() throws {
    let missing = try Tool.run(["new", "--from-xcode", "nothing.plist", "Hoi"], on: desktop)
    #expect(missing.status == 1)
    #expect(missing.standardError == "xdg-share: cannot read nothing.plist: No such file or directory\n")
    let folder = try Tool.run(["new", "--from-xcode", ".", "Hoi"], on: desktop)
    #expect(folder.status == 1)
    #expect(folder.standardError == ".: cannot be read: expected a regular file of at most 1 MiB\n")
  }

  /// A port that would not validate (here: an extension point other than sharing) is not
  /// written, and the loader's words say why.
  @Test func aPortThatDoesNotValidateIsNotWritten() throws {
    let source = try writeSource(
      XcodeFixture.generated.xml.replacingOccurrences(
        of: "com.apple.share-services", with: "com.apple.widgetkit-extension"))
    let ported = try Tool.run(["new", "--from-xcode", source, "Hoi"], on: desktop)
    #expect(ported.status == 1)
    #expect(ported.standardError.contains("Hoi.shareext/Info.plist:"), "\(ported.standardError)")
    #expect(ported.standardError.contains("NSExtensionPointIdentifier"))
    #expect(ported.standardError.hasSuffix("xdg-share: Hoi.shareext was not written\n"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: desktop.files) == ["ShareExtension"])
  }
}
