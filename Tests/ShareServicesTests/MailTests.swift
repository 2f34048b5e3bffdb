import Foundation
import ShareTestSupport
import Testing

/// Mail, with a stand-in `xdg-email` that records its argv byte for byte.
@Suite struct MailTests {
  let desktop: TemporaryDesktop
  let fakes: FakePrograms
  let id = ServiceBundles.mail

  init() throws {
    desktop = try TemporaryDesktop()
    fakes = try FakePrograms(desktop: desktop)
    try desktop.installServices([id])
  }

  func run(_ attachments: [RequestAttachment]) throws -> ServiceRun {
    try ServiceRunner.run(id, attachments, on: desktop, environment: ["PATH": fakes.path])
  }

  @Test func filesAreAttachedAndTextsAndLinksGoInTheBody() throws {
    try fakes.install("xdg-email")
    let paths = try HostileNames.write(on: desktop)
    let text = "Look: $(rm -rf ~) `id` 'q'\nsecond line"
    let run = try run(paths.map { .file($0) } + [.text(text), .link("https://example.org/a?b=1&c")])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    var expected: [[UInt8]] = [
      "--utf8", "--subject", "$(touch pwned) `x` 'q' \"d\";|&.png, new\\nline.txt and 5 more",
    ]
    .map { Array($0.utf8) }
    expected += [Array("--body".utf8), Array((text + "\n\nhttps://example.org/a?b=1&c\n").utf8)]
    for path in paths { expected += [Array("--attach".utf8), path] }
    #expect(try fakes.arguments("xdg-email") == expected)
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.files)/pwned"))
  }

  @Test func oneFileGivesTheSubjectAndNoBody() throws {
    try fakes.install("xdg-email")
    let path = try desktop.writeFile(named: "-report.pdf", contents: "%PDF")
    let run = try run([.file(path)])
    #expect(run.completed)
    #expect(
      try fakes.arguments("xdg-email")
        == ["--utf8", "--subject", "-report.pdf", "--attach", path].map { Array($0.utf8) })
  }

  @Test func noMailProgramIsAClearMessage() throws {
    try fakes.install("xdg-email", body: "exit 3")
    let run = try run([.text("hello")])
    #expect(run.cancelMessage == "No mail program is set up on this computer")
    #expect(run.cancelCode == 3)
  }

  @Test func foldersCannotBeAttached() throws {
    try fakes.install("xdg-email")
    try FileManager.default.createDirectory(
      atPath: "\(desktop.files)/Photos", withIntermediateDirectories: true)
    let run = try run([.file("\(desktop.files)/Photos")])
    #expect(run.cancelMessage == "Photos is a folder or a special file; only files can be attached to a mail")
    #expect(fakes.callCount("xdg-email") == 0)
  }

  @Test func aComposerStillOpenCompletesTheRequest() throws {
    // Thunderbird started by xdg-email outside GNOME and KDE stays in the foreground.
    try fakes.install("xdg-email", body: "exec sleep 60")
    let started = Date()
    let run = try ServiceRunner.run(id, [.text("hi")], on: desktop, environment: ["PATH": fakes.path])
    #expect(run.completed)
    #expect(Date().timeIntervalSince(started) < 30)
  }

  @Test func xdgShareSendsEndToEnd() throws {
    try fakes.install("xdg-email")
    let path = try desktop.writeFile(named: "photo.png", contents: "png")
    let result = try Tool.run(
      ["--service", id, "--text", "hi", "--", path], on: desktop, environment: ["PATH": fakes.path])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      try fakes.arguments("xdg-email")
        == ["--utf8", "--subject", "photo.png", "--body", "hi\n", "--attach", path].map { Array($0.utf8) })
  }
}
