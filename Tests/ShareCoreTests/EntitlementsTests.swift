import Foundation
import ShareTestSupport
import Testing

@testable import ShareCore

/// `Entitlements.plist` at a bundle's root: every key with its type, a wrong type an error placed
/// at its value, a key without a meaning here a warning, and `XDGShareApplicationGroups` one list
/// with the file's groups.
@Suite struct EntitlementsTests {
  let desktop: TemporaryDesktop
  let loader = BundleLoader(languages: [])

  init() throws {
    desktop = try TemporaryDesktop(prefix: "share-core-test")
  }

  /// A valid bundle with `infoKeys` added to its Info.plist and, unless nil, an Entitlements.plist
  /// holding `<dict>entitlements</dict>` (each key on a line of its own, from line 3).
  func bundle(entitlements: String?, infoKeys: String = "") throws -> HandWrittenBundle {
    let bundle = try HandWrittenBundle(
      in: desktop.userExtensions, body: HandWrittenBundle.validKeys() + infoKeys)
    if let entitlements {
      try """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
      \(entitlements)
      </dict></plist>
      """.write(toFile: "\(bundle.path)/Entitlements.plist", atomically: true, encoding: .utf8)
    }
    return bundle
  }

  func load(_ bundle: HandWrittenBundle) -> BundleLoader.Outcome { loader.load(bundleAt: bundle.path) }

  @Test func withoutTheFileAServiceHasNone() throws {
    let outcome = load(try bundle(entitlements: nil))
    #expect(outcome.problems == [])
    let service = try #require(outcome.service)
    #expect(service.entitlements == .none)
    #expect(service.entitlements.isNone)
    #expect(service.entitlements.report == [:])
    // An empty dictionary asks for nothing either.
    #expect(load(try bundle(entitlements: "")).service?.entitlements == Entitlements.none)
  }

  @Test func everyKeyIsRead() throws {
    let outcome = load(
      try bundle(
        entitlements: """
          <key>com.apple.security.app-sandbox</key><true/>
          <key>com.apple.security.files.user-selected.read-only</key><true/>
          <key>com.apple.security.network.client</key><true/>
          <key>com.apple.security.application-groups</key><array><string>group.ch.example.hoi</string></array>
          <key>com.apple.security.files.user-selected.read-write</key><true/>
          <key>com.apple.security.files.downloads.read-write</key><true/>
          <key>com.apple.security.assets.pictures.read-write</key><true/>
          <key>com.apple.security.assets.music.read-write</key><true/>
          <key>com.apple.security.assets.movies.read-write</key><false/>
          <key>com.apple.security.print</key><true/>
          <key>com.apple.security.device.bluetooth</key><true/>
          <key>org.xdgshare.session-bus.talk</key><array><string>org.kde.kdeconnect</string><string>org.freedesktop.portal.*</string></array>
          <key>org.xdgshare.display</key><true/>
          <key>org.xdgshare.unconfined</key><true/>
          """))
    // Apple's app-sandbox and user-selected.read-only, true, are what every service is here.
    #expect(outcome.problems == [])
    let service = try #require(outcome.service)
    #expect(
      service.entitlements
        == Entitlements(
          networkClient: true, applicationGroups: ["group.ch.example.hoi"], userSelectedReadWrite: true,
          userFolders: [.downloads, .pictures, .music], print: true, bluetooth: true,
          sessionBusTalk: ["org.kde.kdeconnect", "org.freedesktop.portal.*"], display: true, unconfined: true)
    )
    #expect(service.applicationGroups == ["group.ch.example.hoi"])
    #expect(
      service.entitlements.permissions == [
        .network, .sessionBus(["org.kde.kdeconnect", "org.freedesktop.portal.*"]),
        .applicationGroups(["group.ch.example.hoi"]), .display, .itemsWritable,
        .folders([.downloads, .pictures, .music]), .print, .bluetooth, .unconfined,
      ])
    // As the reports give them: Apple's key names, what is granted only.
    #expect(
      service.entitlements.report == [
        "com.apple.security.network.client": .bool(true),
        "com.apple.security.application-groups": .strings(["group.ch.example.hoi"]),
        "com.apple.security.files.user-selected.read-write": .bool(true),
        "com.apple.security.files.downloads.read-write": .bool(true),
        "com.apple.security.assets.pictures.read-write": .bool(true),
        "com.apple.security.assets.music.read-write": .bool(true),
        "com.apple.security.print": .bool(true), "com.apple.security.device.bluetooth": .bool(true),
        "org.xdgshare.session-bus.talk": .strings(["org.kde.kdeconnect", "org.freedesktop.portal.*"]),
        "org.xdgshare.display": .bool(true), "org.xdgshare.unconfined": .bool(true),
      ])
  }

  @Test func aBinaryFileIsReadToo() throws {
    let bundle = try bundle(entitlements: nil)
    let data = try PropertyListSerialization.data(
      fromPropertyList: ["com.apple.security.network.client": true], format: .binary, options: 0)
    try data.write(to: URL(fileURLWithPath: bundle.path + "/Entitlements.plist"))
    #expect(load(bundle).service?.entitlements == Entitlements(networkClient: true))
  }

  /// A wrong type is an error, placed at its value and naming what was expected and found; the
  /// bundle does not load.
  @Test func aWrongTypeIsAnError() throws {
    let bundle = try bundle(
      entitlements: """
        <key>com.apple.security.network.client</key><string>YES</string>
        <key>com.apple.security.application-groups</key><string>group.a.b</string>
        <key>org.xdgshare.session-bus.talk</key><array><string>org.*</string><integer>1</integer></array>
        <key>org.xdgshare.display</key><integer>1</integer>
        <key>com.apple.security.application-groups</key><array><string>nogroup</string></array>
        """)
    let outcome = load(bundle)
    #expect(outcome.service == nil)
    let file = bundle.path + "/Entitlements.plist"
    let lines = outcome.problems.map(Diagnostics.line)
    #expect(
      lines.contains(
        "\(file):3:45: com.apple.security.network.client: expected a boolean, found the string \"YES\""),
      "\(lines)")
    #expect(
      lines.contains(
        "\(file):5:48: org.xdgshare.session-bus.talk: expected a well-known D-Bus name such as org.kde.kdeconnect, or one ending in .* for the names below it (org.kde.*), found the string \"org.*\""
      ), "\(lines)")
    #expect(
      lines.contains(
        "\(file):5:70: org.xdgshare.session-bus.talk: expected a well-known D-Bus name such as org.kde.kdeconnect, or one ending in .* for the names below it (org.kde.*), found the integer 1"
      ), "\(lines)")
    #expect(
      lines.contains("\(file):6:32: org.xdgshare.display: expected a boolean, found the integer 1"),
      "\(lines)")
    #expect(outcome.problems.allSatisfy { $0.severity == .error && $0.file == file })
  }

  @Test func aListThatIsNoListAndAGroupThatIsNoGroupAreErrors() throws {
    let outcome = load(
      try bundle(
        entitlements: """
          <key>com.apple.security.application-groups</key><string>group.a.b</string>
          <key>org.xdgshare.session-bus.talk</key><array><string>org.kde.kdeconnect</string></array>
          """))
    #expect(outcome.service == nil)
    #expect(
      outcome.problems.map(\.kind) == [
        .unexpectedValue(expected: .arrayOfStrings, found: .string("group.a.b"))
      ])
    let group = load(
      try bundle(
        entitlements:
          "<key>com.apple.security.application-groups</key><array><string>nogroup</string></array>"
      ))
    #expect(
      group.problems.map(\.kind) == [.unexpectedValue(expected: .applicationGroup, found: .string("nogroup"))]
    )
  }

  /// An unknown key is a warning naming it: a likely typo with the key meant, any other as
  /// having no meaning here. Apple's keys for what is always so warn only when not true.
  @Test func anUnknownKeyIsAWarning() throws {
    let bundle = try bundle(
      entitlements: """
        <key>org.xdgshare.dispaly</key><true/>
        <key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)x</string></array>
        <key>com.apple.security.files.downloads.read-only</key><true/>
        <key>com.apple.security.app-sandbox</key><false/>
        """)
    let outcome = load(bundle)
    let service = try #require(outcome.service)
    #expect(service.entitlements == .none)
    let file = bundle.path + "/Entitlements.plist"
    #expect(
      outcome.problems.map(Diagnostics.line) == [
        "\(file):6:42: com.apple.security.app-sandbox: warning: has no meaning here: every service is sandboxed and reads the items it is handed (org.xdgshare.unconfined asks for no sandbox)",
        "\(file):5:56: com.apple.security.files.downloads.read-only: warning: has no meaning here, so it grants nothing (docs/sandbox.md lists the entitlements that do)",
        "\(file):4:34: keychain-access-groups: warning: has no meaning here, so it grants nothing (docs/sandbox.md lists the entitlements that do)",
        "\(file):3:32: org.xdgshare.dispaly: warning: unknown key; did you mean org.xdgshare.display?",
      ])
  }

  /// A build variable in a key that is read is an error, as in Info.plist.
  @Test func aBuildVariableInAGroupIsAnError() throws {
    let outcome = load(
      try bundle(
        entitlements:
          "<key>com.apple.security.application-groups</key><array><string>$(TeamIdentifierPrefix)group.a</string></array>"
      ))
    #expect(outcome.service == nil)
    #expect(outcome.problems.map(\.kind) == [.unexpandedBuildVariable("$(TeamIdentifierPrefix)")])
  }

  /// `XDGShareApplicationGroups` means the same: the two lists are one, Info.plist's first, each
  /// group once; `applicationGroups` and `entitlements.applicationGroups` are the same list.
  @Test func infoPlistGroupsAndTheFilesAreOneList() throws {
    let outcome = load(
      try bundle(
        entitlements: """
          <key>com.apple.security.application-groups</key><array><string>group.b.two</string><string>group.a.one</string></array>
          <key>com.apple.security.network.client</key><true/>
          """,
        infoKeys: "<key>XDGShareApplicationGroups</key><array><string>group.a.one</string></array>"))
    #expect(outcome.problems == [])
    var service = try #require(outcome.service)
    #expect(service.applicationGroups == ["group.a.one", "group.b.two"])
    #expect(service.entitlements.applicationGroups == ["group.a.one", "group.b.two"])
    #expect(service.entitlements.networkClient)
    service.applicationGroups = ["group.c.three"]
    #expect(service.entitlements.applicationGroups == ["group.c.three"])
    // Info.plist's alone: granted as the entitlement is.
    let only = try #require(
      load(
        try HandWrittenBundle(
          in: desktop.files,
          body: HandWrittenBundle.validKeys()
            + "<key>XDGShareApplicationGroups</key><array><string>group.a.one</string></array>")
      ).service)
    #expect(only.entitlements == Entitlements(applicationGroups: ["group.a.one"]))
    #expect(only.entitlements.permissions == [.applicationGroups(["group.a.one"])])
  }

  /// A file that cannot be read is an error, as Info.plist's; an invalid Info.plist does not
  /// hide the file's problems.
  @Test func aMalformedFileIsAnErrorBesideInfoPlists() throws {
    let bundle = try HandWrittenBundle(
      in: desktop.userExtensions, body: "<key>CFBundleName</key><string>X</string>")
    try "<plist><dict><key>a</key></dict></plist>".write(
      toFile: bundle.path + "/Entitlements.plist", atomically: true, encoding: .utf8)
    let outcome = load(bundle)
    #expect(outcome.service == nil)
    #expect(outcome.problems.contains { $0.file == bundle.plist })
    #expect(
      outcome.problems.contains {
        if case .malformedPropertyList = $0.kind {
          $0.file == bundle.path + "/Entitlements.plist"
        } else {
          false
        }
      })
    try FileManager.default.removeItem(atPath: bundle.path + "/Entitlements.plist")
    try FileManager.default.createDirectory(
      atPath: bundle.path + "/Entitlements.plist", withIntermediateDirectories: true)
    #expect(
      load(bundle).problems.contains {
        $0.kind == .unreadable(.notARegularFile(maximumSize: 1 << 20))
          && $0.file == bundle.path + "/Entitlements.plist"
      })
  }

  /// What is new when a bundle replaces one: only what the old did not have.
  @Test func permissionsBeyondAnEarlierCopy() {
    let old = Entitlements(networkClient: true, sessionBusTalk: ["org.a.b"], display: true)
    let new = Entitlements(
      networkClient: true, applicationGroups: ["group.x.y"], userFolders: [.downloads],
      sessionBusTalk: ["org.a.b", "org.c.d"], display: true, unconfined: true)
    #expect(
      new.permissions(beyond: old) == [
        .sessionBus(["org.c.d"]), .applicationGroups(["group.x.y"]), .folders([.downloads]), .unconfined,
      ])
    #expect(old.permissions(beyond: new) == [])
    #expect(Entitlements.none.permissions == [])
  }

  @Test func busNameFilters() {
    for name in ["org.kde.kdeconnect", "org.kde.*", "org.freedesktop.portal.Desktop", "a.b"] {
      #expect(InfoPlistForm.isBusNameFilter(name), "\(name)")
    }
    for name in ["org.*", "*", "org", ":1.5", "org.kde.*.x", "org..kde", "org.kde.", "org.9kde", ""] {
      #expect(!InfoPlistForm.isBusNameFilter(name), "\(name)")
    }
  }
}
