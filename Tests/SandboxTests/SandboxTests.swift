import Foundation
import ShareCore
import SharePOSIX
import ShareTestSupport
import Testing

/// A sandboxed app shares its own files: a sandbox built from Flatpak's own parts
/// (`Driver/flatpak_sandbox.py`: bwrap, a `/.flatpak-info`, the session bus only through
/// xdg-dbus-proxy with Flatpak's rules, the proxy in a sandbox of its own as Flatpak runs it), an
/// app inside calling the service with python3-dbus (`Driver/sandbox_client.py`), the real
/// service, and for the share sheet the real sheet driven through AT-SPI.
@Suite(.serialized) struct SandboxTests {
  static let python = "/usr/bin/python3"
  static let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Driver")
  static let sandbox = driver.appendingPathComponent("flatpak_sandbox.py").path
  static let sheetDriver = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("SheetTests/Driver/sheet_driver.py").path

  static func installed(_ program: String) -> Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/\(program)")
  }

  /// What a sandbox needs: bubblewrap, xdg-dbus-proxy, python3-dbus.
  static let canSandbox: Bool = {
    guard installed("bwrap"), installed("xdg-dbus-proxy"), installed("dbus-run-session") else { return false }
    let check = try? CapturedRun.run(
      [python, "-c", "import dbus, gi"].map { Array($0.utf8) }, environment: ["PATH": "/usr/bin:/bin"])
    guard check?.status == 0 else { return false }
    // bwrap must be able to make a user namespace here (a container may forbid it).
    let probe = try? CapturedRun.run(
      [
        "bwrap", "--unshare-user", "--disable-userns", "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin",
        "/bin",
        "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--", "/usr/bin/true",
      ].map { Array($0.utf8) },
      environment: ["PATH": "/usr/bin:/bin"])
    return probe?.status == 0
  }()

  /// And for the sheet: Xvfb, xdotool, pyatspi.
  static let canDriveSheet: Bool = {
    guard canSandbox, installed("Xvfb"), installed("xdotool") else { return false }
    let check = try? CapturedRun.run(
      [python, "-c", "import pyatspi"].map { Array($0.utf8) }, environment: ["PATH": "/usr/bin:/bin"])
    return check?.status == 0
  }()

  /// The document portal, which needs FUSE.
  static let hasDocumentPortal =
    canSandbox && FileManager.default.isExecutableFile(atPath: "/usr/libexec/xdg-document-portal")
    && FileManager.default.fileExists(atPath: "/dev/fuse") && installed("fusermount3")

  let desktop: TemporaryDesktop
  var home: String { "\(desktop.root)/home" }
  var appData: String { "\(home)/.var/app/org.example.Notes" }

  init() throws {
    desktop = try TemporaryDesktop()
    for folder in ["icons", "glib-2.0"] {
      try FileManager.default.createSymbolicLink(
        atPath: "\(desktop.root)/system/\(folder)", withDestinationPath: "/usr/share/\(folder)")
    }
    // Keeps what it was given: the request, and a copy of each file with whether it was a link
    // (the document portal's export) and to where.
    try BundleFixture(
      id: "com.example.keeper", name: "Keeper", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      program: Self.keeper()
    ).write(into: desktop.userExtensions)
    try BundleFixture(
      id: "com.example.mailer", name: "Mailer", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      program: Self.keeper()
    ).write(into: desktop.userExtensions)
    // The app's own service, by the key; and one under its app id.
    try BundleFixture(
      id: "com.example.notes-share", name: "Notes Inbox", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      extraXML: "<key>XDGShareApplication</key><string>org.example.Notes</string>", program: Self.keeper()
    ).write(into: desktop.userExtensions)
    try BundleFixture(
      id: "org.example.Notes.share", name: "Notes Share", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      program: Self.keeper()
    ).write(into: desktop.userExtensions)
    // An action extension, in the sheet's row of actions.
    var translate = BundleFixture(
      id: "com.example.translate", name: "Translate", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      program: Self.keeper())
    translate.extensionPoint = "com.apple.ui-services"
    try translate.write(into: desktop.userExtensions)
    // A program killed while it shares.
    try BundleFixture(
      id: "com.example.crasher", name: "Crasher", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      program: "#!/bin/sh\ncat > /dev/null\nkill -KILL $$\n"
    ).write(into: desktop.userExtensions)
    // The app's desktop entry, which names it.
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/data/applications", withIntermediateDirectories: true)
    try "[Desktop Entry]\nType=Application\nName=Example Notes\nExec=notes\n".write(
      toFile: "\(desktop.root)/data/applications/org.example.Notes.desktop", atomically: true, encoding: .utf8
    )
  }

  static func keeper() -> String {
    """
    #!/usr/bin/python3
    import json, os, shutil, sys, urllib.parse
    request = json.loads(sys.stdin.read())
    state = os.environ["XDG_STATE_HOME"]
    for item in request["inputItems"]:
        for attachment in item.get("attachments", []):
            if attachment.get("url", "").startswith("file://"):
                path = urllib.parse.unquote(attachment["url"][len("file://"):])
                name = os.path.basename(path)
                shutil.copyfile(path, os.path.join(state, "kept-" + name))
                with open(os.path.join(state, "link-" + name), "w") as link:
                    link.write(os.readlink(path) if os.path.islink(path) else "")
                with open(os.path.join(state, "mode-" + name), "w") as mode:
                    mode.write(oct(os.stat(path).st_mode & 0o777))
                with open(os.path.join(state, "device-" + name), "w") as device:
                    device.write(str(os.stat(path).st_dev))
    with open(os.path.join(state, "received.json"), "w") as out:
        json.dump(request, out)
    print(json.dumps({"complete": {}}), flush=True)

    """
  }

  var environment: [String: String] {
    var environment = desktop.environment
    environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
    environment["XDG_DATA_DIRS"] = "\(desktop.root)/system:/usr/share"
    environment["GDK_BACKEND"] = "x11"
    environment["GSK_RENDERER"] = "cairo"
    environment["GIO_USE_VFS"] = "local"
    environment["ADW_DISABLE_PORTAL"] = "1"
    environment["SHEET_DRIVER_TIMEOUT"] = "45"
    return environment
  }

  /// The lines the app printed, run in the sandbox on a bus of the test's own with the service;
  /// with `sheet` steps, under the sheet driver (on a virtual display), which drives the sheet.
  func app(
    _ client: [String], talk: Bool = true, documentPortal: Bool = false, sheet: [String]? = nil,
    appFolder: String? = nil, program: [String] = [python, "/app/sandbox_client.py"]
  ) throws -> (lines: [String], all: String) {
    var harness = [Self.python, Self.sandbox]
    if talk { harness.append("--talk") }
    if documentPortal { harness.append("--document-portal") }
    if let appFolder { harness += ["--app-folder", appFolder] }
    harness += ["--daemon", Tool.path, "--"] + program + client
    var environment = self.environment
    let display: VirtualDisplay?
    let command: [String]
    if let sheet {
      let virtual = try VirtualDisplay(firstNumber: 700)
      display = virtual
      environment["DISPLAY"] = virtual.name
      command =
        ["dbus-run-session", "--", Self.python, Self.sheetDriver, "--launch"] + harness + ["--then"] + sheet
    } else {
      display = nil
      command = ["dbus-run-session", "--"] + harness
    }
    let run = try CapturedRun.run(command.map { Array($0.utf8) }, environment: environment)
    _ = display
    let printed = String(decoding: run.standardOutput, as: UTF8.self)
    let lines = printed.split(separator: "\n").map {
      $0.hasPrefix("output: ") ? String($0.dropFirst(8)) : String($0)
    }
    return (lines, printed + String(decoding: run.standardError, as: UTF8.self))
  }

  /// The `Response` the app printed: its code and results.
  static func response(_ lines: [String]) -> (code: Int, results: [String: Any])? {
    guard let line = lines.first(where: { $0.hasPrefix("response: ") }) else { return nil }
    let rest = line.dropFirst("response: ".count)
    guard let space = rest.firstIndex(of: " "), let code = Int(rest[..<space]),
      let results = try? JSONSerialization.jsonObject(with: Data(rest[rest.index(after: space)...].utf8))
        as? [String: Any]
    else { return nil }
    return (code, results)
  }

  var received: [String: Any]? {
    FileManager.default.contents(atPath: stateFile("received.json")).flatMap {
      try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
    }
  }

  var attachments: [[String: Any]] {
    ((received?["inputItems"] as? [[String: Any]])?.first?["attachments"] as? [[String: Any]]) ?? []
  }

  func kept(_ file: String) -> String? {
    try? String(contentsOfFile: stateFile(file), encoding: .utf8)
  }

  /// Where the keeper wrote `name`: in its `XDG_STATE_HOME`, which is the container of whichever
  /// keeper ran (docs/sandbox.md).
  func stateFile(_ name: String) -> String {
    let containers = "\(desktop.root)/data/xdg-share/containers"
    let services = ((try? FileManager.default.contentsOfDirectory(atPath: containers)) ?? []).sorted()
    return services.map { "\(desktop.containerState(of: $0))/\(name)" }.first {
      FileManager.default.fileExists(atPath: $0)
    } ?? "\(desktop.root)/state/\(name)"
  }

  /// The private copies' folder holds nothing once the request has ended.
  var copiesLeft: [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: "\(desktop.root)/runtime/xdg-share/handed-over"))
      ?? []
  }

  var history: [[String: Any]] {
    let folder = "\(desktop.root)/state/xdg-share/history"
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
      $0.hasSuffix(".json")
    }
    .compactMap { name in
      FileManager.default.contents(atPath: "\(folder)/\(name)").flatMap {
        try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
      }
    }
  }

  // MARK: The bus

  @Test(.enabled(if: canSandbox, "needs bubblewrap, xdg-dbus-proxy and python3-dbus, and user namespaces"))
  func withoutTheTalkRuleTheServiceCannotBeReached() throws {
    let run = try app(
      ["--make", "/tmp/a.txt", "a", "share", "com.example.keeper", "fd:/tmp/a.txt"], talk: false)
    #expect(
      run.lines.contains(
        "error: org.freedesktop.DBus.Error.ServiceUnknown: org.freedesktop.DBus.Error.ServiceUnknown"),
      "\(run.all)")
    #expect(received == nil)
  }

  // MARK: Files as descriptors

  @Test(.enabled(if: canSandbox, "needs bubblewrap, xdg-dbus-proxy and python3-dbus, and user namespaces"))
  func aFileOfTheSandboxReachesThePluginByteForByteUnderTheNameGiven() throws {
    // In the sandbox's private /tmp: no path outside means this file.
    let run = try app([
      "--make", "/tmp/draft", "Dear reader,\n\u{1}\u{2}é", "share", "com.example.keeper",
      "fd:/tmp/draft=Letter to Ann.txt",
    ])
    let response = try #require(Self.response(run.lines), "\(run.all)")
    #expect(response.code == 0)
    #expect(response.results["outcome"] as? String == "completed")
    #expect(response.results["service"] as? String == "com.example.keeper")
    #expect(attachments.compactMap { $0["name"] as? String } == ["Letter to Ann.txt"])
    #expect((attachments.first?["typeIdentifiers"] as? [String])?.contains("text/plain") == true)
    #expect(kept("kept-Letter to Ann.txt") == "Dear reader,\n\u{1}\u{2}é")
    // A copy, read-only, gone with the request.
    #expect(kept("link-Letter to Ann.txt") == "")
    #expect(kept("mode-Letter to Ann.txt") == "0o400")
    #expect(copiesLeft.isEmpty)
    // The history has the name the app gave and the app, never the private path.
    let record = try #require(history.first)
    #expect(record["caller"] as? String == "org.example.Notes")
    #expect(record["items"] as? [[String: String]] == [["handedOver": "Letter to Ann.txt"]])
  }

  @Test(.enabled(if: canSandbox, "needs bubblewrap, xdg-dbus-proxy and python3-dbus, and user namespaces"))
  func aFileIsTypedByItsContentWhenItsNameSaysNothing() throws {
    let run = try app(["--png", "/tmp/blob", "share", "com.example.keeper", "fd:/tmp/blob=picture"])
    #expect(Self.response(run.lines)?.code == 0, "\(run.all)")
    #expect((attachments.first?["typeIdentifiers"] as? [String])?.first == "public.png")
  }

  @Test(
    .enabled(if: canSandbox, "needs bubblewrap, xdg-dbus-proxy and python3-dbus, and user namespaces"),
    arguments: [
      ("dir:/tmp", "items[0].fd: expected a regular file, found a folder"),
      ("fifo:/tmp/pipe", "items[0].fd: expected a regular file, found a FIFO (named pipe)"),
      (
        "writeonly:/tmp/out",
        "items[0].fd: expected a descriptor open for reading, found one open for writing only"
      ),
    ])
  func descriptorsOfAnythingButAFileToReadAreRefused(_ item: String, _ message: String) throws {
    let run = try app(["--fifo", "/tmp/pipe", "share", "com.example.keeper", item])
    #expect(run.lines.contains("error: org.freedesktop.DBus.Error.InvalidArgs: \(message)"), "\(run.all)")
    #expect(received == nil)
    #expect(history.isEmpty)
  }

  @Test(.enabled(if: canSandbox, "needs bubblewrap, xdg-dbus-proxy and python3-dbus, and user namespaces"))
  func aPathFromInsideIsRefusedWithWordsThatSayWhatToDo() throws {
    for call in [
      ["share", "com.example.keeper", "path:/tmp/a.txt"], ["query", "url:file:///tmp/a.txt"],
    ] {
      let run = try app(["--make", "/tmp/a.txt", "a"] + call)
      #expect(
        run.lines.contains(
          "error: org.freedesktop.DBus.Error.InvalidArgs: items[0]: a sandboxed application's paths mean nothing outside its sandbox: pass the file as a descriptor, {\"fd\": <h>} (with \"name\" if it has one)"
        ), "\(run.all)")
    }
    #expect(received == nil)
  }

  @Test(.enabled(if: canSandbox, "needs bubblewrap, xdg-dbus-proxy and python3-dbus, and user namespaces"))
  func queryItemsLooksAtADescriptorWithoutSharingIt() throws {
    let run = try app(["--make", "/tmp/n.txt", "hello", "query", "fd:/tmp/n.txt=n.txt", "text:hi"])
    let line = try #require(run.lines.first { $0.hasPrefix("services: ") }, "\(run.all)")
    let services = try JSONSerialization.jsonObject(with: Data(line.dropFirst(10).utf8)) as? [String]
    #expect(services?.contains("com.example.keeper") == true)
    #expect(copiesLeft.isEmpty)
  }

  @Test(.enabled(if: canSandbox, "needs bubblewrap, xdg-dbus-proxy and python3-dbus, and user namespaces"))
  func theCopyIsGoneAfterTheServiceIsKilled() throws {
    let run = try app(["--make", "/tmp/a.txt", "a", "share", "com.example.crasher", "fd:/tmp/a.txt=a.txt"])
    let response = try #require(Self.response(run.lines), "\(run.all)")
    #expect(response.code == 2)
    #expect(response.results["outcome"] as? String == "failed")
    #expect(copiesLeft.isEmpty)
  }

  @Test(
    .enabled(if: hasDocumentPortal, "needs xdg-document-portal (xdg-desktop-portal), fuse3 and /dev/fuse"))
  func theDocumentPortalExportsAFileOfTheAppsDataWithoutACopy() throws {
    // ~/.var/app/ID is the same folder inside and out, as with Flatpak: the portal can check it.
    let file = "\(appData)/data/Report.txt"
    let run = try app(
      ["--make", file, "through the portal", "share", "com.example.keeper", "fd:\(file)=Quarterly.txt"],
      documentPortal: true)
    #expect(Self.response(run.lines)?.code == 0, "\(run.all)")
    #expect(kept("kept-Quarterly.txt") == "through the portal")
    // The plugin's file is the portal's, not a copy: its sandbox binds the host's link as the file
    // it leads to, in the portal's mount, whose device is not the test tree's, where a copy
    // would be.
    let device = try #require(kept("device-Quarterly.txt"))
    let tree = try FileManager.default.attributesOfItem(atPath: desktop.root)[.systemNumber] as? Int
    #expect(Int(device) != nil && Int(device) != tree, "\(device) \(String(describing: tree))")
    #expect(copiesLeft.isEmpty)
  }

  // MARK: The examples

  static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("examples/SandboxedApp").path

  /// The examples of `examples/SandboxedApp`, in Python and in C (GIO's GDBusProxy and
  /// GUnixFDList), run as the sandboxed app: what they document works.
  @Test(
    .enabled(if: canSandbox && installed("gcc"), "needs the sandbox, gcc and GIO's headers (libglib2.0-dev)"))
  func theExamplesShareAFileFromTheSandbox() throws {
    let built = "\(desktop.root)/example"
    try FileManager.default.createDirectory(atPath: built, withIntermediateDirectories: true)
    let flags = try CapturedRun.run(
      ["pkg-config", "--cflags", "--libs", "gio-2.0", "gio-unix-2.0"].map { Array($0.utf8) },
      environment: ["PATH": "/usr/bin:/bin"])
    let compile = try CapturedRun.run(
      (["gcc", "-Wall", "-Wextra", "-Werror", "\(Self.examples)/share_file.c", "-o", "\(built)/share_file"]
        + String(decoding: flags.standardOutput, as: UTF8.self).split(separator: " ").map {
          $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }.filter { !$0.isEmpty }).map { Array($0.utf8) },
      environment: ["PATH": "/usr/bin:/bin"])
    try #require(compile.status == 0, "\(String(decoding: compile.standardError, as: UTF8.self))")
    try FileManager.default.copyItem(
      atPath: "\(Self.examples)/share_file.py", toPath: "\(built)/share_file.py")
    try FileManager.default.createDirectory(atPath: appData, withIntermediateDirectories: true)
    try "made in the sandbox".write(toFile: "\(appData)/Diary.txt", atomically: true, encoding: .utf8)
    for program in [["/app/share_file"], [Self.python, "/app/share_file.py"]] {
      let run = try app(
        ["\(appData)/Diary.txt", "com.example.keeper"], appFolder: built, program: program)
      #expect(
        run.lines.contains { $0.hasPrefix("completed: service com.example.keeper, request ") },
        "\(program): \(run.all)")
      #expect(kept("kept-Diary.txt") == "made in the sandbox")
    }
  }

  // MARK: The share sheet

  @Test(
    .enabled(if: canDriveSheet, "needs bubblewrap, xdg-dbus-proxy, Xvfb, xdotool, python3-dbus and pyatspi"))
  func theSheetNamesTheAppLeavesOutItsOwnServicesAndAnswersWithTheFourResults() throws {
    let run = try app(
      ["--make", "/tmp/n.txt", "hello", "picker", "fd:/tmp/n.txt=Notes.txt"],
      sheet: [
        "wait-label", "Share from Example Notes", "services", "press", "Keeper", "wait-label",
        "Shared with Keeper",
        "key", "Escape",
      ])
    let services = run.lines.first { $0.hasPrefix("services: ") }
    // Its own (by XDGShareApplication, by its app id) left out.
    #expect(services == #"services: ["Crasher", "Keeper", "Mailer"]"#, "\(run.all)")
    let response = try #require(Self.response(run.lines), "\(run.all)")
    #expect(response.code == 0)
    #expect(response.results["outcome"] as? String == "completed")
    #expect(response.results["service"] as? String == "com.example.keeper")
    #expect(response.results["returned"] as? [Any] != nil)
    let request = try #require(response.results["request"] as? String)
    #expect(
      history.contains { $0["id"] as? String == request && $0["caller"] as? String == "org.example.Notes" })
    #expect(kept("kept-Notes.txt") == "hello")
    #expect(copiesLeft.isEmpty)
  }

  @Test(
    .enabled(if: canDriveSheet, "needs bubblewrap, xdg-dbus-proxy, Xvfb, xdotool, python3-dbus and pyatspi"),
    arguments: [
      (#"{"exclude": ["com.example.mailer", "com.example.crasher"]}"#, #"services: ["Keeper"]"#),
      (
        #"{"include": ["com.example.mailer", "com.example.notes-share"]}"#,
        #"services: ["Mailer", "Notes Inbox"]"#
      ),
      (#"{"kinds": ["action"]}"#, #"actions: ["Translate"]"#),
      (
        #"{"kinds": ["share"], "exclude": ["com.example.crasher"], "title": "Shopping list", "modal": true}"#,
        #"services: ["Keeper", "Mailer"]"#
      ),
    ])
  func whatTheCallerAsksChangesWhatTheSheetShows(_ options: String, _ services: String) throws {
    var steps = [
      "wait-label", "Share from Example Notes", services.hasPrefix("actions") ? "actions" : "services",
    ]
    if options.contains("title") { steps += ["wait-label", "Shopping list"] }
    let run = try app(
      ["--make", "/tmp/n.txt", "hello", "picker", "--options", options, "fd:/tmp/n.txt=Notes.txt"],
      sheet: steps + ["key", "Escape"])
    #expect(run.lines.contains(services), "\(run.all)")
    let response = try #require(Self.response(run.lines), "\(run.all)")
    #expect(response.code == 1)
    #expect(response.results["outcome"] as? String == "cancelled")
    // Cancelled: the copy is gone all the same.
    #expect(copiesLeft.isEmpty)
    #expect(received == nil)
  }

  @Test(
    .enabled(if: canDriveSheet, "needs bubblewrap, xdg-dbus-proxy, Xvfb, xdotool, python3-dbus and pyatspi"))
  func aPreviewTheCallerGivesIsShown() throws {
    // A text has no thumbnail of its own: the picture is the caller's.
    let run = try app(
      ["--png", "/tmp/cover.png", "picker", "--options", #"{"preview": "/tmp/cover.png"}"#, "text:Hello"],
      sheet: ["wait-image", "Preview", "key", "Escape"])
    #expect(Self.response(run.lines)?.code == 1, "\(run.all)")
  }

  @Test(
    .enabled(if: canSandbox, "needs bubblewrap, xdg-dbus-proxy and python3-dbus, and user namespaces"),
    arguments: [
      (#"{"kinds": ["share", "everything"]}"#, "options.kinds: expected share or action, found 'everything'"),
      (#"{"title": ["a"]}"#, "options.title: expected type 's', found 'as'"),
    ])
  func optionsOfTheWrongTypeAreNamedInTheError(_ options: String, _ message: String) throws {
    let run = try app([
      "--make", "/tmp/n.txt", "hello", "picker", "--options", options, "fd:/tmp/n.txt=n.txt",
    ])
    #expect(run.lines.contains("error: org.freedesktop.DBus.Error.InvalidArgs: \(message)"), "\(run.all)")
    #expect(copiesLeft.isEmpty)
  }
}
