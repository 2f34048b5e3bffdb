import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// Copy to Clipboard with stand-in clipboard programs: argv and what they read.
@Suite struct ClipboardTests {
  let desktop: TemporaryDesktop
  let fakes: FakePrograms
  let id = ServiceBundles.clipboard

  init() throws {
    desktop = try TemporaryDesktop()
    fakes = try FakePrograms(desktop: desktop)
    try desktop.installServices([id])
  }

  func run(_ attachments: [RequestAttachment], session: [String: String]) throws -> ServiceRun {
    try ServiceRunner.run(
      id, attachments, on: desktop, environment: session.merging(["PATH": fakes.isolatedPath]) { $1 })
  }

  @Test func waylandGetsTextThroughWlCopy() throws {
    try fakes.install("wl-copy", body: FakePrograms.recordInput)
    try fakes.install("xclip", body: FakePrograms.recordInput)
    let run = try run(
      [.text("Grüße\n$(id)"), .link("https://example.org/?a=1")],
      session: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(try fakes.arguments("wl-copy") == ["--type", "text/plain;charset=utf-8"].map { Array($0.utf8) })
    #expect(try fakes.input("wl-copy") == Array("Grüße\n$(id)\nhttps://example.org/?a=1".utf8))
    #expect(fakes.callCount("xclip") == 0)
  }

  @Test func filesAreAURIListWithEveryNameExact() throws {
    try fakes.install("wl-copy", body: FakePrograms.recordInput)
    let paths = try HostileNames.write(on: desktop)
    let run = try run(
      paths.map { .file($0) } + [.link("https://example.org/")], session: ["WAYLAND_DISPLAY": "w"])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(try fakes.arguments("wl-copy") == ["--type", "text/uri-list"].map { Array($0.utf8) })
    let expected = (paths.map(Bytes.fileURL) + ["https://example.org/"]).map { $0 + "\r\n" }.joined()
    #expect(try fakes.input("wl-copy") == Array(expected.utf8))
    let lines = String(decoding: try fakes.input("wl-copy"), as: UTF8.self).split(separator: "\r\n")
    #expect(lines.prefix(paths.count).map { Bytes.percentDecoded(String($0.dropFirst(7))) } == paths)
  }

  @Test func x11UsesXclipElseXsel() throws {
    try fakes.install("xsel", body: FakePrograms.recordInput)
    let withXsel = try run([.text("one")], session: ["DISPLAY": ":5"])
    #expect(withXsel.completed)
    #expect(try fakes.arguments("xsel") == ["--clipboard", "--input"].map { Array($0.utf8) })
    #expect(try fakes.input("xsel") == Array("one".utf8))
    try fakes.install("xclip", body: FakePrograms.recordInput)
    let file = try desktop.writeFile(named: "a b.txt", contents: "a")
    let withXclip = try run([.file(file)], session: ["DISPLAY": ":5"])
    #expect(withXclip.completed)
    #expect(
      try fakes.arguments("xclip")
        == ["-selection", "clipboard", "-target", "text/uri-list", "-in"].map { Array($0.utf8) })
    #expect(try fakes.input("xclip") == Array("file://\(desktop.files)/a%20b.txt\r\n".utf8))
    #expect(fakes.callCount("xsel") == 1)
  }

  @Test func problemsAreClearMessages() throws {
    let noSession = try run([.text("x")], session: [:])
    #expect(
      noSession.cancelMessage == "No graphical session to copy to: neither WAYLAND_DISPLAY nor DISPLAY is set"
    )
    let noProgram = try run([.text("x")], session: ["WAYLAND_DISPLAY": "w"])
    #expect(noProgram.cancelMessage == "This Wayland session has no clipboard program: install wl-clipboard")
    try fakes.install("wl-copy", body: "exit 1")
    let failing = try run([.text("x")], session: ["WAYLAND_DISPLAY": "w"])
    #expect(failing.cancelMessage == "wl-copy could not copy to the clipboard (status 1)")
    let file = try desktop.writeFile(named: "a.txt", contents: "a")
    let mixed = try run([.file(file), .text("x")], session: ["WAYLAND_DISPLAY": "w"])
    #expect(
      mixed.cancelMessage
        == "The clipboard holds either text or files, not both: copy the text and the files separately")
  }
}

/// Copy to Clipboard with the real xclip on an X server of the test's own.
@Suite(
  .enabled(
    if: VirtualDisplay.isAvailable && FakePrograms.isInstalled("xclip"),
    "Xvfb or xclip is not installed: apt-get install xvfb xclip"))
struct X11ClipboardTests {
  let desktop: TemporaryDesktop
  let id = ServiceBundles.clipboard

  init() throws {
    desktop = try TemporaryDesktop()
    try desktop.installServices([id])
  }

  /// What the clipboard of `display` holds as `target`.
  func paste(_ target: String, display: String) throws -> [UInt8] {
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = display
    environment["WAYLAND_DISPLAY"] = nil
    let run = try CapturedRun.run(
      ["xclip", "-selection", "clipboard", "-out", "-target", target].map { Array($0.utf8) },
      environment: environment)
    #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
    return run.standardOutput
  }

  @Test func filesArePastedAsAURIList() throws {
    let server = try VirtualDisplay()
    let paths = try HostileNames.write(on: desktop)
    let run = try ServiceRunner.run(
      id, paths.map { .file($0) }, on: desktop, environment: ["DISPLAY": server.display], stopLeftovers: false
    )
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    let expected = paths.map { Bytes.fileURL($0) + "\r\n" }.joined()
    #expect(try paste("text/uri-list", display: server.display) == Array(expected.utf8))
    let targets = String(decoding: try paste("TARGETS", display: server.display), as: UTF8.self)
    #expect(targets.contains("text/uri-list"))
  }

  /// Through xdg-share: the request ends while xclip stays to serve the clipboard.
  @Test func xdgShareCopiesEndToEnd() throws {
    let server = try VirtualDisplay()
    let started = Date()
    let result = try Tool.run(
      ["--service", id, "--url", "https://example.org/a?b=1"], on: desktop,
      environment: ["DISPLAY": server.display])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(Date().timeIntervalSince(started) < 20)
    #expect(try paste("UTF8_STRING", display: server.display) == Array("https://example.org/a?b=1".utf8))
  }

  @Test func textIsPastedAsUTF8() throws {
    let server = try VirtualDisplay()
    let text = "Grüße 😀\n$(id) `x`\n-leading"
    let run = try ServiceRunner.run(
      id, [.text(text)], on: desktop, environment: ["DISPLAY": server.display], stopLeftovers: false)
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(try paste("UTF8_STRING", display: server.display) == Array(text.utf8))
  }
}
