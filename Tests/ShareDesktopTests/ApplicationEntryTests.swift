import Foundation
import ShareCore
import ShareTestSupport
import Testing

@testable import ShareDesktop

/// The application entry, `applications/org.xdgshare.Share.desktop`, and the "Share…" entry of the
/// Nautilus extension; the golden files are checked with the other generators'.
@Suite struct ApplicationEntryTests {
  static let group = "Desktop Entry"

  func applicationEntry(_ services: [ShareService], executable: String = Fixture.executable) throws
    -> KeyFile
  {
    let rendering = try FileManagerIntegration.render(
      services: services, executable: executable, catalog: Fixture.catalog)
    let files = rendering.files(of: .application)
    try #require(files.count == 1)
    #expect(files[0].path == "applications/org.xdgshare.Share.desktop")
    #expect(!files[0].isExecutable && !files[0].opensPicker)
    return KeyFile(parsing: files[0].contents)
  }

  @Test func itIsShareInTheApplicationMenuAndOpensTheShareSheet() throws {
    let entry = try applicationEntry(Fixture.services)
    #expect(entry.value("Type", in: Self.group) == "Application")
    #expect(entry.value("Name", in: Self.group) == "Share")
    #expect(entry.value("Name[de]", in: Self.group) == "Teilen")
    #expect(entry.value("Name[fr]", in: Self.group) == "Partager")
    #expect(entry.value("Comment", in: Self.group)?.isEmpty == false)
    #expect(entry.value("Icon", in: Self.group) == ShareService.defaultIcon)
    #expect(entry.value("TryExec", in: Self.group) == Fixture.executable)
    #expect(
      execArguments(try #require(entry.value("Exec", in: Self.group)))
        == [Fixture.executable, "--picker", "--", "%F"])
    #expect(entry.value("Terminal", in: Self.group) == "false")
    #expect(entry.value("StartupNotify", in: Self.group) == "true")
    #expect(entry.list("Categories", in: Self.group) == ["Utility"])
    #expect(!entry.list("Keywords", in: Self.group).isEmpty)
    // Shown in menus, and the default application for nothing.
    #expect(entry.value("NoDisplay", in: Self.group) == nil)
    for group in entry.groups {
      #expect(!group.entries.contains { $0.key.hasPrefix("MimeType") }, "[\(group.name)]")
    }
  }

  /// One action per service that takes files, in menu order, each going straight to its service.
  @Test func oneActionPerServiceThatTakesFiles() throws {
    let entry = try applicationEntry(Fixture.services)
    let expected = [
      ("org-example-photos", "org.example.photos", "Photos", "image-x-generic"),
      ("org-example-files", "org.example.files", "Files", ShareService.defaultIcon),
      ("org-signal-share", "org.signal.share", "Signal", "/x/org.signal.share.shareext/signal.png"),
      ("org-example-notes", "org.example.notes", "Notes", ShareService.defaultIcon),
      ("org-example-pair", "org.example.pair", "Compare PDFs", ShareService.defaultIcon),
      ("org-example-clips", "org.example.clips", "Clips", ShareService.defaultIcon),
    ]
    #expect(entry.list("Actions", in: Self.group) == expected.map(\.0))
    #expect(entry.groups.map(\.name) == [Self.group] + expected.map { "Desktop Action " + $0.0 })
    for (action, id, name, icon) in expected {
      let group = "Desktop Action " + action
      #expect(entry.groups.first { $0.name == group }?.entries.map(\.key) == ["Name", "Icon", "Exec"])
      #expect(entry.value("Name", in: group) == name)
      #expect(entry.value("Icon", in: group) == icon)
      #expect(
        execArguments(try #require(entry.value("Exec", in: group)))
          == [Fixture.executable, "--picker", "--service", id, "--", "%F"])
    }
  }

  @Test func actionIdentifiersKeepOnlyWhatTheSpecificationAllowsAndStayUnique() {
    #expect(ApplicationEntry.actionIDs(for: []) == [])
    #expect(ApplicationEntry.actionIDs(for: ["org.example.a_b"]) == ["org-example-a-b"])
    #expect(
      ApplicationEntry.actionIDs(for: [
        "org.example.a_b", "org.example.a-b", "org.example.a.b", "org-example-a-b-2", "Org.Example.9",
      ]) == [
        "org-example-a-b", "org-example-a-b-2", "org-example-a-b-3", "org-example-a-b-2-2", "Org-Example-9",
      ])
  }

  @Test func twoServicesWhoseIdentifiersMapAlikeGetTwoActions() throws {
    let rule = ActivationRule.dictionary(DictionaryRule(maxFiles: 1))
    let entry = try applicationEntry([
      Fixture.service("org.example.a_b", "Underscore", rule: rule),
      Fixture.service("org.example.a-b", "Dash", rule: rule),
      Fixture.service("org.example/evil", "Unsafe", rule: rule),
      Fixture.service("org.example.text", "Text", rule: .dictionary(DictionaryRule(supportsText: true))),
    ])
    #expect(entry.list("Actions", in: Self.group) == ["org-example-a-b", "org-example-a-b-2"])
    #expect(entry.value("Name", in: "Desktop Action org-example-a-b") == "Underscore")
    #expect(
      execArguments(try #require(entry.value("Exec", in: "Desktop Action org-example-a-b-2")))
        == [Fixture.executable, "--picker", "--service", "org.example.a-b", "--", "%F"])
    // The unsafe identifier and the service that takes no files get none.
    #expect(entry.groups.count == 3)
  }

  @Test func withoutServicesItStillOpensTheShareSheet() throws {
    let entry = try applicationEntry([])
    #expect(entry.groups.map(\.name) == [Self.group])
    #expect(entry.value("Actions", in: Self.group) == nil)
    #expect(entry.value("Exec", in: Self.group) != nil)
  }

  @Test func hostileNamesStayInTheirActions() throws {
    let entry = try applicationEntry(Fixture.hostileServices, executable: Fixture.hostileExecutable)
    #expect(entry.list("Actions", in: Self.group) == ["org-example-hostile", "-rf"])
    #expect(entry.value("Name", in: "Desktop Action org-example-hostile") == Fixture.hostileName)
    #expect(entry.value("Icon", in: "Desktop Action org-example-hostile") == "/x/a b;c\nIcon=evil.png")
    #expect(
      entry.groups.map(\.name) == [Self.group, "Desktop Action org-example-hostile", "Desktop Action -rf"])
    #expect(
      execArguments(try #require(entry.value("Exec", in: Self.group)))
        == [Fixture.hostileExecutable, "--picker", "--", "%F"])
  }
}

/// "Share…" in the Nautilus extension: first in the submenu, with or without the D-Bus service,
/// and it starts `xdg-share --picker -- PATHS...` with the paths byte for byte.
@Suite struct NautilusPickerTests {
  static let python = program("/usr/bin/python3", "/usr/local/bin/python3")
  static let hasGObject =
    python.map { (try? runProgram([$0, "-c", "import gi; from gi.repository import Gio"]))?.status == 0 }
    ?? false

  /// Loads the extension with a stand-in for the `Nautilus` module, asks it for the menu of the
  /// paths (hex, as bytes) and activates the first item of the submenu.
  static let harness = #"""
    import gi, importlib.util, json, os, sys, time, types
    real_require = gi.require_version
    gi.require_version = lambda namespace, version: None if namespace == "Nautilus" else real_require(namespace, version)
    import gi.repository
    from gi.repository import Gio


    class MenuItem:
        def __init__(self, name, label, tip, icon):
            self.label, self.handlers, self.submenu = label, [], None

        def connect(self, signal, callback, *data):
            self.handlers.append((callback, data))

        def set_submenu(self, menu):
            self.submenu = menu

        def activate(self):
            for callback, data in self.handlers:
                callback(self, *data)


    class Menu:
        def __init__(self):
            self.items = []

        def append_item(self, item):
            self.items.append(item)

        def get_items(self):
            return list(self.items)


    class FileInfo:
        def __init__(self, location):
            self.location = location

        def get_location(self):
            return self.location


    nautilus = types.ModuleType("gi.repository.Nautilus")
    nautilus.MenuItem, nautilus.Menu = MenuItem, Menu
    nautilus.MenuProvider = type("MenuProvider", (object,), {})
    sys.modules["gi.repository.Nautilus"] = nautilus
    gi.repository.Nautilus = nautilus

    extension_path, paths, wait_for = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
    spec = importlib.util.spec_from_file_location("xdg_share_extension", extension_path)
    extension = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(extension)
    provider = extension.XdgShareMenuProvider()
    files = [FileInfo(Gio.File.new_for_path(os.fsdecode(bytes.fromhex(path)))) for path in paths]
    items = provider.get_file_items(files)
    result = {"menu": [{"label": item.label, "items": [sub.label for sub in item.submenu.get_items()]} for item in items]}
    items[0].submenu.get_items()[0].activate()
    deadline = time.time() + 30
    while not os.path.exists(wait_for) and time.time() < deadline:
        time.sleep(0.05)
    print(json.dumps(result))
    """#

  @Test(.enabled(if: hasGObject, "needs python3 with GObject introspection (Debian: python3-gi)"))
  func shareOpensTheSheetWithThePathsAsBytes() throws {
    let python = try #require(Self.python)
    let desktop = try TemporaryDesktop()
    // A stand-in for xdg-share that writes its arguments, in hex, and then renames the file.
    let received = "\(desktop.root)/state/argv.json"
    let stub = "\(desktop.root)/home/fake xdg-share"
    try """
    #!\(python)
    import json, os, sys
    with open(\(pythonStringLiteral(received + ".part")), "w") as out:
        json.dump([os.fsencode(argument).hex() for argument in sys.argv[1:]], out)
    os.rename(\(pythonStringLiteral(received + ".part")), \(pythonStringLiteral(received)))

    """.write(toFile: stub, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stub)
    let extensionPath = "\(desktop.root)/xdg-share.py"
    try NautilusExtension.source(executable: stub).write(
      toFile: extensionPath, atomically: true, encoding: .utf8)

    let paths = [
      try desktop.writeFile(named: Array("photo.png".utf8), contents: tinyPNG),
      try desktop.writeFile(
        named: Array("-$(id) new\nline caf".utf8) + [0xE9] + Array(".png".utf8), contents: []),
    ]
    let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
    let pathsJSON = "[" + paths.map { "\"\(hex($0))\"" }.joined(separator: ",") + "]"
    // No session bus: the menu must still offer the share sheet.
    var environment = desktop.environment
    environment["GIO_USE_VFS"] = "local"
    let run = try runProgram(
      [python, "-c", Self.harness, extensionPath, pathsJSON, received], environment: environment)
    #expect(run.status == 0, "\(run.error)")
    let result = try #require(
      try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.output)")
    let menu = try #require(result["menu"] as? [[String: Any]])
    #expect(menu.map { $0["label"] as? String } == ["Share"])
    #expect(menu.first?["items"] as? [String] == ["Share…"])

    let argv = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: received))) as? [String])
    #expect(argv == [hex(Array("--picker".utf8)), hex(Array("--".utf8))] + paths.map(hex))
  }
}
