import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// Paths are bytes: bundles in folders whose names are not UTF-8, under XDG folders whose paths
/// are not UTF-8 either, are found, checked and run by the built `xdg-share`.
@Suite struct BytePathTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  static func u8(_ text: String) -> [UInt8] { Array(text.utf8) }
  /// `café` in Latin-1: the byte 0xE9 alone is not UTF-8.
  static let cafe: [UInt8] = Array("caf".utf8) + [0xE9]

  /// Where the folders of a case live, and the environment entries that point there.
  struct Layout: CustomTestStringConvertible, Sendable {
    var label: String
    /// Folder names under the desktop's root, as bytes, by variable.
    var folders: [String: [UInt8]]
    /// The variable whose folder (plus `extensions`) holds the bundle.
    var bundleBase: (variable: String, suffix: String)
    var testDescription: String { label }
  }

  static let layouts: [Layout] = [
    Layout(label: "bundle folder only", folders: [:], bundleBase: ("XDG_DATA_HOME", "/xdg-share/extensions")),
    Layout(
      label: "XDG_DATA_HOME and XDG_STATE_HOME not UTF-8",
      folders: ["XDG_DATA_HOME": u8("data-") + [0xFF], "XDG_STATE_HOME": u8("state-") + [0xFE, 0x0A]],
      bundleBase: ("XDG_DATA_HOME", "/xdg-share/extensions")),
    Layout(
      label: "a system folder in XDG_DATA_DIRS not UTF-8",
      folders: ["XDG_DATA_DIRS": u8("syst") + [0xE8, 0x6D]],
      bundleBase: ("XDG_DATA_DIRS", "/xdg-share/extensions")),
    Layout(
      label: "HOME not UTF-8, no XDG_DATA_HOME or XDG_STATE_HOME",
      folders: ["HOME": u8("h") + [0xF6] + u8("me")],
      bundleBase: ("HOME", "/.local/share/xdg-share/extensions")),
  ]

  /// Makes the folders of `layout`, writes a bundle into `caf\xe9.shareext` there whose program
  /// records `XDG_SHARE_BUNDLE_PATH` and completes, and returns the environment and the bundle.
  func prepare(_ layout: Layout) throws -> (environment: [String: [UInt8]], unset: [String], bundle: [UInt8])
  {
    let root = Self.u8(desktop.root + "/")
    var environment: [String: [UInt8]] = [:]
    for (variable, name) in layout.folders {
      environment[variable] = root + name
      try FileSystem.makeDirectories(root + name)
    }
    var unset: [String] = []
    if layout.folders["HOME"] != nil { unset = ["XDG_DATA_HOME", "XDG_STATE_HOME"] }
    let base = environment[layout.bundleBase.variable] ?? Self.u8("\(desktop.root)/data")
    let extensions = base + Self.u8(layout.bundleBase.suffix)
    try FileSystem.makeDirectories(extensions)
    // The system folder must still lead to shared-mime-info, as the desktop's own does.
    if layout.bundleBase.variable == "XDG_DATA_DIRS" {
      environment["XDG_DATA_DIRS"] = base + Self.u8(":/usr/share")
    }
    let seen = "\(desktop.root)/files/seen-bundle-path"
    let staged = try BundleFixture(
      id: "org.example.cafe", name: "Café",
      ruleXML: BundleFixture.predicate(
        "ANY extensionItems.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.item\""),
      program: """
        #!/bin/sh
        cat > /dev/null
        printf '%s' "$XDG_SHARE_BUNDLE_PATH" > '\(seen)'
        pwd -P >> '\(seen).pwd'
        echo '{"complete": {}}'
        """, entitlements: [.unconfined]
    ).write(into: desktop.files, folder: "staged")
    let bundle = extensions + [UInt8(ascii: "/")] + Self.cafe + Self.u8(".shareext")
    try FileSystem.rename(Self.u8(staged), to: bundle)
    return (environment, unset, bundle)
  }

  func run(
    _ arguments: [[UInt8]], _ prepared: (environment: [String: [UInt8]], unset: [String], bundle: [UInt8])
  ) throws -> Tool.Result {
    // Unset by pointing at nothing the specification accepts: a relative value is ignored.
    let ignored = Dictionary(uniqueKeysWithValues: prepared.unset.map { ($0, "relative") })
    return try Tool.run(arguments, on: desktop, environment: ignored, environmentBytes: prepared.environment)
  }

  /// `caf\xe9` as xdg-share prints a path that is not UTF-8: C-style escapes.
  static func escaped(_ bytes: [UInt8]) -> String {
    bytes.map { $0 < 0x80 ? String(UnicodeScalar($0)) : String(format: "\\x%02x", $0) }.joined()
      .replacingOccurrences(of: "\n", with: "\\n")
  }

  @Test(arguments: layouts)
  func bundleIsListedValidatedAndShared(_ layout: Layout) throws {
    let prepared = try prepare(layout)

    let list = try run([Self.u8("list")], prepared)
    #expect(list.status == 0, "\(list.standardError)")
    #expect(list.standardOutput.contains("org.example.cafe"), "\(list.standardOutput)")
    #expect(!list.standardError.contains("cafe"), "\(list.standardError)")

    let json = try run([Self.u8("list"), Self.u8("--json")], prepared)
    #expect(json.status == 0, "\(json.standardError)")
    // Its string fields (`entitlements` is an object).
    let services = (try JSONSerialization.jsonObject(with: Data(json.rawOutput)) as? [[String: Any]] ?? [])
      .map {
        $0.compactMapValues { $0 as? String }
      }
    let cafe = try #require(services.first { $0["id"] == "org.example.cafe" }, "\(json.standardOutput)")
    #expect(cafe["name"] == "Café")
    #expect(cafe["bundle"] == Self.escaped(prepared.bundle))
    let url = try #require(cafe["bundleURL"])
    #expect(url.hasPrefix("file:///") && url.hasSuffix("/caf%E9.shareext"), "\(url)")

    let validate = try run([Self.u8("validate"), prepared.bundle], prepared)
    #expect(validate.status == 0, "\(validate.standardOutput)")
    #expect(validate.standardOutput.isEmpty)
    let byPlist = try run([Self.u8("validate"), prepared.bundle + Self.u8("/Info.plist")], prepared)
    #expect(byPlist.status == 0, "\(byPlist.standardOutput)")

    let file = try desktop.writeFile(named: "note.txt", contents: "hello")
    let share = try run(
      [Self.u8("share"), Self.u8("--service"), Self.u8("org.example.cafe"), Self.u8("--"), Self.u8(file)],
      prepared)
    #expect(share.status == 0, "\(share.standardError)")
    let seen = try #require(FileManager.default.contents(atPath: "\(desktop.root)/files/seen-bundle-path"))
    #expect(Array(seen) == prepared.bundle)
    let workingDirectory = try #require(
      FileManager.default.contents(atPath: "\(desktop.root)/files/seen-bundle-path.pwd"))
    #expect(Array(workingDirectory) == prepared.bundle + [0x0A])

    // The record lands in the history folder the environment names, byte for byte.
    let stateHome =
      prepared.environment["XDG_STATE_HOME"]
      ?? prepared.environment["HOME"].map { $0 + Self.u8("/.local/state") }
      ?? Self.u8("\(desktop.root)/state")
    let records = FileSystem.entries(ofDirectory: stateHome + Self.u8("/xdg-share/history")) ?? []
    #expect(records.filter { $0.reversed().starts(with: Self.u8(".json").reversed()) }.count == 1)
    let history = try run([Self.u8("history"), Self.u8("--json")], prepared)
    #expect(history.status == 0, "\(history.standardError)")
    let entries = try JSONSerialization.jsonObject(with: Data(history.rawOutput)) as? [[String: Any]] ?? []
    #expect(entries.count == 1)
    #expect(entries.first?["status"] as? String == "completed")
    #expect(entries.first?["serviceId"] as? String == "org.example.cafe")
  }

  @Test func problemsOfABundleNotUTF8NameItWithEscapes() throws {
    let bundle = try BundleFixture(id: "org.example.bad", name: "Bad", ruleXML: "<array/>")
      .write(into: desktop.files, folder: "staged")
    let renamed = Self.u8("\(desktop.files)/") + Self.cafe + Self.u8(".shareext")
    try FileSystem.rename(Self.u8(bundle), to: renamed)
    let result = try Tool.run([Self.u8("validate"), renamed], on: desktop)
    #expect(result.status == 1)
    let expected = "\(desktop.files)/caf\\xe9.shareext/Info.plist:13:47: NSExtensionActivationRule:"
    #expect(result.standardOutput.hasPrefix(expected), "\(result.standardOutput)")
    #expect(!result.standardOutput.contains("no such file"))
  }

  @Test func aUserBundleNotUTF8StillShadowsASystemOneOfTheSameIdentifier() throws {
    let prepared = try prepare(Self.layouts[0])
    try BundleFixture(
      id: "org.example.cafe", name: "System Café",
      ruleXML: BundleFixture.predicate(
        "ANY extensionItems.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.item\"")
    )
    .write(into: desktop.systemExtensions)
    let json = try run([Self.u8("list"), Self.u8("--json")], prepared)
    // Its string fields (`entitlements` is an object).
    let services = (try JSONSerialization.jsonObject(with: Data(json.rawOutput)) as? [[String: Any]] ?? [])
      .map {
        $0.compactMapValues { $0 as? String }
      }
    #expect(services.filter { $0["id"] == "org.example.cafe" }.map { $0["name"] } == ["Café"])
  }

  @Test func anAppGroupContainerUnderADataHomeNotUTF8IsMadeThere() throws {
    let dataHome = Self.u8("\(desktop.root)/data-") + [0xFF]
    let result = try Tool.run(
      [Self.u8("group"), Self.u8("path"), Self.u8("group.ch.example.hoi")], on: desktop,
      environmentBytes: ["XDG_DATA_HOME": dataHome])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput == "\(desktop.root)/data-\\xff/xdg-share/groups/group.ch.example.hoi\n")
    let container = dataHome + Self.u8("/xdg-share/groups/group.ch.example.hoi")
    let status = try FileSystem.status(container)
    #expect(status.kind == .directory)
    #expect(status.permissions == 0o700)
    // Nothing was made under the escaped name.
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.root)/data-\\xff"))
  }

  @Test(arguments: [layouts[0], layouts[1]])
  func uninstallRemovesABundleNotUTF8(_ layout: Layout) throws {
    let prepared = try prepare(layout)
    let result = try run([Self.u8("uninstall"), Self.u8("org.example.cafe")], prepared)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput == "Removed \(Self.escaped(prepared.bundle))\n")
    #expect((try? FileSystem.linkStatus(prepared.bundle)) == nil)
    let folder = Array(prepared.bundle[..<(prepared.bundle.lastIndex(of: UInt8(ascii: "/")) ?? 0)])
    #expect(FileSystem.entries(ofDirectory: folder) == [])
    let list = try run([Self.u8("list")], prepared)
    #expect(!list.standardOutput.contains("org.example.cafe"))
  }

  /// `install` copies by bytes: from a bundle folder that is not UTF-8, into a data folder that
  /// is not UTF-8 either; the copy keeps its files' modes and its links, replaces an earlier
  /// copy, and is then listed and shared.
  @Test func installFromAndIntoFoldersNotUTF8() throws {
    var fixture = BundleFixture(
      id: "org.example.ok", name: "OK",
      ruleXML: BundleFixture.predicate(
        "ANY extensionItems.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.item\""),
      program: """
        #!/bin/sh
        cat > /dev/null
        pwd -P > "$XDG_STATE_HOME/seen-pwd"
        echo '{"complete": {}}'
        """)
    fixture.executableName = "run"
    let staged = try fixture.write(into: desktop.files, folder: "staged")
    let source = Self.u8("\(desktop.files)/") + Self.cafe + Self.u8(".shareext")
    try FileSystem.rename(Self.u8(staged), to: source)
    // A link within the bundle stays relative; a read-only data file keeps its mode.
    try FileSystem.makeSymbolicLink(at: source + Self.u8("/again"), leadingTo: Self.u8("run"))
    try FileSystem.makeDirectories(source + Self.u8("/data"))
    try FileSystem.writeAtomically(Self.u8("x"), to: source + Self.u8("/data/") + Self.cafe, mode: 0o400)

    let dataHome = Self.u8("\(desktop.root)/data-") + [0xFF]
    let installed = dataHome + Self.u8("/xdg-share/extensions/org.example.ok.shareext")
    for round in 1...2 {
      let result = try Tool.run(
        [Self.u8("install"), source], on: desktop, environmentBytes: ["XDG_DATA_HOME": dataHome])
      #expect(result.status == 0, "round \(round): \(result.standardError)")
      #expect(
        result.standardOutput
          == "Installed OK (org.example.ok) in \(desktop.root)/data-\\xff/xdg-share/extensions/org.example.ok.shareext\n"
      )
    }
    #expect(FileSystem.linkDestination(installed + Self.u8("/again")) == Self.u8("run"))
    #expect(try FileSystem.status(installed + Self.u8("/run")).permissions == 0o755)
    #expect(try FileSystem.status(installed + Self.u8("/data/") + Self.cafe).permissions == 0o400)
    // Only the one copy: no staging or old copy left beside it.
    #expect(
      FileSystem.entries(ofDirectory: dataHome + Self.u8("/xdg-share/extensions")) == [
        Self.u8("org.example.ok.shareext")
      ])
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.root)/data-\\xff"))

    let list = try Tool.run([Self.u8("list")], on: desktop, environmentBytes: ["XDG_DATA_HOME": dataHome])
    #expect(list.standardOutput.contains("org.example.ok"), "\(list.standardOutput) \(list.standardError)")
    let file = try desktop.writeFile(named: "note.txt", contents: "hello")
    let share = try Tool.run(
      [Self.u8("share"), Self.u8("--service"), Self.u8("org.example.ok"), Self.u8("--"), Self.u8(file)],
      on: desktop, environmentBytes: ["XDG_DATA_HOME": dataHome])
    #expect(share.status == 0, "\(share.standardError)")
    // Sandboxed, it writes into its container, under the same folder that is not UTF-8.
    let seen = try #require(
      FileSystem.contents(
        ofRegularFile: dataHome + Self.u8("/xdg-share/containers/org.example.ok/state/seen-pwd"),
        maximumSize: 4096))
    #expect(Array(seen) == installed + [0x0A])
  }

  /// A bundle that does not load is refused as before, whatever its folder's name.
  @Test func installRefusesAnInvalidBundleNotUTF8() throws {
    let staged = try BundleFixture(id: "org.example.bad", name: "Bad", ruleXML: "<array/>")
      .write(into: desktop.files, folder: "staged")
    let source = Self.u8("\(desktop.files)/") + Self.cafe + Self.u8(".shareext")
    try FileSystem.rename(Self.u8(staged), to: source)
    let dataHome = Self.u8("\(desktop.root)/data-") + [0xFF]
    let result = try Tool.run(
      [Self.u8("install"), source], on: desktop, environmentBytes: ["XDG_DATA_HOME": dataHome])
    #expect(result.status == 1)
    #expect(
      result.standardError.contains("\(desktop.files)/caf\\xe9.shareext/Info.plist:"),
      "\(result.standardError)")
    #expect(FileSystem.entries(ofDirectory: dataHome + Self.u8("/xdg-share/extensions")) ?? [] == [])
  }

  /// `register` writes by bytes: into a data folder and a `HOME` whose paths are not UTF-8 (the
  /// entries name only the xdg-share program, whose path is UTF-8 here); the manifest keeps
  /// caja-actions' settings file as a `file://` URL, and `unregister` removes it all again.
  @Test func registerAndUnregisterInADataHomeAndHomeNotUTF8() throws {
    try BundleFixture(
      id: "org.example.photos", name: "Photos",
      ruleXML: BundleFixture.dictionary([
        ("NSExtensionActivationSupportsImageWithMaxCount", "<integer>1</integer>")
      ])
    ).write(into: desktop.systemExtensions)
    let dataHome = Self.u8("\(desktop.root)/data-") + [0xFF]
    let home = Self.u8("\(desktop.root)/h") + [0xF6] + Self.u8("me")
    try FileSystem.makeDirectories(home)
    let environment = ["XDG_DATA_HOME": dataHome, "HOME": home]
    let result = try Tool.run(
      [Self.u8("register")], on: desktop, environmentBytes: environment)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardOutput.hasPrefix("Share entries for 1 service in \(desktop.root)/data-\\xff:\n"),
      "\(result.standardOutput)")
    let sendTo = dataHome + Self.u8("/Thunar/sendto/xdg-share-org.example.photos.desktop")
    let entry = String(
      decoding: try #require(FileSystem.contents(ofRegularFile: sendTo, maximumSize: 1 << 20)), as: UTF8.self)
    #expect(entry.contains(" --service org.example.photos -- %F\n"), "\(entry)")
    let caja = home + Self.u8("/.config/caja-actions/caja-actions.conf")
    #expect(FileSystem.contents(ofRegularFile: caja, maximumSize: 1 << 20) != nil)
    let manifest = String(
      decoding: try #require(
        FileSystem.contents(
          ofRegularFile: dataHome + Self.u8("/xdg-share/registered.json"), maximumSize: 1 << 20)),
      as: UTF8.self)
    #expect(manifest.contains("h%F6me/.config/caja-actions/caja-actions.conf"), "\(manifest)")
    // Nothing was made under an escaped or repaired name.
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.root)/data-\\xff"))
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.root)/data-\u{FFFD}"))

    let unregister = try Tool.run(
      [Self.u8("unregister")], on: desktop, environmentBytes: environment)
    #expect(unregister.status == 0, "\(unregister.standardError)")
    #expect((try? FileSystem.linkStatus(sendTo)) == nil)
    #expect((try? FileSystem.linkStatus(caja)) == nil)
    #expect(FileSystem.entries(ofDirectory: dataHome) == [])
  }
}
