import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// The pictures of the picker in `docs/images`, taken again when `XDG_SHARE_SHEET_SCREENSHOTS` names
/// the folder to write them to: `picker-light.png`, `picker-dark.png` and `direct-targets.png`; and,
/// for the notes of a change to the sheet's look, `bundled-services.png` (the services that come
/// with xdg-share, their own icons and descriptions) and `result-page.png` (what a service
/// returned: a file with a long path) and `binary-file.png` (bytes nothing recognises).
@Suite(
  .serialized,
  .enabled(
    if: ProcessInfo.processInfo.environment["XDG_SHARE_SHEET_SCREENSHOTS"] != nil
      && SheetHarness.missing.isEmpty,
    "set XDG_SHARE_SHEET_SCREENSHOTS=<folder> to take the pictures of docs/images"))
struct ScreenshotTests {
  @Test(arguments: [
    ("picker-light.png", "prefer-light", false), ("picker-dark.png", "prefer-dark", false),
    ("direct-targets.png", "prefer-light", true),
  ])
  func picker(file: String, scheme: String, withTargets: Bool) throws {
    let folder = try #require(ProcessInfo.processInfo.environment["XDG_SHARE_SHEET_SCREENSHOTS"])
    let desktop = try TemporaryDesktop(prefix: "xdg-share-sheet-pictures")
    try SheetHarness.prepare(desktop)
    let display = try VirtualDisplay(firstNumber: 150)
    let services = [
      ("org.example.mail", "Mail", "mail-message-new", "A new mail with the photo attached"),
      ("org.example.save", "Save to Folder", "document-save-as", "Copy it into your Public folder"),
      ("org.example.cloud", "Upload to Cloud", "folder-remote", "Upload it and copy the link"),
      ("org.example.phone", "Send to Phone", "phone", "Send it to your paired phone"),
      ("org.example.qr", "QR Code", "image-x-generic", "Show a link as a QR code"),
    ]
    for (id, name, icon, description) in services {
      try BundleFixture(
        id: id, name: name,
        ruleXML: BundleFixture.dictionary([
          ("NSExtensionActivationSupportsImageWithMaxCount", "<integer>5</integer>")
        ]),
        extraXML: """
          <key>CFBundleIconName</key><string>\(icon)</string>
          <key>XDGShareDescription</key><string>\(description)</string>
          """
      ).write(into: desktop.userExtensions)
    }
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/config/xdg-share", withIntermediateDirectories: true)
    try "[Services]\nPinned=org.example.cloud;\n".write(
      toFile: "\(desktop.root)/config/xdg-share/settings.ini", atomically: true, encoding: .utf8)
    if withTargets {
      // What Send to Phone, Mail and Save to Folder would publish (docs/direct-targets.md).
      let folder = "\(desktop.root)/state/xdg-share/targets"
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      for (id, targets) in [
        ("org.example.phone", #"[{"id": "p8", "title": "Pixel 8", "subtitle": "Phone", "icon": "phone"}]"#),
        (
          "org.example.mail",
          #"[{"id": "jana", "title": "Jana", "subtitle": "Mail", "icon": "avatar-default"}]"#
        ),
        (
          "org.example.save", #"[{"id": "pub", "title": "Public", "subtitle": "~/Public", "icon": "folder"}]"#
        ),
      ] {
        try #"{"targets": \#(targets)}"#.write(
          toFile: "\(folder)/\(id).json", atomically: true, encoding: .utf8)
      }
    }
    // A photo-like picture: a sky, a sun and a hill.
    let photo = desktop.files + "/Holiday at the lake.jpg"
    let drawn = try CapturedRun.run(
      [
        "convert", "-size", "1200x900", "gradient:#5aa0e6-#f4d9a8", "-fill", "#ffd84a", "-draw",
        "circle 850,250 850,150", "-fill", "#3f7d4e", "-draw", "ellipse 400,1000 900,300 0,360", photo,
      ].map { Array($0.utf8) }, environment: ProcessInfo.processInfo.environment)
    try #require(drawn.status == 0)
    let run = try desktop.runSheet(
      [photo], steps: ["services", "screenshot", "\(folder)/\(file)", "key", "Escape"], display: display,
      environment: ["ADW_DEBUG_COLOR_SCHEME": scheme])
    #expect(run.driverStatus == 0, "\(run.output)")
  }

  @Test func bundledServices() throws {
    let folder = try #require(ProcessInfo.processInfo.environment["XDG_SHARE_SHEET_SCREENSHOTS"])
    let desktop = try TemporaryDesktop(prefix: "xdg-share-sheet-pictures")
    try SheetHarness.prepare(desktop)
    let display = try VirtualDisplay(firstNumber: 150)
    for id in [
      "org.xdgshare.save-to-folder", "org.xdgshare.mail", "org.xdgshare.clipboard", "org.xdgshare.qr-code",
    ] {
      try SheetHarness.installBundled(id, into: desktop)
    }
    let notes = try desktop.writeFile(named: "notes.txt", contents: "call Jana back\n")
    let run = try desktop.runSheet(
      [notes], steps: ["services", "screenshot", "\(folder)/bundled-services.png", "key", "Escape"],
      display: display, environment: ["ADW_DEBUG_COLOR_SCHEME": "prefer-light"])
    #expect(run.driverStatus == 0, "\(run.output)")
  }

  @Test func resultPage() throws {
    let folder = try #require(ProcessInfo.processInfo.environment["XDG_SHARE_SHEET_SCREENSHOTS"])
    let desktop = try TemporaryDesktop(prefix: "xdg-share-sheet-pictures")
    try SheetHarness.prepare(desktop)
    let display = try VirtualDisplay(firstNumber: 150)
    let saved = desktop.files + "/Public/Pictures from the summer/Holiday at the lake (2).png"
    try FileManager.default.createDirectory(
      atPath: (saved as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(tinyPNG).write(to: URL(fileURLWithPath: saved))
    let url = URL(fileURLWithPath: saved).absoluteString
    try BundleFixture(
      id: "org.example.save", name: "Save to Folder",
      ruleXML: BundleFixture.dictionary([
        ("NSExtensionActivationSupportsImageWithMaxCount", "<integer>5</integer>")
      ]),
      extraXML: "<key>CFBundleIconName</key><string>document-save-as</string>",
      program: """
        #!/bin/sh
        cat > /dev/null
        echo '{"complete": {"returningItems": [{"attachments": [{"typeIdentifiers": ["public.png"], "url": "\(url)"}]}]}}'
        """
    ).write(into: desktop.userExtensions)
    let photo = desktop.files + "/Holiday at the lake.png"
    try Data(tinyPNG).write(to: URL(fileURLWithPath: photo))
    let run = try desktop.runSheet(
      [photo],
      steps: [
        "services", "press", "Save to Folder", "wait-label", "Shared with Save to Folder", "screenshot",
        "\(folder)/result-page.png", "key", "Escape",
      ], display: display, environment: ["ADW_DEBUG_COLOR_SCHEME": "prefer-light"])
    #expect(run.driverStatus == 0, "\(run.output)")
  }

  @Test func binaryFile() throws {
    let folder = try #require(ProcessInfo.processInfo.environment["XDG_SHARE_SHEET_SCREENSHOTS"])
    let desktop = try TemporaryDesktop(prefix: "xdg-share-sheet-pictures")
    try SheetHarness.prepare(desktop)
    let display = try VirtualDisplay(firstNumber: 150)
    try SheetHarness.installBundled("org.xdgshare.save-to-folder", into: desktop)
    let binary = desktop.files + "/handed-over"
    try Data((0..<2048).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }).write(
      to: URL(fileURLWithPath: binary))
    let run = try desktop.runSheet(
      [binary], steps: ["services", "screenshot", "\(folder)/binary-file.png", "key", "Escape"],
      display: display, environment: ["ADW_DEBUG_COLOR_SCHEME": "prefer-light"])
    #expect(run.driverStatus == 0, "\(run.output)")
  }
}
