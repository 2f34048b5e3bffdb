import Foundation
import ShareCore
import SharePOSIX
import ShareTestSupport
import Testing

/// A web page's `navigator.share` in real browsers: Debian's Chromium (driven by Selenium and
/// chromedriver) and Firefox ESR (through its WebDriver BiDi), with the extension of
/// `data/browser-extension` loaded unpacked, the host's manifest where `xdg-share register` wrote
/// it, a page served on 127.0.0.1, a real click; and the real share sheet on a virtual display,
/// driven through AT-SPI (`Tests/SheetTests/Driver/sheet_driver.py`).
@Suite(.serialized) struct BrowserTests {
  static let python = "/usr/bin/python3"
  static let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Driver/web_driver.py"
  ).path
  static let site = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Driver/site"
  ).path
  static let sheetDriver = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("SheetTests/Driver/sheet_driver.py").path
  static let extensionFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/browser-extension")
    .path

  static func installed(_ program: String) -> Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/\(program)")
  }

  /// What the tests need of the machine, besides the browser.
  static let canDrive: Bool = {
    guard ["Xvfb", "dbus-run-session", "xdotool"].allSatisfy(installed) else { return false }
    let check = try? CapturedRun.run(
      [python, "-c", "import pyatspi, selenium, websocket"].map { Array($0.utf8) },
      environment: ["PATH": "/usr/bin:/bin"])
    return check?.status == 0
  }()
  static let hasChromium = canDrive && installed("chromium") && installed("chromedriver")
  static let hasFirefox = canDrive && installed("firefox-esr")

  let desktop: TemporaryDesktop
  let display: VirtualDisplay

  init() throws {
    desktop = try TemporaryDesktop()
    display = try VirtualDisplay(firstNumber: 600)
    for folder in ["icons", "glib-2.0"] {
      try FileManager.default.createSymbolicLink(
        atPath: "\(desktop.root)/system/\(folder)", withDestinationPath: "/usr/share/\(folder)")
    }
    // A service that keeps what it was given: the request, and a copy of each file (the host
    // removes its folder once the share has ended).
    try BundleFixture(
      id: "com.example.keeper", name: "Keeper", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      program: """
        #!/usr/bin/python3
        import json, os, shutil, sys, urllib.parse
        request = json.loads(sys.stdin.read())
        state = os.environ["XDG_STATE_HOME"]
        for item in request["inputItems"]:
            for attachment in item.get("attachments", []):
                if attachment.get("url", "").startswith("file://"):
                    path = urllib.parse.unquote(attachment["url"][len("file://"):])
                    shutil.copyfile(path, os.path.join(state, "kept-" + os.path.basename(path)))
        with open(os.path.join(state, "received.json"), "w") as out:
            json.dump(request, out)
        print(json.dumps({"complete": {}}), flush=True)

        """
    ).write(into: desktop.userExtensions)
    let register = try Tool.run(["register"], on: desktop)
    try #require(register.status == 0, "\(register.standardError)")
  }

  var environment: [String: String] {
    var environment = desktop.environment
    environment["DISPLAY"] = display.name
    environment["GDK_BACKEND"] = "x11"
    environment["GSK_RENDERER"] = "cairo"
    environment["GIO_USE_VFS"] = "local"
    environment["ADW_DISABLE_PORTAL"] = "1"
    environment["SHEET_DRIVER_TIMEOUT"] = "60"
    // The system's MIME database and icons for the sheet; the desktop's own services only.
    environment["XDG_DATA_DIRS"] = "\(desktop.root)/system:/usr/share"
    return environment
  }

  /// What the web driver printed: `probe: {...}` or `outcome: {...}`, by its first word.
  struct Printed {
    var lines: [String]
    var all: String

    func object(_ key: String) -> [String: Any]? {
      guard let line = lines.first(where: { $0.hasPrefix("\(key): ") }) else { return nil }
      return try? JSONSerialization.jsonObject(with: Data(line.dropFirst(key.count + 2).utf8))
        as? [String: Any]
    }
  }

  /// Runs the web driver with `step` in `browser`; with `sheet` steps, under the sheet driver,
  /// which drives the sheet the page opens.
  func drive(_ browser: String, _ step: [String], sheet: [String]? = nil) throws -> Printed {
    let web = [Self.python, Self.driver, browser, Self.extensionFolder, Self.site] + step
    let command =
      if let sheet {
        ["dbus-run-session", "--", Self.python, Self.sheetDriver, "--launch"] + web + ["--then"] + sheet
      } else {
        ["dbus-run-session", "--"] + web
      }
    let run = try CapturedRun.run(command.map { Array($0.utf8) }, environment: environment)
    let output = String(decoding: run.standardOutput, as: UTF8.self)
    // Under the sheet driver, the web driver's lines come as `output: …`.
    let lines = output.split(separator: "\n").map {
      $0.hasPrefix("output: ") ? String($0.dropFirst(8)) : String($0)
    }
    return Printed(lines: lines, all: output + String(decoding: run.standardError, as: UTF8.self))
  }

  var received: [String: Any]? {
    FileManager.default.contents(atPath: "\(desktop.containerState(of: "com.example.keeper"))/received.json")
      .flatMap {
        try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
      }
  }

  var attachments: [[String: Any]] {
    ((received?["inputItems"] as? [[String: Any]])?.first?["attachments"] as? [[String: Any]]) ?? []
  }

  // MARK: Chromium

  @Test(
    .enabled(if: hasChromium, "needs chromium, chromium-driver, python3-selenium, python3-pyatspi and Xvfb"))
  func chromiumFindsTheAPIAndItsRules() throws {
    let printed = try drive("chromium", ["probe"])
    let probe = try #require(printed.object("probe"), "\(printed.all)")
    #expect(probe["foundAtStart"] as? String == "function")
    #expect(probe["onPrototype"] as? Bool == true)
    #expect(probe["withoutClick"] as? String == "NotAllowedError")
    #expect(probe["filesNotFiles"] as? String == "TypeError")
    #expect(
      probe["canShare"] as? [String: Bool] == [
        "empty": false, "nothing": false, "url": true, "relative url": true, "ftp url": false,
        "javascript url": false, "bad url": false, "title": true, "text": true, "no files": false,
        "no files with text": true, "png": true, "exe": false, "unknown member": false,
      ])
    #expect(received == nil)
  }

  @Test(
    .enabled(if: hasChromium, "needs chromium, chromium-driver, python3-selenium, python3-pyatspi and Xvfb"))
  func chromiumSharesALinkAndThePageLearnsItCompleted() throws {
    let printed = try drive(
      "chromium", ["click", "link"], sheet: ["wait-label", "wants to share", "press", "Keeper"])
    #expect(printed.object("outcome") as? [String: Bool] == ["resolved": true], "\(printed.all)")
    let texts = attachments.compactMap { $0["text"] as? String }
    let urls = attachments.compactMap { $0["url"] as? String }
    #expect(texts == ["Worth a read"])
    // Resolved against the page, as the spec says.
    #expect(
      urls.count == 1 && urls[0].hasPrefix("http://127.0.0.1:") && urls[0].hasSuffix("/article?id=7#top"),
      "\(urls)")
  }

  @Test(
    .enabled(if: hasChromium, "needs chromium, chromium-driver, python3-selenium, python3-pyatspi and Xvfb"))
  func chromiumEscapeInTheSheetRejectsWithAbortError() throws {
    let printed = try drive(
      "chromium", ["click", "link"], sheet: ["wait-label", "wants to share", "key", "Escape"])
    let outcome = try #require(printed.object("outcome"), "\(printed.all)")
    #expect(outcome["name"] as? String == "AbortError")
    #expect(received == nil)
  }

  @Test(
    .enabled(if: hasChromium, "needs chromium, chromium-driver, python3-selenium, python3-pyatspi and Xvfb"))
  func chromiumSharesAFileWithItsBytesUnderASafeName() throws {
    let printed = try drive(
      "chromium", ["click", "file"], sheet: ["wait-label", "wants to share", "press", "Keeper"])
    #expect(printed.object("outcome") as? [String: Bool] == ["resolved": true], "\(printed.all)")
    #expect(attachments.compactMap { $0["name"] as? String } == ["notes_txt.png"])
    let bytes = FileManager.default.contents(
      atPath: "\(desktop.containerState(of: "com.example.keeper"))/kept-notes_txt.png")
    #expect(bytes == Data((0..<3000).map { UInt8(($0 * 7) % 256) }))
    // The private folder went with the request.
    let folders = try? FileManager.default.contentsOfDirectory(
      atPath: "\(desktop.root)/runtime/xdg-share/web-share")
    #expect(folders ?? [] == [])
  }

  /// A file of a type pages may not share, after a real click: `NotAllowedError`, as the Web
  /// Share spec and docs/web-share.md say (a `TypeError` is for data that is not valid).
  @Test(
    .enabled(if: hasChromium, "needs chromium, chromium-driver, python3-selenium, python3-pyatspi and Xvfb"))
  func chromiumAFileOfATypePagesMayNotShareIsNotAllowed() throws {
    let printed = try drive("chromium", ["click", "exe"])
    let outcome = try #require(printed.object("outcome"), "\(printed.all)")
    #expect(outcome["name"] as? String == "NotAllowedError", "\(outcome)")
    #expect(received == nil)
  }

  @Test(
    .enabled(if: hasChromium, "needs chromium, chromium-driver, python3-selenium, python3-pyatspi and Xvfb"))
  func chromiumOneShareAtATime() throws {
    let printed = try drive("chromium", ["click", "two"])
    let outcome = try #require(printed.object("outcome"), "\(printed.all)")
    #expect(outcome["name"] as? String == "InvalidStateError")
  }

  @Test(
    .enabled(if: hasChromium, "needs chromium, chromium-driver, python3-selenium, python3-pyatspi and Xvfb"))
  func chromiumWithoutTheHostRejectsWithDataError() throws {
    #expect(try Tool.run(["unregister"], on: desktop).status == 0)
    let printed = try drive("chromium", ["click", "link"])
    let outcome = try #require(printed.object("outcome"), "\(printed.all)")
    #expect(outcome["name"] as? String == "DataError")
    #expect((outcome["message"] as? String)?.contains("xdg-share register") == true, "\(outcome)")
  }

  // MARK: Firefox

  @Test(.enabled(if: hasFirefox, "needs firefox-esr, python3-selenium (websocket), python3-pyatspi and Xvfb"))
  func firefoxFindsTheAPIAndItsRules() throws {
    let printed = try drive("firefox", ["probe"])
    let probe = try #require(printed.object("probe"), "\(printed.all)")
    #expect(probe["foundAtStart"] as? String == "function")
    #expect(probe["withoutClick"] as? String == "NotAllowedError")
    #expect((probe["canShare"] as? [String: Bool])?["url"] == true)
    #expect((probe["canShare"] as? [String: Bool])?["exe"] == false)
  }

  @Test(.enabled(if: hasFirefox, "needs firefox-esr, python3-selenium (websocket), python3-pyatspi and Xvfb"))
  func firefoxAFileOfATypePagesMayNotShareIsNotAllowed() throws {
    let printed = try drive("firefox", ["click", "exe"])
    let outcome = try #require(printed.object("outcome"), "\(printed.all)")
    #expect(outcome["name"] as? String == "NotAllowedError", "\(outcome)")
    #expect(received == nil)
  }

  @Test(.enabled(if: hasFirefox, "needs firefox-esr, python3-selenium (websocket), python3-pyatspi and Xvfb"))
  func firefoxSharesALinkAndThePageLearnsItCompleted() throws {
    let printed = try drive(
      "firefox", ["click", "link"], sheet: ["wait-label", "wants to share", "press", "Keeper"])
    #expect(printed.object("outcome") as? [String: Bool] == ["resolved": true], "\(printed.all)")
    #expect(attachments.compactMap { $0["url"] as? String }.first?.hasSuffix("/article?id=7#top") == true)
  }
}
