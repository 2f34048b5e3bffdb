import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// QR Code, with the real qrencode and a stand-in image viewer.
@Suite(
  .enabled(if: FakePrograms.isInstalled("qrencode"), "qrencode is not installed: apt-get install qrencode"))
struct QRCodeTests {
  let desktop: TemporaryDesktop
  let fakes: FakePrograms
  let id = ServiceBundles.qrCode

  init() throws {
    desktop = try TemporaryDesktop()
    fakes = try FakePrograms(desktop: desktop)
    try desktop.installServices([id])
    try fakes.linkReal("qrencode")
  }

  func run(_ attachments: [RequestAttachment]) throws -> ServiceRun {
    try ServiceRunner.run(id, attachments, on: desktop, environment: ["PATH": fakes.isolatedPath])
  }

  /// The text the QR code at `path` holds, read back by zbarimg.
  func decode(_ path: String) throws -> String {
    let run = try CapturedRun.run(
      ["zbarimg", "--raw", "-q", path].map { Array($0.utf8) },
      environment: ProcessInfo.processInfo.environment)
    #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
    var output = run.standardOutput
    if output.last == UInt8(ascii: "\n") { output.removeLast() }
    return String(decoding: output, as: UTF8.self)
  }

  @Test func aLinkBecomesAPNGOpenedInTheViewer() throws {
    try fakes.install("xdg-open")
    let run = try run([.link("https://example.org/path?q=1&r=ä")])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    let image = try #require(run.returned?.first?.path)
    #expect(image.hasPrefix("\(desktop.root)/cache/xdg-share/qr/"))
    #expect(image.hasSuffix(".png"))
    #expect(run.returned?.first?.typeIdentifiers == ["public.png", "image/png"])
    #expect(try fakes.arguments("xdg-open") == [Array(image.utf8)])
    let bytes = try Bytes.contents(Array(image.utf8))
    #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    // Nothing but the image is left in the cache folder.
    #expect(try Bytes.names(in: "\(desktop.root)/cache/xdg-share/qr").count == 1)
  }

  @Test(
    .enabled(if: FakePrograms.isInstalled("zbarimg"), "zbarimg is not installed: apt-get install zbar-tools"))
  func theCodeDecodesToWhatWasShared() throws {
    try fakes.install("xdg-open")
    for text in ["https://example.org/path?q=1&r=%C3%A4", "-v --help $(id) `x`\nGrüße 😀"] {
      let attachment: RequestAttachment = text.hasPrefix("https:") ? .link(text) : .text(text)
      let run = try run([attachment])
      let image = try #require(run.returned?.first?.path, "\(run.cancelMessage ?? "")")
      #expect(try decode(image) == text)
    }
  }

  /// A browser shares a page as its address and its title: the code holds the address.
  @Test(
    .enabled(if: FakePrograms.isInstalled("zbarimg"), "zbarimg is not installed: apt-get install zbar-tools"))
  func aPageTitleBesideTheLinkIsLeftOut() throws {
    try fakes.install("xdg-open")
    let run = try run([.text("Example Domain"), .link("https://example.org/")])
    let image = try #require(run.returned?.first?.path, "\(run.cancelMessage ?? "")")
    #expect(try decode(image) == "https://example.org/")
  }

  @Test func gioOpensTheImageWhereXdgOpenIsMissing() throws {
    try fakes.install("gio")
    let run = try run([.text("hello")])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    let image = try #require(run.returned?.first?.path)
    #expect(try fakes.arguments("gio") == [Array("open".utf8), Array(image.utf8)])
  }

  @Test func longTextsAndSeveralItemsAreRefusedWithAMessage() throws {
    try fakes.install("xdg-open")
    let long = try run([.text(String(repeating: "x", count: 1001))])
    #expect(long.cancelMessage == "The text is too long for a QR code: 1001 bytes, at most 1000")
    let two = try run([.text("a"), .text("b")])
    #expect(two.cancelMessage == "A QR code holds one link or one short text; 2 items were shared")
    let file = try run([.file(try desktop.writeFile(named: "a.txt", contents: "a"))])
    #expect(file.cancelMessage == "A QR code holds a link or a short text, not a file such as a.txt")
    #expect(fakes.callCount("xdg-open") == 0)
  }

  @Test func aViewerThatFailsIsAClearMessage() throws {
    try fakes.install("xdg-open", body: "exit 4")
    let run = try run([.text("hello")])
    let message = try #require(run.cancelMessage)
    #expect(
      message.hasPrefix(
        "No image viewer could open the QR code (xdg-open failed with status 4); it is saved as "))
  }

  /// SIGTERM to the group while qrencode runs: everything stops at once, nothing is left.
  @Test func sigtermStopsTheServiceAndWhatItStarted() throws {
    try FileManager.default.removeItem(atPath: "\(fakes.directory)/qrencode")
    try fakes.install(
      "qrencode", body: "printf partial > \"$2\"; echo $$ > \"$records/started\"; exec sleep 60")
    try fakes.install("xdg-open")
    let bundle = desktop.bundle(id)
    let child = try ChildProcess.spawn(
      [Array("\(bundle)/share".utf8)],
      environment: ServiceRunner.environment(id, on: desktop, extra: ["PATH": fakes.isolatedPath]),
      workingDirectory: Array(bundle.utf8), standardInput: .pipe, standardOutput: .pipe, standardError: .null,
      newProcessGroup: true)
    try child.standardInput?.write(try ServiceRunner.request(id, [.text("hello")]))
    child.standardInput?.close()
    let started = "\(fakes.records)/qrencode/started"
    // The shell creates the file before `echo` writes the number into it: wait for the number.
    func startedPID() -> Int32? {
      (try? String(contentsOfFile: started, encoding: .utf8)).flatMap {
        Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
    }
    let deadline = Date().addingTimeInterval(10)
    while startedPID() == nil, Date() < deadline { usleep(10_000) }
    let qrencode = try #require(startedPID())
    let stopped = Date()
    child.signal(Signal.terminate)
    let termination = child.wait(timeout: 5)
    if termination == nil { child.signal(Signal.kill) }
    // Either the watcher ends the process (status 143) or, as qrencode dies of the same signal,
    // the request ends first; both are prompt and leave nothing behind.
    #expect(termination != nil)
    #expect(Date().timeIntervalSince(stopped) < 2)
    #expect(try Bytes.names(in: "\(desktop.root)/cache/xdg-share/qr").isEmpty)
    #expect(fakes.callCount("xdg-open") == 0)
    #expect(Self.hasEnded(qrencode), "qrencode (pid \(qrencode)) outlived the request")
  }

  /// Whether process `pid` is gone or a zombie waiting to be reaped.
  static func hasEnded(_ pid: Int32) -> Bool {
    let deadline = Date().addingTimeInterval(2)
    while Date() < deadline {
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
      // The state follows the parenthesised command name.
      if let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)] == "Z" { return true }
      usleep(20_000)
    }
    return false
  }
}
