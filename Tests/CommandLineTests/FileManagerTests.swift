// Longer than 400 lines on purpose: one driver for every real file manager under Xvfb, and the
// per-file-manager tests that use it.

import Foundation
import ShareCore
import SharePOSIX
import ShareTestSupport
import Testing

/// `xdg-share register` and `unregister` as a user runs them, in a throw-away home.
@Suite struct RegisterCommandTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  var data: String { "\(desktop.root)/data" }

  /// The xdg-share that the entries run: the built binary, symbolic links resolved.
  var binary: String { URL(fileURLWithPath: Tool.path).resolvingSymlinksInPath().path }

  @discardableResult
  func install(_ id: String, name: String, rule: String) throws -> String {
    try BundleFixture(id: id, name: name, ruleXML: rule).write(into: desktop.userExtensions)
  }

  /// Whether Purpose's Dolphin plugin is installed, which makes Dolphin's Share menu Purpose's.
  static let purposeInDolphin = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64"]
    .contains {
      FileManager.default.fileExists(atPath: "\($0)/qt5/plugins/kf5/kfileitemaction/sharefileitemaction.so")
    }

  /// Turns Purpose's Share menu off in Dolphin's settings, as Dolphin's "Configure" dialog does:
  /// xdg-share then writes service menus of its own, as where Purpose is not installed.
  func hidePurposeInDolphin() throws {
    try "[Show]\nsharefileitemaction=false\n".write(
      toFile: "\(desktop.root)/config/kservicemenurc", atomically: true, encoding: .utf8)
  }

  @Test func registerWritesEveryFileManagersEntriesAndSaysWhatItDid() throws {
    try hidePurposeInDolphin()
    try install(
      "com.example.photos", name: "Photos",
      rule: BundleFixture.dictionary([
        ("NSExtensionActivationSupportsImageWithMaxCount", "<integer>1</integer>")
      ]))
    try install(
      "com.example.text", name: "Text",
      rule: BundleFixture.dictionary([("NSExtensionActivationSupportsText", "<true/>")]))
    let result = try Tool.run(["register"], on: desktop)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardOutput.hasPrefix(
        """
        Share entries for 1 service in \(data):
          Dolphin: Share… and 1 service menu in kio/servicemenus, in the Share submenu
          Nautilus: nautilus-python/extensions/xdg-share.py (asks the D-Bus service when the menu opens)
          Thunar: Share… and 1 Send To entry in Thunar/sendto
          Nemo: Share… and 1 action in nemo/actions
          Caja, PCManFM, PCManFM-Qt: a Share menu with Share… and 1 action in file-manager/actions
          D-Bus: dbus-1/services/org.xdgshare.Share.service
          Application menu: applications/org.xdgshare.Share.desktop (Share, with an action per service)
          KDE applications: Share… and 1 Purpose plugin in kpackage/Purpose

        """), "\(result.standardOutput)")
    #expect(
      result.standardOutput.contains(
        "Not in file managers: Text (com.example.text): it takes no files, only text or links\n"))
    let sendTo = try String(
      contentsOfFile: "\(data)/Thunar/sendto/xdg-share-com.example.photos.desktop", encoding: .utf8)
    #expect(sendTo.contains("\nExec=\(binary) --service com.example.photos -- %F\n"))
    #expect(sendTo.contains("\nMimeType=image/"))
    let service = try String(
      contentsOfFile: "\(data)/dbus-1/services/org.xdgshare.Share.service", encoding: .utf8)
    #expect(service.contains("\nExec=\(binary) daemon\n"))
    let mode =
      try FileManager.default.attributesOfItem(
        atPath: "\(data)/kio/servicemenus/xdg-share-com.example.photos.desktop")[.posixPermissions] as? Int
    #expect(mode == 0o755)
  }

  /// Where Purpose's Dolphin plugin is installed, Dolphin's Share menu is Purpose's: the services
  /// are Purpose plugins there, and service menus are written only for folders, for which
  /// Purpose offers no Share menu, so that Dolphin shows one Share submenu either way.
  @Test(.enabled(if: purposeInDolphin, "needs Purpose's Dolphin plugin (Debian: libkf5purpose-bin)"))
  func withPurposeDolphinsShareMenuIsPurposes() throws {
    try install(
      "com.example.photos", name: "Photos",
      rule: BundleFixture.dictionary([
        ("NSExtensionActivationSupportsImageWithMaxCount", "<integer>1</integer>")
      ]))
    let result = try Tool.run(["register"], on: desktop)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardOutput.contains(
        """
          Dolphin: Share… and 0 service menus for folders in kio/servicemenus, in the Share submenu; for files, Purpose's Share menu

        """), "\(result.standardOutput)")
    #expect(
      result.standardOutput.contains("  KDE applications: Share… and 1 Purpose plugin in kpackage/Purpose\n"))
    #expect(
      !FileManager.default.fileExists(atPath: "\(data)/kio/servicemenus/xdg-share-com.example.photos.desktop")
    )
    let metadata = try String(
      contentsOfFile: "\(data)/kpackage/Purpose/org.xdgshare.com.example.photos/metadata.json",
      encoding: .utf8)
    #expect(metadata.contains("\"Export\""))
    let picker = try String(
      contentsOfFile: "\(data)/kio/servicemenus/xdg-share.picker.desktop", encoding: .utf8)
    #expect(picker.contains("\nMimeType=inode/directory;\n"))
  }

  @Test func unregisterRemovesOnlyWhatRegisterWrote() throws {
    try hidePurposeInDolphin()
    try install(
      "com.example.photos", name: "Ph\"o$to;s %F\\",
      rule: BundleFixture.dictionary([
        ("NSExtensionActivationSupportsImageWithMaxCount", "<integer>1</integer>")
      ]))
    let mine = "\(data)/kio/servicemenus/xdg-share-foo.desktop"
    try FileManager.default.createDirectory(
      atPath: "\(data)/kio/servicemenus", withIntermediateDirectories: true)
    try "[Desktop Entry]\nType=Service\nActions=a;\n".write(toFile: mine, atomically: true, encoding: .utf8)
    #expect(try Tool.run(["register"], on: desktop).status == 0)
    let before = try FileManager.default.subpathsOfDirectory(atPath: data).count

    let result = try Tool.run(["unregister"], on: desktop)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.hasPrefix("Removed 21 files from \(data)\n"), "\(result.standardOutput)")
    #expect(
      try String(contentsOfFile: mine, encoding: .utf8) == "[Desktop Entry]\nType=Service\nActions=a;\n")
    let left = try FileManager.default.subpathsOfDirectory(atPath: data).filter {
      !$0.hasPrefix("xdg-share/extensions")
    }
    #expect(
      left.sorted() == ["kio", "kio/servicemenus", "kio/servicemenus/xdg-share-foo.desktop", "xdg-share"],
      "of \(before)")

    let again = try Tool.run(["unregister"], on: desktop)
    #expect(again.status == 0)
    #expect(again.standardOutput == "Nothing to remove: xdg-share has not registered anything in \(data)\n")
  }

  /// For every user, staged below DESTDIR as a package build does (the browsers' manifests go
  /// to /etc and /usr/lib, which a test must not touch): the first data folder, and the
  /// browsers' system folders.
  @Test func systemRegistrationGoesToTheFirstDataDirectory() throws {
    let stage = "\(desktop.root)/stage"
    let result = try Tool.run(["register", "--system"], on: desktop, environment: ["DESTDIR": stage])
    #expect(result.status == 0, "\(result.standardError)")
    let system = "\(stage)\(desktop.root)/system"
    #expect(FileManager.default.fileExists(atPath: "\(system)/nautilus-python/extensions/xdg-share.py"))
    #expect(FileManager.default.fileExists(atPath: "\(system)/xdg-share/registered.json"))
    for folder in [
      "etc/chromium/native-messaging-hosts", "etc/opt/chrome/native-messaging-hosts",
      "usr/lib/mozilla/native-messaging-hosts",
    ] {
      #expect(
        FileManager.default.fileExists(atPath: "\(stage)/\(folder)/org.xdgshare.webshare.json"), "\(folder)")
    }
    #expect(!FileManager.default.fileExists(atPath: "\(data)/nautilus-python"))
    #expect(
      try Tool.run(["unregister", "--system"], on: desktop, environment: ["DESTDIR": stage]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: "\(system)/nautilus-python"))
    #expect(!FileManager.default.fileExists(atPath: "\(stage)/etc"))
  }

  @Test func aDamagedManifestIsAnErrorAndTouchesNothing() throws {
    #expect(try Tool.run(["register"], on: desktop).status == 0)
    try "{".write(toFile: "\(data)/xdg-share/registered.json", atomically: true, encoding: .utf8)
    let result = try Tool.run(["unregister"], on: desktop)
    #expect(result.status == 1)
    #expect(
      result.standardError
        == "xdg-share: \(data)/xdg-share/registered.json: not a manifest xdg-share wrote; remove it to start afresh (files it listed are then left in place)\n"
    )
    #expect(FileManager.default.fileExists(atPath: "\(data)/nautilus-python/extensions/xdg-share.py"))
  }

  @Test(arguments: [["register", "--sytem"], ["unregister", "extra"]])
  func usageErrors(_ arguments: [String]) throws {
    let result = try Tool.run(arguments, on: desktop)
    #expect(result.status == 2)
  }
}

// MARK: - The Nautilus extension, run against the real D-Bus service

/// A Python with GObject introspection (python3-gi), which the Nautilus extension needs.
private let gobjectPython: String? = {
  guard
    let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(
      where: FileManager.default.isExecutableFile)
  else { return nil }
  let check = try? CapturedRun.run(
    [python, "-c", "import gi; gi.require_version('Gio', '2.0'); from gi.repository import Gio"].map {
      Array($0.utf8)
    },
    environment: ProcessInfo.processInfo.environment)
  return check?.status == 0 ? python : nil
}()

/// Everything on PATH (and in the sbin folders, where some distributions put Xvfb).
private func findProgram(_ name: String) -> String? {
  let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/bin:/bin:/usr/sbin:/sbin"
  return path.split(separator: ":").map { "\($0)/\(name)" }.first(where: FileManager.default.isExecutableFile)
}

/// Nautilus itself is not needed: the extension is loaded with a stand-in for the `Nautilus`
/// module, asked for its menu on a private bus where our D-Bus activation file starts the real
/// `xdg-share daemon`, and its menu item activated.
@Suite struct NautilusExtensionTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  static let harness = #"""
    import gi, importlib.util, json, os, sys, time, types
    real_require = gi.require_version
    gi.require_version = lambda namespace, version: None if namespace == "Nautilus" else real_require(namespace, version)
    import gi.repository
    from gi.repository import Gio


    class MenuItem:
        def __init__(self, name, label, tip, icon):
            self.name, self.label, self.tip, self.icon = name, label, tip, icon
            self.handlers, self.submenu = [], None

        def connect(self, signal, callback, *data):
            self.handlers.append((signal, callback, data))

        def set_submenu(self, menu):
            self.submenu = menu

        def activate(self):
            for signal, callback, data in self.handlers:
                if signal == "activate":
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

    extension_path, request = json.loads(sys.argv[1]), json.loads(sys.argv[2])
    spec = importlib.util.spec_from_file_location("xdg_share_extension", extension_path)
    extension = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(extension)
    provider = extension.XdgShareMenuProvider()

    def menu(locations):
        items = provider.get_file_items([FileInfo(location) for location in locations])
        return [{"label": item.label, "items": [sub.label for sub in item.submenu.get_items()]} for item in items], items

    result = {}
    locations = [Gio.File.new_for_path(os.fsdecode(bytes.fromhex(path))) for path in request["paths"]]
    result["menu"], items = menu(locations)
    result["remote"], _ = menu([Gio.File.new_for_uri("https://example.org/photo.png")])
    if request.get("activate") and items:
        target = [sub for sub in items[0].submenu.get_items() if sub.label == request["activate"]]
        target[0].activate()
        deadline = time.time() + 30
        while not os.path.exists(request["wait_for"]) and time.time() < deadline:
            time.sleep(0.1)
    print(json.dumps(result))
    """#

  func run(paths: [[UInt8]], activate: String?, environment: [String: String]) throws -> [String: Any] {
    let python = try #require(gobjectPython)
    let request: [String: Any] = [
      "paths": paths.map { $0.map { String(format: "%02x", $0) }.joined() },
      "activate": activate as Any, "wait_for": "\(desktop.root)/state/received.json",
    ]
    let requestJSON = String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
    let extensionPath = String(
      decoding: try JSONSerialization.data(
        withJSONObject: "\(desktop.root)/data/nautilus-python/extensions/xdg-share.py",
        options: .fragmentsAllowed),
      as: UTF8.self)
    let run = try CapturedRun.run(
      ["dbus-run-session", "--", python, "-c", Self.harness, extensionPath, requestJSON].map {
        Array($0.utf8)
      },
      environment: environment)
    let output = String(decoding: run.standardOutput, as: UTF8.self)
    #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
    return try #require(
      try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
  }

  @Test(
    .enabled(if: gobjectPython != nil, "needs python3 with GObject introspection (Debian: python3-gi)"),
    .enabled(if: findProgram("dbus-run-session") != nil, "needs dbus-run-session (Debian: dbus-daemon)"))
  func theExtensionOffersWhatTheDaemonSaysAndStartsTheShare() throws {
    try BundleFixture(
      id: "com.example.logger", name: "Logger",
      ruleXML: BundleFixture.dictionary([
        ("NSExtensionActivationSupportsImageWithMaxCount", "<integer>5</integer>")
      ]),
      // Written aside and renamed, so that the test never reads a request half written.
      program: """
        #!/bin/sh
        cat > "$XDG_STATE_HOME/received.part" && mv "$XDG_STATE_HOME/received.part" "$XDG_STATE_HOME/received.json"
        echo '{"complete": {}}'

        """, entitlements: [.unconfined]
    ).write(into: desktop.userExtensions)
    try BundleFixture(
      id: "com.example.pdf", name: "PDF Only",
      ruleXML: BundleFixture.predicate(
        "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"com.adobe.pdf\").@count >= 1).@count == 1"
      ), entitlements: [.unconfined]
    ).write(into: desktop.userExtensions)
    let register = try Tool.run(["register"], on: desktop)
    #expect(register.status == 0, "\(register.standardError)")
    let photo = try desktop.writeFile(named: Array("photo.png".utf8), contents: tinyPNG)
    let hostile = try desktop.writeFile(
      named: Array("$(touch pwned) new\nline é.png".utf8), contents: tinyPNG)

    var environment = desktop.environment
    environment["XDG_SHARE_IDLE_TIMEOUT"] = "5"
    let result = try run(paths: [photo, hostile], activate: "Logger", environment: environment)
    #expect((result["menu"] as? [[String: Any]])?.first?["label"] as? String == "Share")
    #expect((result["menu"] as? [[String: Any]])?.first?["items"] as? [String] == ["Share…", "Logger"])
    #expect((result["remote"] as? [Any])?.isEmpty == true)

    let data = try Data(contentsOf: URL(fileURLWithPath: "\(desktop.root)/state/received.json"))
    let request = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let attachments =
      ((request["inputItems"] as? [[String: Any]])?.first?["attachments"] as? [[String: Any]]) ?? []
    #expect(
      attachments.compactMap { ($0["url"] as? String).flatMap(FilePath.init(fileURL:))?.bytes } == [
        photo, hostile,
      ])
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.files)/pwned"))
  }

  @Test(
    .enabled(if: gobjectPython != nil, "needs python3 with GObject introspection (Debian: python3-gi)"),
    .enabled(if: findProgram("dbus-run-session") != nil, "needs dbus-run-session (Debian: dbus-daemon)"))
  func withoutTheServiceTheMenuOffersTheShareSheetAlone() throws {
    // Registered, but the activation file points nowhere: the call fails, "Share…" stays.
    #expect(try Tool.run(["register"], on: desktop).status == 0)
    try FileManager.default.removeItem(
      atPath: "\(desktop.root)/data/dbus-1/services/org.xdgshare.Share.service")
    let photo = try desktop.writeFile(named: Array("photo.png".utf8), contents: tinyPNG)
    let result = try run(paths: [photo], activate: nil, environment: desktop.environment)
    #expect((result["menu"] as? [[String: Any]])?.map { $0["label"] as? String } == ["Share"])
    #expect((result["menu"] as? [[String: Any]])?.first?["items"] as? [String] == ["Share…"])
  }
}

// MARK: - Real file managers under Xvfb

/// The programs that drive a file manager: a virtual X server, input, screenshots and OCR to find
/// menu items by their labels, whatever the theme and the other entries of the menu.
private enum Driver {
  static let tools = ["Xvfb", "xdotool", "import", "convert", "tesseract", "dbus-run-session"]
  static let missing = tools.filter { findProgram($0) == nil }
  static var available: Bool { missing.isEmpty }
}

private struct Box {
  var x: Int
  var y: Int
  var width: Int
  var height: Int
  var center: (x: Int, y: Int) { (x + width / 2, y + height / 2) }
}

/// One Xvfb with one file manager on a private session bus, driven with xdotool; screenshots
/// and OCR results are kept in `artifacts` (under /tmp) for when a step fails.
private final class ScreenSession {
  let environment: [String: String]
  let artifacts: String
  private let server: ChildProcess
  private var fileManager: ChildProcess?
  private var shots = 0

  init(desktop: TemporaryDesktop, name: String) throws {
    artifacts = "/tmp/xdg-share-\(name)-\(getpid())"
    try? FileManager.default.removeItem(atPath: artifacts)
    try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
    // Xvfb picks a free display itself and writes its number to -displayfd.
    server = try ChildProcess.spawn(
      ["Xvfb", "-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"].map { Array($0.utf8) },
      environment: desktop.environment, standardOutput: .pipe, standardError: .null)
    var number = ""
    let deadline = Date().addingTimeInterval(20)
    while !number.hasSuffix("\n"), Date() < deadline, let output = server.standardOutput {
      guard try output.waitReadable(timeout: 1) else { continue }
      let bytes = try output.read(upTo: 16)
      if bytes.isEmpty { break }
      number += String(decoding: bytes, as: UTF8.self)
    }
    guard let display = Int(number.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      server.signal(Signal.kill)
      _ = server.wait()
      throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "Xvfb did not start"])
    }
    var environment = desktop.environment
    environment["DISPLAY"] = ":\(display)"
    environment["NO_AT_BRIDGE"] = "1"
    environment["GTK_OVERLAY_SCROLLING"] = "0"
    // GTK 4 draws with the CPU: Xvfb has no OpenGL to offer.
    environment["GSK_RENDERER"] = "cairo"
    // The file managers need the system's icons, GSettings schemas and MIME database.
    environment["XDG_DATA_DIRS"] = "\(desktop.root)/system:/usr/local/share:/usr/share"
    environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
    self.environment = environment
  }

  deinit {
    if let fileManager {
      fileManager.signal(Signal.terminate)
      if fileManager.wait(timeout: 5) == nil {
        fileManager.signal(Signal.kill)
        _ = fileManager.wait()
      }
    }
    server.signal(Signal.terminate)
    _ = server.wait()
  }

  /// Starts `arguments` in a process group of its own, on a bus of its own.
  func start(_ arguments: [String]) throws {
    let log = try FileDescriptor.create(Array("\(artifacts)/file-manager.log".utf8))
    fileManager = try ChildProcess.spawn(
      (["dbus-run-session", "--"] + arguments).map { Array($0.utf8) }, environment: environment,
      standardOutput: .descriptor(log), standardError: .descriptor(log), newProcessGroup: true)
  }

  @discardableResult
  func run(_ arguments: [String]) throws -> String {
    let run = try CapturedRun.run(arguments.map { Array($0.utf8) }, environment: environment)
    return String(decoding: run.standardOutput, as: UTF8.self)
  }

  /// The visible windows of a class: the main window and any open menus.
  func windows(ofClass name: String) throws -> [(id: String, box: Box)] {
    let output = try run([
      "xdotool", "search", "--onlyvisible", "--class", name, "getwindowgeometry", "--shell", "%@",
    ])
    var result: [(id: String, box: Box)] = []
    var fields: [String: Int] = [:]
    var id = ""
    for line in output.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { continue }
      if parts[0] == "WINDOW" { id = parts[1] }
      fields[parts[0]] = Int(parts[1])
      if parts[0] == "SCREEN", let x = fields["X"], let y = fields["Y"], let w = fields["WIDTH"],
        let h = fields["HEIGHT"]
      {
        result.append((id, Box(x: x, y: y, width: w, height: h)))
      }
    }
    return result
  }

  /// A screenshot of the whole screen, numbered, named after the step.
  func screenshot(_ step: String) throws -> String {
    shots += 1
    let path = "\(artifacts)/\(shots)-\(step).png"
    try run(["import", "-window", "root", path])
    return path
  }

  /// Where `phrase` is written inside `regions` of the screen, by OCR of each region enlarged
  /// twice (small UI text reads far better so), as sparse text first, then as a page.
  func find(_ phrase: String, in regions: [Box], step: String) throws -> Box? {
    let shot = try screenshot(step)
    let wanted = phrase.split(separator: " ").map(String.init)
    for (index, region) in regions.enumerated() {
      let crop = "\(artifacts)/\(shots)-\(step)-\(index).png"
      try run([
        "convert", shot, "-crop", "\(region.width)x\(region.height)+\(region.x)+\(region.y)", "+repage",
        "-resize",
        "200%", crop,
      ])
      for mode in ["11", "3"] {
        let tsv = try run(["tesseract", crop, "stdout", "--psm", mode, "tsv"])
        try? tsv.write(toFile: "\(crop).psm\(mode).tsv", atomically: true, encoding: .utf8)
        // level page block paragraph line word left top width height confidence text
        let words: [(text: String, box: Box)] = tsv.split(separator: "\n").dropFirst().compactMap { row in
          let cells = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
          guard cells.count == 12, cells[0] == "5", let left = Int(cells[6]), let top = Int(cells[7]),
            let width = Int(cells[8]), let height = Int(cells[9]), !cells[11].isEmpty
          else { return nil }
          return (
            cells[11],
            Box(x: region.x + left / 2, y: region.y + top / 2, width: width / 2, height: height / 2)
          )
        }
        if let box = Self.phrase(wanted, in: words) { return box }
      }
    }
    return nil
  }

  /// The words of `phrase` one after the other on one line: each next word a little to the right
  /// of the one before, at about the same height.
  static func phrase(_ phrase: [String], in words: [(text: String, box: Box)]) -> Box? {
    // OCR reads an ellipsis as three dots as often as not.
    let words = words.map { (text: $0.text.replacing("...", with: "…"), box: $0.box) }
    for first in words where first.text == phrase[0] {
      var last = first.box
      var matched = true
      for next in phrase.dropFirst() {
        guard
          let word = words.first(where: { word in
            word.text == next && abs(word.box.center.y - last.center.y) <= max(4, last.height / 2)
              && word.box.x >= last.x + last.width - 2
              && word.box.x <= last.x + last.width + 3 * max(last.height, 8)
          })
        else {
          matched = false
          break
        }
        last = word.box
      }
      if matched {
        return Box(
          x: first.box.x, y: first.box.y, width: last.x + last.width - first.box.x,
          height: max(first.box.height, last.height))
      }
    }
    return nil
  }

  /// Polls ``find(_:in:step:)`` over the windows `regions` gives, for up to `timeout` seconds,
  /// until `phrase` is found at the same place twice in a row: a menu still sliding or being
  /// laid out (GTK 4's popovers animate) would otherwise be clicked where it no longer is.
  func waitFor(
    _ phrase: String, timeout: Double = 20, step: String, regions: () throws -> [Box]
  ) throws -> Box? {
    let deadline = Date().addingTimeInterval(timeout)
    var previous: Box?
    repeat {
      let box = try find(phrase, in: try regions(), step: step)
      if let box, let previous, abs(box.center.x - previous.center.x) <= 2,
        abs(box.center.y - previous.center.y) <= 2
      {
        return box
      }
      previous = box
      Thread.sleep(forTimeInterval: box == nil ? 0.5 : 0.3)
    } while Date() < deadline
    return nil
  }

  func move(_ x: Int, _ y: Int) throws { try run(["xdotool", "mousemove", "\(x)", "\(y)"]) }

  func click(_ x: Int, _ y: Int, button: Int = 1) throws {
    try run(["xdotool", "mousemove", "\(x)", "\(y)", "click", "\(button)"])
  }
}

/// Right-click a PNG → the Share submenu → the service, in the real Thunar, PCManFM, Nemo and Caja
/// of the machine under Xvfb; the service's plugin must receive the file.
@Suite(.serialized) struct FileManagerTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var program: String
    var windowClass: String
    /// The submenu our entries are in; `nil` when they are in the context menu itself.
    var submenu: String?
    /// The label of our entry.
    var entry = "Logger"
    /// Arguments before the folder.
    var arguments: [String] = []
    /// Packages besides the program that must be there.
    var packages: [String] = []
    /// Whether the submenu is opened with a click: GTK 4 menus slide it in on a click, and Qt's
    /// does not open for a pointer that xdotool moves there.
    var clickOpensSubmenu = false
    var testDescription: String { program }
  }

  static let thunar = Case(program: "thunar", windowClass: "thunar", submenu: "Send To")
  static let pcmanfm = Case(
    program: "pcmanfm", windowClass: "pcmanfm", submenu: "Share", packages: ["libfm-modules"])
  /// Nemo 5.6 has no submenus for actions: the entry is "Share: Logger" in the menu itself.
  static let nemo = Case(
    program: "nemo", windowClass: "nemo", submenu: nil, entry: "Share: Logger", arguments: ["--no-desktop"])
  static let caja = Case(
    program: "caja", windowClass: "caja", submenu: "Share", arguments: ["--no-desktop"],
    packages: ["caja-actions"])
  static let dolphin = Case(
    program: "dolphin", windowClass: "dolphin", submenu: "Share", arguments: ["--new-window"],
    clickOpensSubmenu: true)
  /// Nautilus 43 (GTK 4) with nautilus-python: the extension asks the service on the session bus,
  /// which D-Bus activation starts.
  static let nautilus = Case(
    program: "nautilus", windowClass: "org.gnome.Nautilus", submenu: "Share", arguments: ["--new-window"],
    packages: ["python3-nautilus"], clickOpensSubmenu: true)

  static func installed(_ item: Case) -> Bool {
    findProgram(item.program) != nil
      && item.packages.allSatisfy { package in
        ((try? FileManager.default.contentsOfDirectory(atPath: "/var/lib/dpkg/info")) ?? []).contains {
          $0 == "\(package).list" || ($0.hasPrefix("\(package):") && $0.hasSuffix(".list"))
        }
      }
  }

  @Test(
    .enabled(if: Driver.available, "needs Xvfb, xdotool, ImageMagick, tesseract-ocr and dbus-run-session"),
    .enabled(if: installed(thunar), "needs Thunar (Debian: thunar)"), .timeLimit(.minutes(3)))
  func thunarSendsAPNGToTheService() throws {
    try shareAPNG(with: Self.thunar)
  }

  @Test(
    .enabled(if: Driver.available, "needs Xvfb, xdotool, ImageMagick, tesseract-ocr and dbus-run-session"),
    .enabled(if: installed(pcmanfm), "needs PCManFM with libfm-modules (Debian: pcmanfm libfm-modules)"),
    .timeLimit(.minutes(3)))
  func pcmanfmSharesAPNGWithTheService() throws {
    try shareAPNG(with: Self.pcmanfm)
  }

  @Test(
    .enabled(if: Driver.available, "needs Xvfb, xdotool, ImageMagick, tesseract-ocr and dbus-run-session"),
    .enabled(if: installed(nemo), "needs Nemo (Debian: nemo)"), .timeLimit(.minutes(3)))
  func nemoSharesAPNGWithTheService() throws {
    try shareAPNG(with: Self.nemo)
  }

  @Test(
    .enabled(if: Driver.available, "needs Xvfb, xdotool, ImageMagick, tesseract-ocr and dbus-run-session"),
    .enabled(if: installed(caja), "needs Caja with caja-actions (Debian: caja caja-actions)"),
    .timeLimit(.minutes(3)))
  func cajaSharesAPNGWithTheService() throws {
    try shareAPNG(with: Self.caja)
  }

  @Test(
    .enabled(if: Driver.available, "needs Xvfb, xdotool, ImageMagick, tesseract-ocr and dbus-run-session"),
    .enabled(
      if: installed(nautilus), "needs Nautilus with nautilus-python (Debian: nautilus python3-nautilus)"),
    .timeLimit(.minutes(3)))
  func nautilusSharesAPNGWithTheService() throws {
    try shareAPNG(with: Self.nautilus)
  }

  @Test(
    .enabled(if: Driver.available, "needs Xvfb, xdotool, ImageMagick, tesseract-ocr and dbus-run-session"),
    .enabled(if: installed(dolphin), "needs Dolphin (Debian: dolphin)"), .timeLimit(.minutes(3)))
  func dolphinSharesAPNGWithTheService() throws {
    try shareAPNG(with: Self.dolphin)
  }

  /// "Share…" in Thunar's Send To menu and in Nautilus's Share submenu opens the share sheet;
  /// typing the service's name and Enter there (the keyboard alone) shares the file.
  @Test(
    .enabled(if: Driver.available, "needs Xvfb, xdotool, ImageMagick, tesseract-ocr and dbus-run-session"),
    .enabled(if: installed(thunar), "needs Thunar (Debian: thunar)"), .timeLimit(.minutes(3)))
  func thunarShareOpensTheSheet() throws {
    var thunar = Self.thunar
    thunar.entry = "Share…"
    try shareAPNG(with: thunar, throughSheet: true)
  }

  @Test(
    .enabled(if: Driver.available, "needs Xvfb, xdotool, ImageMagick, tesseract-ocr and dbus-run-session"),
    .enabled(
      if: installed(nautilus), "needs Nautilus with nautilus-python (Debian: nautilus python3-nautilus)"),
    .timeLimit(.minutes(3)))
  func nautilusShareOpensTheSheet() throws {
    var nautilus = Self.nautilus
    nautilus.entry = "Share…"
    try shareAPNG(with: nautilus, throughSheet: true)
  }

  /// Okular, a KDE application that is no file manager: File → Share is Purpose's menu, in which
  /// the service's plugin `register` wrote is listed; choosing it shares the open document.
  @Test(
    .enabled(if: Driver.available, "needs Xvfb, xdotool, ImageMagick, tesseract-ocr and dbus-run-session"),
    .enabled(
      if: installed(Case(program: "okular", windowClass: "okular", packages: ["libkf5purpose-bin"])),
      "needs Okular and Purpose (Debian: okular libkf5purpose-bin)"),
    .timeLimit(.minutes(3)))
  func okularSharesTheOpenDocumentWithTheService() throws {
    let desktop = try TemporaryDesktop()
    try BundleFixture(
      id: "com.example.documents", name: "Documents",
      ruleXML: BundleFixture.predicate(
        "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers "
          + "UTI-CONFORMS-TO \"com.adobe.pdf\").@count == 1).@count == 1"),
      program: """
        #!/bin/sh
        cat > "$XDG_STATE_HOME/received.part" && mv "$XDG_STATE_HOME/received.part" "$XDG_STATE_HOME/received.json"
        echo '{"complete": {}}'

        """, entitlements: [.unconfined]
    ).write(into: desktop.userExtensions)
    let register = try Tool.run(["register"], on: desktop)
    try #require(register.status == 0, "\(register.standardError)")
    let document = try desktop.writeFile(
      named: Array("Quarterly report.pdf".utf8), contents: Array(tinyPDF.utf8))
    let received = "\(desktop.root)/state/received.json"

    let session = try ScreenSession(desktop: desktop, name: "okular")
    func fail(_ message: String) throws -> Never {
      let shot = (try? session.screenshot("failure")) ?? "(no screenshot)"
      Issue.record(
        "okular: \(message); screenshots, OCR output and the log are in \(session.artifacts) (last: \(shot))")
      throw CancellationError()
    }
    try session.start(["okular", String(decoding: document, as: UTF8.self)])
    var main: (id: String, box: Box)?
    let deadline = Date().addingTimeInterval(30)
    while main == nil, Date() < deadline {
      main = try session.windows(ofClass: "okular").max {
        $0.box.width * $0.box.height < $1.box.width * $1.box.height
      }
      if main == nil { Thread.sleep(forTimeInterval: 0.25) }
    }
    guard let main else { try fail("no window appeared within 30 seconds") }
    // The menu bar's File, then Share in it (Qt opens a submenu on a click), then the service.
    let menuBar = Box(x: main.box.x, y: main.box.y, width: main.box.width, height: 40)
    guard let file = try session.waitFor("File", step: "menubar", regions: { [menuBar] }) else {
      try fail("the menu bar has no File")
    }
    try session.click(file.center.x, file.center.y)
    let menus = { try session.windows(ofClass: "okular").filter { $0.id != main.id }.map(\.box) }
    guard let share = try session.waitFor("Share", step: "file-menu", regions: menus) else {
      try fail("the File menu has no Share")
    }
    try session.click(share.center.x, share.center.y)
    guard let entry = try session.waitFor("Documents", step: "share-menu", regions: menus) else {
      try fail("Okular's Share menu has no \"Documents\"")
    }
    try session.move(entry.center.x, share.center.y)
    Thread.sleep(forTimeInterval: 0.2)
    try session.move(entry.center.x, entry.center.y)
    Thread.sleep(forTimeInterval: 0.3)
    _ = try session.screenshot("chosen")
    try session.click(entry.center.x, entry.center.y)

    let arrival = Date().addingTimeInterval(30)
    while !FileManager.default.fileExists(atPath: received), Date() < arrival {
      Thread.sleep(forTimeInterval: 0.2)
    }
    guard let data = FileManager.default.contents(atPath: received) else {
      try fail("the service's plugin received nothing within 30 seconds")
    }
    let request = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(request["serviceId"] as? String == "com.example.documents")
    let attachments =
      ((request["inputItems"] as? [[String: Any]])?.first?["attachments"] as? [[String: Any]]) ?? []
    #expect(attachments.count == 1)
    #expect(attachments.first?["typeIdentifiers"] as? [String] == ["com.adobe.pdf", "application/pdf"])
    let url = try #require(attachments.first?["url"] as? String)
    let path = try #require(FilePath(fileURL: url)?.string)
    #expect(FileManager.default.contents(atPath: path) == Data(tinyPDF.utf8))
    #expect(
      URL(fileURLWithPath: path).resolvingSymlinksInPath()
        == URL(fileURLWithPath: String(decoding: document, as: UTF8.self)).resolvingSymlinksInPath())
    if attachments.count == 1 { try? FileManager.default.removeItem(atPath: session.artifacts) }
  }

  func shareAPNG(with fileManager: Case, throughSheet: Bool = false) throws {
    let desktop = try TemporaryDesktop()
    try BundleFixture(
      id: "com.example.logger", name: "Logger",
      ruleXML: BundleFixture.dictionary([
        ("NSExtensionActivationSupportsImageWithMaxCount", "<integer>5</integer>")
      ]),
      // Written aside and renamed, so that the test never reads a request half written.
      program: """
        #!/bin/sh
        cat > "$XDG_STATE_HOME/received.part" && mv "$XDG_STATE_HOME/received.part" "$XDG_STATE_HOME/received.json"
        echo '{"complete": {}}'

        """, entitlements: [.unconfined]
    ).write(into: desktop.userExtensions)
    let register = try Tool.run(["register"], on: desktop)
    try #require(register.status == 0, "\(register.standardError)")
    let photo = try desktop.writeFile(named: Array("photo.png".utf8), contents: tinyPNG)
    try desktop.writeFile(named: "notes.txt", contents: "hello\n")
    let received = "\(desktop.root)/state/received.json"

    let session = try ScreenSession(desktop: desktop, name: fileManager.program)
    func fail(_ message: String) throws -> Never {
      let shot = (try? session.screenshot("failure")) ?? "(no screenshot)"
      Issue.record(
        "\(fileManager.program): \(message); screenshots, OCR output and the log are in \(session.artifacts) (last: \(shot))"
      )
      throw CancellationError()
    }
    try session.start([fileManager.program] + fileManager.arguments + [desktop.files])

    // The main window, then the PNG in it.
    var main: (id: String, box: Box)?
    let deadline = Date().addingTimeInterval(30)
    while main == nil, Date() < deadline {
      main = try session.windows(ofClass: fileManager.windowClass).max {
        $0.box.width * $0.box.height < $1.box.width * $1.box.height
      }
      if main == nil { Thread.sleep(forTimeInterval: 0.25) }
    }
    guard let main else { try fail("no window appeared within 30 seconds") }
    guard let file = try session.waitFor("photo.png", step: "folder", regions: { [main.box] }) else {
      try fail("photo.png is not shown in the folder")
    }
    try session.click(file.center.x, file.center.y)
    Thread.sleep(forTimeInterval: 0.3)
    try session.click(file.center.x, file.center.y, button: 3)

    // The context menu: any other window of the program.
    let menus = {
      try session.windows(ofClass: fileManager.windowClass).filter { $0.id != main.id }.map(\.box)
    }
    let entry: Box
    if let label = fileManager.submenu {
      guard let submenu = try session.waitFor(label, step: "menu", regions: menus) else {
        try fail("the context menu has no \"\(label)\"")
      }
      if fileManager.clickOpensSubmenu {
        try session.click(submenu.center.x, submenu.center.y)
      } else {
        try session.move(submenu.center.x, submenu.center.y)
      }
      guard let found = try session.waitFor(fileManager.entry, step: "submenu", regions: menus) else {
        try fail("the \"\(label)\" submenu has no \"\(fileManager.entry)\"")
      }
      entry = found
      // Along the submenu's row first, so that the pointer never crosses another item.
      try session.move(entry.center.x, submenu.center.y)
      Thread.sleep(forTimeInterval: 0.2)
    } else {
      guard let found = try session.waitFor(fileManager.entry, step: "menu", regions: menus) else {
        try fail("the context menu has no \"\(fileManager.entry)\"")
      }
      entry = found
    }
    try session.move(entry.center.x, entry.center.y)
    Thread.sleep(forTimeInterval: 0.5)
    _ = try session.screenshot("chosen")
    try session.click(entry.center.x, entry.center.y)

    if throughSheet {
      // The sheet's window, found by its class (its application id): then the keyboard only.
      var sheet: (id: String, box: Box)?
      let shown = Date().addingTimeInterval(30)
      while sheet == nil, Date() < shown {
        sheet = try session.windows(ofClass: "org\\.xdgshare\\.Share|xdg-share-sheet").first
        if sheet == nil { Thread.sleep(forTimeInterval: 0.25) }
      }
      guard let sheet else { try fail("the share sheet did not open within 30 seconds") }
      _ = try session.screenshot("sheet")
      _ = try session.run(["xdotool", "windowfocus", "--sync", sheet.id])
      _ = try session.run(["xdotool", "type", "--delay", "50", "Logger"])
      Thread.sleep(forTimeInterval: 0.5)
      _ = try session.run(["xdotool", "key", "Return"])
    }

    let arrival = Date().addingTimeInterval(30)
    while !FileManager.default.fileExists(atPath: received), Date() < arrival {
      Thread.sleep(forTimeInterval: 0.2)
    }
    guard let data = FileManager.default.contents(atPath: received) else {
      try fail("the service's plugin received nothing within 30 seconds")
    }
    let request = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(request["serviceId"] as? String == "com.example.logger")
    let attachments =
      ((request["inputItems"] as? [[String: Any]])?.first?["attachments"] as? [[String: Any]]) ?? []
    #expect(attachments.count == 1)
    let url = try #require(attachments.first?["url"] as? String)
    // The file manager may spell the folder differently (symbolic links); the file is the same.
    let path = try #require(FilePath(fileURL: url)?.string)
    #expect(attachments.first?["typeIdentifiers"] as? [String] == ["public.png", "image/png"])
    let delivered =
      URL(fileURLWithPath: path).resolvingSymlinksInPath()
      == URL(fileURLWithPath: String(decoding: photo, as: UTF8.self)).resolvingSymlinksInPath()
    #expect(delivered)
    // Screenshots are kept only when something went wrong.
    if delivered, attachments.count == 1 { try? FileManager.default.removeItem(atPath: session.artifacts) }
  }
}

/// A one-page PDF that says "Hello PDF", small enough to read here whole.
private let tinyPDF = """
  %PDF-1.1
  1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
  2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
  3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >> endobj
  4 0 obj << /Length 44 >> stream
  BT /F1 24 Tf 40 100 Td (Hello PDF) Tj ET
  endstream endobj
  5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj
  trailer << /Root 1 0 R >>
  %%EOF

  """
