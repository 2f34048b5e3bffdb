import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// Save to Folder's `folder` configuration item, and Copy to Clipboard's images.
@Suite struct SaveToFolderSettingsTests {
  let desktop: TemporaryDesktop
  let id = ServiceBundles.saveToFolder

  init() throws {
    desktop = try TemporaryDesktop()
    try desktop.installServices([id])
  }

  func run(folder: String?) throws -> ServiceRun {
    let file = try desktop.writeFile(named: "a.txt", contents: "a")
    return try ServiceRunner.run(
      id, [.file(file)], on: desktop, configuration: folder.map { ["folder": $0] })
  }

  @Test func theChosenFolderIsUsedAndNeverCreated() throws {
    let missing = try run(folder: "~/Chosen")
    #expect(
      missing.cancelMessage
        == "The folder ~/Chosen chosen in the settings does not exist; choose another: "
        + "xdg-share configure org.xdgshare.save-to-folder")
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.root)/home/Chosen"))
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/home/Chosen", withIntermediateDirectories: true)
    let run = try run(folder: "~/Chosen")
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(run.returned?.map(\.path) == ["\(desktop.root)/home/Chosen/a.txt"])
  }

  @Test func theChosenFolderWinsOverTheConfiguredOne() throws {
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/config/xdg-share", withIntermediateDirectories: true)
    try "[Save to Folder]\nFolder=/nonexistent\n".write(
      toFile: "\(desktop.root)/config/xdg-share/save-to-folder.ini", atomically: true, encoding: .utf8)
    let run = try run(folder: desktop.files)
    #expect(run.returned?.map(\.path) == ["\(desktop.files)/a (2).txt"])
  }

  /// The sheet's Default, left as it is, stands for today's folder: `Folder=`, else the desktop's
  /// Public folder under whatever name it has.
  @Test func theDefaultKeepsTodaysFolder() throws {
    let plist = try String(
      contentsOfFile: "\(ServiceBundles.source)/\(id).shareext/Info.plist", encoding: .utf8)
    #expect(plist.contains("<key>Default</key>            <string>~/Public</string>"))
    try #"XDG_PUBLICSHARE_DIR="$HOME/Öffentlich""#.write(
      toFile: "\(desktop.root)/config/user-dirs.dirs", atomically: true, encoding: .utf8)
    for folder in ["~/Public", "", nil] {
      let run = try run(folder: folder)
      #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
      #expect(run.returned?.first?.path?.hasPrefix("\(desktop.root)/home/Öffentlich/a") == true)
    }
  }
}

/// Copy to Clipboard with one image: image data, not a list of URIs.
@Suite struct ClipboardImageTests {
  let desktop: TemporaryDesktop
  let fakes: FakePrograms
  let id = ServiceBundles.clipboard

  init() throws {
    desktop = try TemporaryDesktop()
    fakes = try FakePrograms(desktop: desktop)
    try desktop.installServices([id])
  }

  @Test func aJPEGGoesAsItsOwnTypeAndTwoImagesAsURIs() throws {
    try fakes.install("wl-copy", body: FakePrograms.recordInput)
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8)
    let path = try desktop.writeFile(named: Array("photo.jpg".utf8), contents: jpeg)
    let environment = ["WAYLAND_DISPLAY": "w", "PATH": fakes.isolatedPath]
    let run = try ServiceRunner.run(
      id, [.file(path, typeIdentifiers: ["public.jpeg", "public.image", "image/jpeg"])], on: desktop,
      environment: environment)
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(try fakes.arguments("wl-copy") == ["--type", "image/jpeg"].map { Array($0.utf8) })
    #expect(try fakes.input("wl-copy") == jpeg)
    let png = try desktop.writeFile(named: Array("b.png".utf8), contents: tinyPNG)
    let two = try ServiceRunner.run(id, [.file(png), .file(path)], on: desktop, environment: environment)
    #expect(two.completed)
    #expect(try fakes.arguments("wl-copy", call: 2) == ["--type", "text/uri-list"].map { Array($0.utf8) })
  }
}

/// The real xclip on an X server of the test's own.
@Suite(
  .enabled(
    if: VirtualDisplay.isAvailable && FakePrograms.isInstalled("xclip"),
    "Xvfb or xclip is not installed: apt-get install xvfb xclip"))
struct X11ClipboardImageTests {
  @Test func aPNGIsPastedAsImageData() throws {
    let desktop = try TemporaryDesktop()
    let id = ServiceBundles.clipboard
    try desktop.installServices([id])
    let server = try VirtualDisplay()
    // The host's types say nothing of an image: the PNG is known by its first bytes.
    let path = try desktop.writeFile(named: Array("shot one.png".utf8), contents: tinyPNG)
    let run = try ServiceRunner.run(
      id, [.file(path)], on: desktop, environment: ["DISPLAY": server.display], stopLeftovers: false)
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = server.display
    environment["WAYLAND_DISPLAY"] = nil
    func paste(_ target: String) throws -> [UInt8] {
      let run = try CapturedRun.run(
        ["xclip", "-selection", "clipboard", "-t", target, "-o"].map { Array($0.utf8) },
        environment: environment)
      #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
      return run.standardOutput
    }
    let targets = String(decoding: try paste("TARGETS"), as: UTF8.self).split(separator: "\n")
    #expect(targets.contains("image/png"))
    #expect(try paste("image/png") == tinyPNG)
  }
}
