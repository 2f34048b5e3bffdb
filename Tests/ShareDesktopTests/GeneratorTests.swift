import Foundation
import ShareCore
import ShareTestSupport
import Testing

@testable import ShareDesktop

/// Every generator against golden files in `Snapshots/` (re-record with `RECORD_SNAPSHOTS=1`),
/// and every file read back the way its file manager reads it.
@Suite struct GeneratorTests {
  let rendering = try! FileManagerIntegration.render(
    services: Fixture.services, executable: Fixture.executable, catalog: Fixture.catalog,
    purpose: Fixture.purpose,
    webShare: WebShareSetup(program: "/usr/libexec/xdg-share/xdg-share-webshare", scope: .user))

  /// For every user, the browsers look in their system folders.
  @Test func theBrowsersSystemFolders() throws {
    let system = try FileManagerIntegration.render(
      services: [], executable: Fixture.executable, catalog: Fixture.catalog,
      webShare: WebShareSetup(program: "/usr/libexec/xdg-share/xdg-share-webshare", scope: .system))
    #expect(
      system.files(of: .browsers).map(\.path) == [
        "@root/etc/chromium/native-messaging-hosts/org.xdgshare.webshare.json",
        "@root/etc/opt/chrome/native-messaging-hosts/org.xdgshare.webshare.json",
        "@root/usr/lib/mozilla/native-messaging-hosts/org.xdgshare.webshare.json",
      ])
    // Each reads back as JSON that allows the extension, by the id each browser knows it by.
    for file in system.files(of: .browsers) {
      let manifest = try #require(
        try JSONSerialization.jsonObject(with: Data(file.contents.utf8)) as? [String: Any])
      #expect(manifest["name"] as? String == "org.xdgshare.webshare")
      #expect(manifest["type"] as? String == "stdio")
      let allowed = (manifest["allowed_origins"] ?? manifest["allowed_extensions"]) as? [String]
      #expect(
        allowed
          == (file.path.contains("mozilla")
            ? ["webshare@xdgshare.org"] : ["chrome-extension://onbdopmibkhlpdgfehacjgodmadpnekp/"]))
    }
  }

  /// The extension's id is the one its public key gives (Chromium: the first 32 hexadecimal
  /// digits of the key's SHA-256, written a-p for 0-f), so the manifests and the extension agree.
  @Test func theExtensionsIDIsItsKeys() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let data = try Data(contentsOf: root.appendingPathComponent("data/browser-extension/manifest.json"))
    let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let encoded = try #require(manifest["key"] as? String)
    let key = try #require(Data(base64Encoded: encoded))
    let sha256sum = Process()
    sha256sum.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    let input = Pipe()
    let output = Pipe()
    sha256sum.standardInput = input
    sha256sum.standardOutput = output
    try sha256sum.run()
    input.fileHandleForWriting.write(key)
    try input.fileHandleForWriting.close()
    let hex = String(decoding: output.fileHandleForReading.readDataToEndOfFile().prefix(32), as: UTF8.self)
    sha256sum.waitUntilExit()
    let id = String(
      hex.compactMap { Int(String($0), radix: 16).map { Character(Unicode.Scalar(UInt8(97 + $0))) } })
    #expect(id == NativeMessagingHosts.chromiumExtensionID)
    let gecko = (manifest["browser_specific_settings"] as? [String: Any])?["gecko"] as? [String: Any]
    #expect(gecko?["id"] as? String == NativeMessagingHosts.firefoxExtensionID)
  }

  @Test(arguments: FileManagerFamily.allCases)
  func matchesItsGoldenFile(_ family: FileManagerFamily) throws {
    try Snapshot.assertMatches(Fixture.transcript(rendering.files(of: family)), named: family.rawValue)
  }

  @Test func hostileNamesAndPathMatchTheirGoldenFile() throws {
    let hostile = try FileManagerIntegration.render(
      services: Fixture.hostileServices, executable: Fixture.hostileExecutable, catalog: Fixture.catalog,
      purpose: Fixture.hostilePurpose)
    try Snapshot.assertMatches(Fixture.transcript(hostile.files), named: "hostile")
    // Every metadata.json reads back as the JSON it says, the names as they were.
    for file in hostile.files(of: .purpose) where file.path.hasSuffix("metadata.json") {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(file.contents.utf8)) as? [String: Any], "\(file.path)")
      let plugin = try #require(object["KPlugin"] as? [String: Any])
      if file.path.contains("org.example.hostile") {
        #expect(plugin["Name"] as? String == Fixture.hostileName)
        #expect(plugin["Name[de]"] as? String == "Bö\"se\n\u{7}\u{2028}\u{202E}txt.exe")
        #expect(plugin["Description[de]"] as? String == "\"}, \"X\": [")
      }
    }
  }

  /// Where Purpose's Dolphin plugin shows the services of files, Dolphin's own menus are for
  /// folders only: one Share menu.
  @Test func withPurposeInDolphinTheServiceMenusAreForFoldersOnly() throws {
    var setup = Fixture.purpose
    setup.inDolphin = true
    let withPurpose = try FileManagerIntegration.render(
      services: Fixture.services, executable: Fixture.executable, catalog: Fixture.catalog, purpose: setup)
    try Snapshot.assertMatches(
      Fixture.transcript(withPurpose.files(of: .dolphin)), named: "dolphin-with-purpose")
    for file in withPurpose.files(of: .dolphin) {
      #expect(KeyFile(parsing: file.contents).list("MimeType", in: "Desktop Entry") == ["inode/directory"])
    }
    // The rest is as without it.
    let others: Set<FileManagerFamily> = [.dolphin, .browsers]
    #expect(
      withPurpose.files.filter { !others.contains($0.family) }
        == rendering.files.filter { !others.contains($0.family) })
  }

  @Test func aPurposePluginPerServiceThatTakesFilesOrLinksAndShare() throws {
    let plugins = rendering.files(of: .purpose).filter { $0.path.hasSuffix("/metadata.json") }.map(\.path)
    #expect(
      plugins == [
        "kpackage/Purpose/xdg-share.picker/metadata.json",
        "kpackage/Purpose/org.xdgshare.org.example.photos/metadata.json",
        "kpackage/Purpose/org.xdgshare.org.example.files/metadata.json",
        "kpackage/Purpose/org.xdgshare.org.signal.share/metadata.json",
        "kpackage/Purpose/org.xdgshare.org.example.notes/metadata.json",
        "kpackage/Purpose/org.xdgshare.org.example.pair/metadata.json",
        "kpackage/Purpose/org.xdgshare.org.example.clips/metadata.json",
        // Links only: Purpose's ShareUrl.
        "kpackage/Purpose/org.xdgshare.org.example.text/metadata.json",
      ])
    for file in rendering.files(of: .purpose) where !file.path.hasSuffix("metadata.json") {
      #expect(file.isExecutable)
      #expect(file.contents.hasPrefix("#!/usr/libexec/xdg-share/xdg-share-purpose "))
    }
    func metadata(_ id: String) throws -> [String: Any] {
      let file = try #require(
        rendering.files.first { $0.path == "kpackage/Purpose/org.xdgshare.\(id)/metadata.json" })
      return try #require(try JSONSerialization.jsonObject(with: Data(file.contents.utf8)) as? [String: Any])
    }
    #expect(try metadata("org.example.photos")["X-Purpose-PluginTypes"] as? [String] == ["Export"])
    #expect(
      try metadata("org.example.photos")["X-Purpose-Constraints"] as? [[String]] == [["mimeType:image/*"]])
    #expect(try metadata("org.example.text")["X-Purpose-PluginTypes"] as? [String] == ["ShareUrl"])
    // Signal takes files of any type and links.
    #expect(try metadata("org.signal.share")["X-Purpose-PluginTypes"] as? [String] == ["Export", "ShareUrl"])
    #expect(try metadata("org.signal.share")["X-Purpose-Constraints"] == nil)
    // Several text files, which may be of different types: what Dolphin sends then is allowed.
    let notes = try #require(try metadata("org.example.notes")["X-Purpose-Constraints"] as? [[String]])
    #expect(notes.count == 1)
    #expect(notes.first?.first == "mimeType:text/*")
    #expect(notes.first?.last == "mimeType:[*]/[*]")
  }

  @Test func servicesThatTakeNoFilesOrHaveUnsafeIdentifiersAreSkipped() {
    #expect(
      rendering.skipped == [
        SkippedService(id: "org.example.text", name: "Text Only", reason: .takesNoFiles),
        SkippedService(id: "org.example/evil", name: "Evil Path", reason: .unsafeIdentifier),
      ])
    #expect(
      !rendering.files.contains {
        ($0.family != .purpose && $0.path.contains("org.example.text")) || $0.path.contains("evil")
      })
    #expect(rendering.entries.map(\.service.id).count == 6)
  }

  @Test func oneFilePerServiceAndFormatPlusTheSharedOnes() {
    // Each format: "Share…" first, then a file per service.
    #expect(rendering.files(of: .dolphin).count == 1 + 6)
    #expect(rendering.files(of: .thunar).count == 1 + 6)
    #expect(rendering.files(of: .nemo).count == 1 + 6)
    #expect(rendering.files(of: .desktopActions).count == 1 + 6 + 1)
    for family in [FileManagerFamily.dolphin, .thunar, .nemo, .desktopActions] {
      #expect(rendering.files(of: family).map(\.opensPicker).first == true, "\(family)")
      #expect(rendering.files(of: family).filter(\.opensPicker).count == 1, "\(family)")
      #expect(
        rendering.files(of: family).filter(\.opensPicker).allSatisfy {
          ($0.path as NSString).lastPathComponent.hasPrefix("xdg-share.picker.")
        })
    }
    #expect(rendering.files(of: .nautilus).map(\.path) == ["nautilus-python/extensions/xdg-share.py"])
    #expect(rendering.files(of: .dbus).map(\.path) == ["dbus-1/services/org.xdgshare.Share.service"])
    #expect(rendering.files(of: .application).map(\.path) == ["applications/org.xdgshare.Share.desktop"])
    #expect(
      rendering.files.filter(\.isExecutable).map(\.family).allSatisfy { [.dolphin, .purpose].contains($0) })
    #expect(Set(rendering.files.map(\.path)).count == rendering.files.count)
  }

  @Test func theServiceMenusShareOneSubmenu() throws {
    for file in rendering.files(of: .dolphin) where !file.opensPicker {
      let keys = KeyFile(parsing: file.contents)
      #expect(keys.groups.map(\.name) == ["Desktop Entry", "Desktop Action share"])
      #expect(keys.value("Type", in: "Desktop Entry") == "Service")
      #expect(keys.value("X-KDE-Submenu", in: "Desktop Entry") == "Share")
      #expect(keys.list("Actions", in: "Desktop Entry") == ["share"])
      #expect(!keys.list("MimeType", in: "Desktop Entry").isEmpty)
      #expect(file.path.hasPrefix("kio/servicemenus/xdg-share-") && file.path.hasSuffix(".desktop"))
    }
    // "Share…" in the same submenu, for files and folders; KIO 5 orders a submenu's actions by
    // their identifiers, so `picker` comes before every `share`.
    let picker = KeyFile(
      parsing: try #require(rendering.files(of: .dolphin).first { $0.opensPicker }).contents)
    #expect(picker.groups.map(\.name) == ["Desktop Entry", "Desktop Action picker"])
    #expect(picker.value("X-KDE-Submenu", in: "Desktop Entry") == "Share")
    #expect(picker.list("MimeType", in: "Desktop Entry") == ["all/all"])
    #expect(picker.value("Name", in: "Desktop Action picker") == "Share…")
    #expect("picker" < "share")
    let photos = KeyFile(
      parsing: try #require(
        rendering.files.first { $0.path == "kio/servicemenus/xdg-share-org.example.photos.desktop" }
      ).contents)
    #expect(photos.list("MimeType", in: "Desktop Entry") == ["image/*"])
    #expect(photos.value("X-KDE-MaxNumberOfUrls", in: "Desktop Entry") == "1")
    let pair = KeyFile(
      parsing: try #require(rendering.files.first { $0.path.hasSuffix("org.example.pair.desktop") }).contents)
    #expect(pair.value("X-KDE-MinNumberOfUrls", in: "Desktop Entry") == "2")
    #expect(pair.value("X-KDE-MaxNumberOfUrls", in: "Desktop Entry") == "2")
  }

  /// Every Exec line of every format runs xdg-share with the service, or the share sheet for
  /// "Share…", and the files last.
  @Test(arguments: [Fixture.executable, Fixture.hostileExecutable, "/home/zoë/bin/xdg share;x"])
  func everyExecLineRunsXDGShareWithTheFilesLast(_ executable: String) throws {
    let rendering = try FileManagerIntegration.render(
      services: Fixture.services + Fixture.hostileServices, executable: executable, catalog: Fixture.catalog)
    let ids = rendering.entries.map(\.service.id)
    let actions = Dictionary(
      uniqueKeysWithValues: zip(ApplicationEntry.actionIDs(for: ids).map { "Desktop Action " + $0 }, ids))
    var checked = 0
    var pickers = 0
    for file in rendering.files
    where [.dolphin, .thunar, .nemo, .desktopActions, .application].contains(file.family) {
      let keys = KeyFile(parsing: file.contents)
      for group in keys.groups {
        guard let exec = keys.value("Exec", in: group.name) else { continue }
        if file.opensPicker || group.name == "Desktop Entry" && file.family == .application {
          #expect(execArguments(exec) == [executable, "--picker", "--", "%F"], "\(file.path)")
          pickers += 1
          continue
        }
        let id =
          file.family == .application
          ? try #require(actions[group.name])
          : try #require(rendering.entries.first { file.path.contains($0.service.id) }?.service.id)
        // A launcher's action opens the sheet, which asks for the files it is started without.
        let options = file.family == .application ? ["--picker", "--service", id] : ["--service", id]
        #expect(execArguments(exec) == [executable] + options + ["--", "%F"], "\(file.path)")
        checked += 1
      }
    }
    #expect(checked == 5 * rendering.entries.count)
    #expect(pickers == 5)
  }

  /// A name with quotes, `$`, `%`, `;`, a newline and backslashes stays one value: the same keys
  /// in the same groups as any other entry, and the name read back exactly.
  @Test func hostileNamesChangeNoOtherKey() throws {
    let hostile = try FileManagerIntegration.render(
      services: Fixture.hostileServices, executable: Fixture.hostileExecutable, catalog: Fixture.catalog)
    let plain = try FileManagerIntegration.render(
      services: [
        Fixture.service(
          "org.example.hostile", "Plain", rule: .dictionary(DictionaryRule(maxFiles: 1)), icon: "x",
          description: "d")
      ],
      executable: Fixture.executable, catalog: Fixture.catalog)
    #expect(hostile.skipped.map(\.id) == [" spaced id"])
    for (file, reference) in zip(
      hostile.files.filter { $0.path.contains("hostile") }, plain.files.filter { $0.path.contains("hostile") }
    ) {
      let keys = KeyFile(parsing: file.contents)
      let expected = KeyFile(parsing: reference.contents)
      #expect(keys.groups.map(\.name) == expected.groups.map(\.name), "\(file.path)")
      for (group, other) in zip(keys.groups, expected.groups) {
        #expect(group.entries.map(\.key) == other.entries.map(\.key), "\(file.path) [\(group.name)]")
      }
      switch file.family {
      case .nemo:
        let name = try #require(keys.value("Name", in: "Nemo Action"))
        #expect(name.replacingOccurrences(of: "%%", with: "%") == "Share: " + Fixture.hostileName)
        #expect(!name.replacingOccurrences(of: "%%", with: "").contains("%"))
      case .dolphin:
        #expect(keys.value("Name", in: "Desktop Action share") == Fixture.hostileName)
      default:
        #expect(keys.value("Name", in: "Desktop Entry") == Fixture.hostileName)
      }
    }
    // No line starts with what the name tried to inject.
    for file in hostile.files {
      #expect(
        !file.contents.split(separator: "\n").contains {
          $0.hasPrefix("Exec=/bin/rm") || $0 == "[Desktop Entry]" && file.family == .nemo
        })
    }
  }

  @Test func theDesktopActionsMenuListsEveryAction() throws {
    let menu = KeyFile(
      parsing: try #require(rendering.files.first { $0.path == "file-manager/actions/xdg-share.desktop" })
        .contents)
    #expect(menu.value("Type", in: "Desktop Entry") == "Menu")
    #expect(menu.value("Name", in: "Desktop Entry") == "Share")
    #expect(menu.value("Tooltip", in: "Desktop Entry") == "Share")
    #expect(
      menu.list("ItemsList", in: "Desktop Entry")
        == ["xdg-share.picker"] + rendering.entries.map { "xdg-share-" + $0.service.id })
    let picker = KeyFile(
      parsing: try #require(
        rendering.files.first { $0.path == "file-manager/actions/xdg-share.picker.desktop" }
      ).contents)
    #expect(picker.value("Name", in: "Desktop Entry") == "Share…")
    #expect(picker.list("MimeTypes", in: "X-Action-Profile main") == ["*"])
    #expect(picker.value("SelectionCount", in: "X-Action-Profile main") == ">0")
    for file in rendering.files(of: .desktopActions)
    where file.path != "file-manager/actions/xdg-share.desktop" {
      let keys = KeyFile(parsing: file.contents)
      #expect(keys.value("Type", in: "Desktop Entry") == "Action")
      // PCManFM labels items with the tooltip.
      #expect(keys.value("Tooltip", in: "Desktop Entry") == keys.value("Name", in: "Desktop Entry"))
      #expect(keys.list("Profiles", in: "Desktop Entry") == ["main"])
      #expect(
        keys.value("SelectionCount", in: "X-Action-Profile main")?.first.map { "<=>".contains($0) } == true)
    }
  }

  @Test func nemoActionsUseNemosKeys() throws {
    for file in rendering.files(of: .nemo) {
      let keys = KeyFile(parsing: file.contents)
      #expect(keys.groups.map(\.name) == ["Nemo Action"])
      let group = try #require(keys.groups.first).entries.map(\.key)
      #expect(group.contains("Name") && group.contains("Exec") && group.contains("Selection"))
      #expect(group.contains("Mimetypes") != group.contains("Extensions"))
      // Nemo loads theme icons only.
      #expect(keys.value("Icon-Name", in: "Nemo Action")?.contains("/") == false)
    }
    let selections = rendering.files(of: .nemo).map {
      KeyFile(parsing: $0.contents).value("Selection", in: "Nemo Action") ?? ""
    }
    #expect(selections == ["notnone", "s", "notnone", "notnone", "notnone", "2", "notnone"])
    let picker = KeyFile(parsing: try #require(rendering.files(of: .nemo).first { $0.opensPicker }).contents)
    #expect(picker.value("Name", in: "Nemo Action") == "Share…")
    #expect(picker.value("Extensions", in: "Nemo Action") == "any;")
  }

  @Test func thunarGetsExactTypesOnly() throws {
    for file in rendering.files(of: .thunar) {
      let keys = KeyFile(parsing: file.contents)
      #expect(keys.value("Type", in: "Desktop Entry") == "Application")
      #expect(keys.value("TryExec", in: "Desktop Entry") == Fixture.executable)
      #expect(
        !keys.list("MimeType", in: "Desktop Entry").contains { $0.hasSuffix("/*") || $0.hasPrefix("all/") })
      #expect(keys.value("NoDisplay", in: "Desktop Entry") == "true")
    }
    // "Share…" lists no type: Thunar offers it for everything, folders included.
    let picker = KeyFile(
      parsing: try #require(rendering.files(of: .thunar).first { $0.opensPicker }).contents)
    #expect(picker.value("Name", in: "Desktop Entry") == "Share…")
    #expect(picker.value("MimeType", in: "Desktop Entry") == nil)
    let photos = KeyFile(
      parsing: try #require(
        rendering.files.first { $0.path == "Thunar/sendto/xdg-share-org.example.photos.desktop" }
      ).contents)
    #expect(
      photos.list("MimeType", in: "Desktop Entry") == [
        "image/gif", "image/jpeg", "image/png", "image/svg+xml",
      ])
    let notes = KeyFile(
      parsing: try #require(
        rendering.files.first { $0.path == "Thunar/sendto/xdg-share-org.example.notes.desktop" }
      ).contents)
    #expect(notes.list("MimeType", in: "Desktop Entry").contains("application/x-shellscript"))
  }

  @Test func theDBusFileStartsTheDaemon() throws {
    for executable in [Fixture.executable, Fixture.hostileExecutable] {
      let file = DBusActivationFile.file(executable: executable)
      let keys = KeyFile(parsing: file.contents)
      #expect(keys.value("Name", in: "D-BUS Service") == "org.xdgshare.Share")
      let exec = try #require(keys.value("Exec", in: "D-BUS Service"))
      #expect(shellWords(exec) == [executable, "daemon"])
    }
  }

  static let desktopFileValidate = programOnPath("desktop-file-validate")
  static let python = program("/usr/bin/python3", "/usr/local/bin/python3")

  /// Thunar's Send To entries and the application entry must pass `desktop-file-validate`
  /// (desktop-file-utils), hostile names and paths included.
  @Test(
    .enabled(
      if: desktopFileValidate != nil, "desktop-file-validate is not installed (Debian: desktop-file-utils)"),
    arguments: [false, true])
  func applicationEntriesPassDesktopFileValidate(hostile: Bool) throws {
    let rendering =
      hostile
      ? try FileManagerIntegration.render(
        services: Fixture.hostileServices, executable: Fixture.hostileExecutable, catalog: Fixture.catalog)
      : try FileManagerIntegration.render(
        services: Fixture.services, executable: Fixture.executable, catalog: Fixture.systemCatalog)
    let desktop = try TemporaryDesktop()
    let files = rendering.files(of: .thunar) + rendering.files(of: .application)
    #expect(files.count > 2)
    for file in files {
      let path = "\(desktop.files)/" + (file.path as NSString).lastPathComponent
      try file.contents.write(toFile: path, atomically: true, encoding: .utf8)
      let result = try runProgram([try #require(Self.desktopFileValidate), path])
      #expect(result.status == 0, "\(file.path): \(result.output)\(result.error)")
      // The one warning allowed: `message/rfc822` (an .eml file) is a file type Thunar may share.
      let warnings = result.output.split(separator: "\n").filter {
        !$0.hasSuffix("\"message\" is a media type that probably does not make sense in this context")
      }
      #expect(warnings.isEmpty, "\(file.path): \(warnings)")
    }
  }

  /// The extension is valid Python whose XDG_SHARE constant is exactly the path, whatever it holds.
  @Test(
    .enabled(if: python != nil, "python3 is not installed"),
    arguments: [Fixture.executable, Fixture.hostileExecutable, "/home/zoë/\\\"x\n'''y/xdg-share"])
  func theNautilusExtensionIsPythonThatNamesTheExecutable(_ executable: String) throws {
    let source = NautilusExtension.source(executable: executable)
    #expect(source.unicodeScalars.allSatisfy { $0.isASCII })
    let check = """
      import ast, json, sys
      tree = ast.parse(sys.stdin.read())
      values = {node.targets[0].id: ast.literal_eval(node.value) for node in tree.body
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)}
      classes = [node.name for node in tree.body if isinstance(node, ast.ClassDef)]
      print(json.dumps({"exe": values["XDG_SHARE"], "bus": values["BUS_NAME"], "classes": classes}))
      """
    let result = try runProgram([try #require(Self.python), "-c", check], input: source)
    #expect(result.status == 0, "\(result.error)")
    let parsed = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    #expect(parsed["exe"] as? String == executable)
    #expect(parsed["bus"] as? String == "org.xdgshare.Share")
    #expect(parsed["classes"] as? [String] == ["XdgShareMenuProvider"])
  }

  @Test func anExecutableNoExecLineCanCarryIsRefused() {
    for bad in ["xdg-share", "relative/xdg-share", "/usr/bin/xdg\nshare", "/usr/bin/x\\y", "/bin/\u{7F}"] {
      #expect(throws: IntegrationError.unsuitableExecutable(bad)) {
        try FileManagerIntegration.render(services: [], executable: bad, catalog: Fixture.catalog)
      }
    }
  }

  @Test func desktopEntryEscapes() {
    #expect(DesktopEntry.escape(" a\\b\nc\td\r") == "\\sa\\\\b\\nc\\td\\r")
    #expect(DesktopEntry.escape("x\u{1}y") == "xy")
    #expect(DesktopEntry.list(["a;b", "c"]) == "a\\;b;c;")
    #expect(DesktopEntry.execArgument("/usr/bin/x") == "/usr/bin/x")
    #expect(DesktopEntry.execArgument("/a b/$x/\"q\"/`c`/\\") == "\"/a b/\\$x/\\\"q\\\"/\\`c\\`/\\\\\"")
    #expect(DesktopEntry.execArgument("/50%/x") == "/50%%/x")
    #expect(pythonStringLiteral("a\"b\\c\né😀") == "\"a\\\"b\\\\c\\x0a\\xe9\\U0001f600\"")
    #expect(dbusExecWord("/usr/bin/xdg-share") == "/usr/bin/xdg-share")
    #expect(dbusExecWord("/a b/it's") == "'/a b/it'\\''s'")
  }
}

/// Splits a line the way `dbus-daemon` (and a shell) does: single quotes literal, double quotes
/// with backslash escapes, a backslash outside quotes escaping the next character.
func shellWords(_ line: String) -> [String] {
  var words: [String] = []
  var current = ""
  var has = false
  var quote: Character?
  var iterator = line.makeIterator()
  while let character = iterator.next() {
    switch (quote, character) {
    case (nil, "'"), (nil, "\""):
      quote = character
      has = true
    case ("'", "'"), ("\"", "\""):
      quote = nil
    case ("\"", "\\"), (nil, "\\"):
      if let next = iterator.next() { current.append(next) }
      has = true
    case (nil, " "):
      if has { words.append(current) }
      current = ""
      has = false
    default:
      current.append(character)
      has = true
    }
  }
  if has { words.append(current) }
  return words
}
