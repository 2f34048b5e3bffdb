import Foundation
import ShareTestSupport
import Testing

/// Entitlements on the command line: `validate` reports Entitlements.plist as it reports
/// Info.plist, `install` says what a bundle may reach before it installs it (only what is new on
/// replacing one) and refuses one that asks for no sandbox unless allowed, `list --json`, `why`
/// and `doctor` show them, and `new --from-xcode` ports a target's `.entitlements` file.
@Suite struct EntitlementsCommandTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  static let anyItem = BundleFixture.predicate(
    "ANY extensionItems.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.item\"")

  /// A bundle in the files folder, with an Entitlements.plist holding `<dict>entitlements</dict>`
  /// (each key on its own line, from line 3) unless nil.
  func bundle(_ id: String, folder: String, entitlements: String?) throws -> String {
    let bundle = try BundleFixture(id: id, name: "Hoi", ruleXML: Self.anyItem)
      .write(into: desktop.files, folder: folder)
    try write(entitlements, into: bundle)
    return bundle
  }

  func write(_ entitlements: String?, into bundle: String) throws {
    let file = bundle + "/Entitlements.plist"
    guard let entitlements else {
      try? FileManager.default.removeItem(atPath: file)
      return
    }
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict>
    \(entitlements)
    </dict></plist>
    """.write(toFile: file, atomically: true, encoding: .utf8)
  }

  static let network = "<key>com.apple.security.network.client</key><true/>"
  static let kdeConnect =
    "<key>org.xdgshare.session-bus.talk</key><array><string>org.kde.kdeconnect</string></array>"

  @Test func validateReportsTheFileAsItReportsInfoPlist() throws {
    let bundle = try bundle(
      "ch.example.hoi", folder: "Hoi",
      entitlements: """
        <key>com.apple.security.app-sandbox</key><true/>
        <key>com.apple.security.network.client</key><string>YES</string>
        <key>com.apple.security.network.server</key><true/>
        """)
    let result = try Tool.run(["validate", bundle], on: desktop)
    #expect(result.status == 1)
    #expect(
      result.standardOutput == """
        \(bundle)/Entitlements.plist:4:45: com.apple.security.network.client: expected a boolean, found the string "YES"
        \(bundle)/Entitlements.plist:5:45: com.apple.security.network.server: warning: has no meaning here, so it grants nothing (docs/sandbox.md lists the entitlements that do)

        """)
    // Warnings alone leave it valid; app-sandbox, true, says nothing.
    try write(
      "<key>com.apple.security.app-sandbox</key><true/>\n<key>org.xdgshare.dispaly</key><true/>", into: bundle
    )
    let warned = try Tool.run(["validate", bundle], on: desktop)
    #expect(warned.status == 0)
    #expect(
      warned.standardOutput
        == "\(bundle)/Entitlements.plist:4:32: org.xdgshare.dispaly: warning: unknown key; did you mean org.xdgshare.display?\n"
    )
    // Nothing to say of a file that declares what is fine.
    try write(Self.network + "\n" + Self.kdeConnect, into: bundle)
    let fine = try Tool.run(["validate", bundle], on: desktop)
    #expect(fine.status == 0)
    #expect(fine.standardOutput == "")
  }

  @Test func installSaysWhatIsAskedForAndOnReplacingWhatIsNew() throws {
    let bundle = try bundle(
      "ch.example.hoi", folder: "Hoi", entitlements: Self.network + "\n" + Self.kdeConnect)
    let installed = "Installed Hoi (ch.example.hoi) in \(desktop.userExtensions)/ch.example.hoi.shareext\n"
    let first = try Tool.run(["install", bundle], on: desktop)
    #expect(first.status == 0, "\(first.standardError)")
    #expect(
      first.standardOutput == """
        Permissions:
          Network access
          Session bus: talk to org.kde.kdeconnect

        """ + installed)
    // The same again: nothing new to say.
    let again = try Tool.run(["install", bundle], on: desktop)
    #expect(again.status == 0)
    #expect(again.standardOutput == installed)
    // A new version that asks for more: only what is new.
    try write(
      Self.network + "\n"
        + "<key>org.xdgshare.session-bus.talk</key><array><string>org.kde.kdeconnect</string><string>org.freedesktop.Notifications</string></array>\n"
        + "<key>com.apple.security.application-groups</key><array><string>group.ch.example.hoi</string></array>\n"
        + "<key>org.xdgshare.display</key><true/>\n"
        + "<key>com.apple.security.files.user-selected.read-write</key><true/>\n"
        + "<key>com.apple.security.files.downloads.read-write</key><true/>\n"
        + "<key>com.apple.security.assets.movies.read-write</key><true/>\n"
        + "<key>com.apple.security.print</key><true/>\n"
        + "<key>com.apple.security.device.bluetooth</key><true/>",
      into: bundle)
    let more = try Tool.run(["install", bundle], on: desktop)
    #expect(more.status == 0, "\(more.standardError)")
    #expect(
      more.standardOutput == """
        New permissions:
          Session bus: talk to org.freedesktop.Notifications
          Application groups: group.ch.example.hoi
          Display
          Items writable
          Folders: Downloads, Videos (read-write)
          Printing
          Bluetooth

        """ + installed)
    // Asking for less is nothing new either.
    try write(nil, into: bundle)
    let less = try Tool.run(["install", bundle], on: desktop)
    #expect(less.status == 0)
    #expect(less.standardOutput == installed)
  }

  @Test func aBundleThatAsksForNoSandboxNeedsAllowUnconfined() throws {
    let bundle = try bundle(
      "ch.example.wild", folder: "Wild", entitlements: "<key>org.xdgshare.unconfined</key><true/>")
    let refused = try Tool.run(["install", bundle], on: desktop)
    #expect(refused.status == 1)
    #expect(refused.standardOutput == "")
    #expect(
      refused.standardError
        == "xdg-share: not installing Hoi (ch.example.wild): it asks to run without a sandbox (org.xdgshare.unconfined), with everything your account can reach; if you trust it, install it with --allow-unconfined\n"
    )
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.userExtensions)/ch.example.wild.shareext"))

    let allowed = try Tool.run(["install", "--allow-unconfined", bundle], on: desktop)
    #expect(allowed.status == 0, "\(allowed.standardError)")
    #expect(allowed.standardOutput.hasPrefix("Permissions:\n  No sandbox (unconfined)\nInstalled Hoi"))
    #expect(FileManager.default.fileExists(atPath: "\(desktop.userExtensions)/ch.example.wild.shareext"))
    // Installed once, it still needs the flag to be installed again: it is as wild as it was.
    #expect(try Tool.run(["install", bundle], on: desktop).status == 1)
    #expect(try Tool.run(["install", bundle, "--allow-unconfined"], on: desktop).status == 0)
    #expect(try Tool.run(["install", "--allow-unconfined=yes", bundle], on: desktop).status == 2)
  }

  /// A bundle placed in an extensions folder by hand is taken as it is, unconfined or not.
  @Test func aBundlePlacedByHandIsTakenAsItIs() throws {
    let bundle = try BundleFixture(id: "ch.example.wild", name: "Wild", ruleXML: Self.anyItem)
      .write(into: desktop.systemExtensions)
    try write("<key>org.xdgshare.unconfined</key><true/>", into: bundle)
    let list = try Tool.run(["list", "--json"], on: desktop)
    let objects = try #require(
      try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]])
    #expect(objects.map { $0["id"] as? String } == ["ch.example.wild"])
    #expect(
      (objects[0]["entitlements"] as? [String: Any])?["org.xdgshare.unconfined"] as? Bool == true)
  }

  @Test func listWhyAndDoctorShowThem() throws {
    let hoi = try BundleFixture(id: "ch.example.hoi", name: "Hoi", ruleXML: Self.anyItem)
      .write(into: desktop.userExtensions)
    try write(Self.network + "\n" + Self.kdeConnect, into: hoi)
    try BundleFixture(id: "ch.example.plain", name: "Plain", ruleXML: Self.anyItem)
      .write(into: desktop.userExtensions)

    let list = try Tool.run(["list", "--json"], on: desktop)
    let objects = try #require(
      try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]])
    let byID = Dictionary(uniqueKeysWithValues: objects.map { ($0["id"] as? String ?? "", $0) })
    let declared = try #require(byID["ch.example.hoi"]?["entitlements"] as? [String: Any])
    #expect(declared["com.apple.security.network.client"] as? Bool == true)
    #expect(declared["org.xdgshare.session-bus.talk"] as? [String] == ["org.kde.kdeconnect"])
    #expect(declared.count == 2)
    // Always there: `{}` for none.
    #expect((byID["ch.example.plain"]?["entitlements"] as? [String: Any])?.isEmpty == true)
    #expect(list.standardOutput.contains("\"entitlements\" : {}"))

    _ = try desktop.writeFile(named: "a.txt", contents: "a")
    let why = try Tool.run(["why", "ch.example.hoi", "a.txt"], on: desktop)
    #expect(why.status == 0)
    let lines = why.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(
      lines.prefix(3) == [
        "Hoi (ch.example.hoi)", "  \(hoi)",
        "  Permissions: Network access; Session bus: talk to org.kde.kdeconnect",
      ])
    let plainWhy = try Tool.run(["why", "ch.example.plain", "a.txt"], on: desktop)
    #expect(!plainWhy.standardOutput.contains("Permissions"))
    let whyJSON = try #require(
      try JSONSerialization.jsonObject(
        with: Data(
          try Tool.run(["why", "--json", "ch.example.hoi", "a.txt"], on: desktop).standardOutput.utf8))
        as? [String: Any])
    #expect((whyJSON["entitlements"] as? [String: Any])?.count == 2)

    let doctor = try Tool.run(["doctor"], on: desktop)
    #expect(
      doctor.standardOutput.contains(
        "    ✓ Hoi (ch.example.hoi), ch.example.hoi.shareext: loaded\n        Permissions: Network access; Session bus: talk to org.kde.kdeconnect\n"
      ), "\(doctor.standardOutput)")
    #expect(
      doctor.standardOutput.contains("    ✓ Plain (ch.example.plain), ch.example.plain.shareext: loaded\n"))
    let doctorJSON = try #require(
      try JSONSerialization.jsonObject(
        with: Data(try Tool.run(["doctor", "--json"], on: desktop).standardOutput.utf8)) as? [String: Any])
    let bundles = try #require(doctorJSON["bundles"] as? [[String: Any]])
    #expect(
      bundles.map { ($0["entitlements"] as? [String: Any])?.count } == [2, 0])
  }

  // MARK: new --from-xcode

  /// An Xcode target's folder: its Info.plist and, for each of `entitlements`, a `.entitlements`
  /// file of that name holding `<dict>body</dict>`; returns the Info.plist's relative path.
  func xcodeTarget(entitlements: [(String, String)]) throws -> String {
    let folder = desktop.files + "/ShareExtension"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try XcodeFixture.mastodon.xml.write(toFile: folder + "/Info.plist", atomically: true, encoding: .utf8)
    for (name, body) in entitlements {
      try """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
      \(body)
      </dict>
      </plist>
      """.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
    }
    return "ShareExtension/Info.plist"
  }

  static let xcodeEntitlements = """
    \t<key>com.apple.security.app-sandbox</key>
    \t<true/>
    \t<key>com.apple.security.application-groups</key>
    \t<array>
    \t\t<string>group.$(PRODUCT_BUNDLE_IDENTIFIER)</string>
    \t</array>
    \t<key>com.apple.security.network.client</key>
    \t<true/>
    \t<key>keychain-access-groups</key>
    \t<array>
    \t\t<string>$(AppIdentifierPrefix)com.example</string>
    \t</array>
    """

  @Test func fromXcodeCarriesTheEntitlementsOver() throws {
    let source = try xcodeTarget(entitlements: [("Share.entitlements", Self.xcodeEntitlements)])
    let ported = try Tool.run(
      ["new", "--from-xcode", source] + XcodeFixture.mastodon.defines + [
        "--identifier", "org.example.share", "Share",
      ],
      on: desktop)
    #expect(ported.status == 0, "\(ported.standardError)")
    let lines = ported.standardOutput.split(separator: "\n").map(String.init)
    #expect(
      Array(lines.prefix(4)) == [
        "Wrote Share.shareext (org.example.share) from \(source).",
        "Wrote Share.shareext/Entitlements.plist from ShareExtension/Share.entitlements: com.apple.security.network.client, com.apple.security.application-groups.",
        "  com.apple.security.app-sandbox: left out, as every service is sandboxed here and reads its items",
        "  keychain-access-groups: left out, as it has no meaning here",
      ])
    let written = try #require(
      try PropertyListSerialization.propertyList(
        from: Data(contentsOf: URL(fileURLWithPath: desktop.files + "/Share.shareext/Entitlements.plist")),
        format: nil) as? [String: Any])
    #expect(written.count == 2)
    #expect(written["com.apple.security.network.client"] as? Bool == true)
    #expect(written["com.apple.security.application-groups"] as? [String] == ["group.org.example.share"])
    #expect(try Tool.run(["validate", "Share.shareext"], on: desktop).standardOutput == "")
    let install = try Tool.run(["install", "Share.shareext"], on: desktop)
    #expect(
      install.standardOutput.hasPrefix(
        "Permissions:\n  Network access\n  Application groups: group.org.example.share\nInstalled"))
  }

  @Test func fromXcodeTakesTheFileItIsGivenOrNamesTheChoice() throws {
    let source = try xcodeTarget(entitlements: [
      ("Other.entitlements", Self.network), ("Third.entitlements", "<key>org.xdgshare.display</key><true/>"),
    ])
    // Two beside it, neither the target's by name: which one is for the user to say.
    let ambiguous = try Tool.run(
      ["new", "--from-xcode", source] + XcodeFixture.mastodon.defines + ["Share"], on: desktop)
    #expect(ambiguous.status == 1)
    #expect(
      ambiguous.standardError.contains(
        "xdg-share: cannot tell which of Other.entitlements, Third.entitlements beside \(source) is the target's entitlements; give it with --entitlements FILE"
      ), "\(ambiguous.standardError)")
    #expect(!FileManager.default.fileExists(atPath: desktop.files + "/Share.shareext"))

    let given = try Tool.run(
      ["new", "--from-xcode", source, "--entitlements", "ShareExtension/Third.entitlements"]
        + XcodeFixture.mastodon.defines + ["Share"], on: desktop)
    #expect(given.status == 0, "\(given.standardError)")
    #expect(
      given.standardOutput.contains(
        "Wrote Share.shareext/Entitlements.plist from ShareExtension/Third.entitlements: org.xdgshare.display."
      ))
    // --entitlements is for --from-xcode only.
    #expect(
      try Tool.run(["new", "--shell", "--entitlements", "x.entitlements", "Other"], on: desktop).status == 2)
  }

  @Test func fromXcodeRefusesAnUndefinedVariableInAKeyThatIsRead() throws {
    let source = try xcodeTarget(entitlements: [
      (
        "Share.entitlements",
        "<key>com.apple.security.application-groups</key><array><string>$(TeamIdentifierPrefix)group.a</string></array>"
      )
    ])
    let ported = try Tool.run(
      ["new", "--from-xcode", source] + XcodeFixture.mastodon.defines + ["Share"], on: desktop)
    #expect(ported.status == 1)
    #expect(
      ported.standardError.contains(
        "ShareExtension/Share.entitlements:5:56: com.apple.security.application-groups: $(TeamIdentifierPrefix) is not defined; give it a value with --define TeamIdentifierPrefix=VALUE"
      ), "\(ported.standardError)")
    #expect(!FileManager.default.fileExists(atPath: desktop.files + "/Share.shareext"))
  }

  /// Nothing that carries over: no Entitlements.plist, and each key named.
  @Test func fromXcodeWithNothingThatCarriesOver() throws {
    let source = try xcodeTarget(entitlements: [
      ("Share.entitlements", "<key>com.apple.security.app-sandbox</key><true/>")
    ])
    let ported = try Tool.run(
      ["new", "--from-xcode", source] + XcodeFixture.mastodon.defines + ["Share"], on: desktop)
    #expect(ported.status == 0, "\(ported.standardError)")
    #expect(
      ported.standardOutput.contains(
        "Nothing in ShareExtension/Share.entitlements carries over, so the service has no entitlements (no Entitlements.plist).\n  com.apple.security.app-sandbox: left out"
      ), "\(ported.standardOutput)")
    #expect(!FileManager.default.fileExists(atPath: desktop.files + "/Share.shareext/Entitlements.plist"))
  }

  /// The templates declare nothing.
  @Test(arguments: ["--shell", "--python"])
  func templatesDeclareNothing(_ template: String) throws {
    #expect(try Tool.run(["new", template, "Demo"], on: desktop).status == 0)
    #expect(!FileManager.default.fileExists(atPath: desktop.files + "/Demo.shareext/Entitlements.plist"))
  }
}
