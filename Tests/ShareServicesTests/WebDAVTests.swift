import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// Upload to WebDAV against a real WebDAV server (lighttpd with mod_webdav) on 127.0.0.1.
@Suite(
  .enabled(
    if: WebDAVServer.isAvailable,
    "lighttpd with mod_webdav is not installed: apt-get install lighttpd lighttpd-mod-webdav"))
struct WebDAVTests {
  let desktop: TemporaryDesktop
  let server: WebDAVServer
  let fakes: FakePrograms
  let id = ServiceBundles.webDAV

  init() throws {
    desktop = try TemporaryDesktop()
    fakes = try FakePrograms(desktop: desktop)
    server = try WebDAVServer(root: "\(desktop.root)/dav", state: "\(desktop.root)/dav-state")
    try desktop.installServices([id])
  }

  var configuration: String { "\(desktop.root)/config/xdg-share/webdav.ini" }

  func configure(_ lines: String, mode: Int = 0o600) throws {
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/config/xdg-share", withIntermediateDirectories: true)
    try ("[WebDAV]\n" + lines).write(toFile: configuration, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: configuration)
  }

  func configure(folder: String) throws {
    try configure("URL=\(server.baseURL)/\(folder)\nUser=\(server.user)\nPassword=\(server.password)\n")
  }

  func run(_ attachments: [RequestAttachment]) throws -> ServiceRun {
    try ServiceRunner.run(id, attachments, on: desktop, environment: ["PATH": fakes.path])
  }

  /// The hostile names, but Latin-1 without the byte 0xFF: lighttpd refuses paths holding bytes
  /// that can never occur in UTF-8 (0xC0, 0xC1, 0xF5–0xFF); ``aNameTheServerRefusesIsNamed()``.
  static let names = HostileNames.all.map { name in name.filter { $0 != 0xFF } }

  @Test func hostileNamesArriveExactlyAndTheirURLsComeBack() throws {
    try configure(folder: "Shared/")
    let paths = try Self.names.enumerated().map { index, name in
      try desktop.writeFile(named: name, contents: Array("contents \(index)\n".utf8))
    }
    #expect(paths.contains { String(validating: $0, as: UTF8.self) == nil })
    let run = try run(paths.map { .file($0) })
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    let urls = try #require(run.returned?.compactMap { $0.url })
    #expect(urls.count == paths.count)
    let prefix = "\(server.baseURL)/Shared/"
    for (url, path) in zip(urls, paths) {
      #expect(url.hasPrefix(prefix))
      let name = Bytes.percentDecoded(String(url.dropFirst(prefix.count)))
      #expect(name == Bytes.lastComponent(path))
      #expect(!String(url.dropFirst(prefix.count)).contains("/"))
      // lighttpd stores a name with control characters under "_" in their place; every other
      // name is the same bytes on the server's disk.
      let stored = Array(name.map { $0 < 0x20 ? UInt8(ascii: "_") : $0 })
      #expect(try Bytes.contents(Array("\(server.root)/Shared/".utf8) + stored) == Bytes.contents(path))
    }
    #expect(try Bytes.names(in: "\(server.root)/Shared").count == paths.count)
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.files)/pwned"))
  }

  @Test func aNameTheServerRefusesIsNamed() throws {
    try configure(folder: "")
    let file = try desktop.writeFile(named: [0x78, 0xFF, 0x2E, 0x74, 0x78, 0x74], contents: Array("x".utf8))
    let run = try run([.file(file)])
    #expect(run.cancelCode == 400)
    #expect(run.cancelMessage == "The server refused the name x\\xff.txt")
  }

  @Test func missingFoldersAreCreated() throws {
    try configure(folder: "From xdg-share/2024/June")  // no final slash, a space: both fine
    let file = try desktop.writeFile(named: "a.txt", contents: "a")
    let run = try run([.file(file)])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(run.returned?.map(\.url) == ["\(server.baseURL)/From%20xdg-share/2024/June/a.txt"])
    #expect(
      try String(contentsOfFile: "\(server.root)/From xdg-share/2024/June/a.txt", encoding: .utf8) == "a")
  }

  @Test func filesOnTheServerAreNeverOverwritten() throws {
    try FileManager.default.createDirectory(
      atPath: "\(server.root)/Shared", withIntermediateDirectories: true)
    try "old".write(toFile: "\(server.root)/Shared/photo.png", atomically: true, encoding: .utf8)
    try configure(folder: "Shared/")
    let photo = try desktop.writeFile(named: Array("photo.png".utf8), contents: tinyPNG)
    let run = try run([.file(photo), .file(photo)])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(
      run.returned?.map(\.url) == [
        "\(server.baseURL)/Shared/photo%20%282%29.png", "\(server.baseURL)/Shared/photo%20%283%29.png",
      ])
    #expect(try String(contentsOfFile: "\(server.root)/Shared/photo.png", encoding: .utf8) == "old")
    #expect(try Bytes.contents(Array("\(server.root)/Shared/photo (3).png".utf8)) == tinyPNG)
  }

  /// Where HEAD tells nothing, the server's 412 to `If-None-Match: *` moves on to the next name.
  @Test func aPreconditionFailureMovesOnToTheNextName() throws {
    try FileManager.default.createDirectory(
      atPath: "\(server.root)/no-head", withIntermediateDirectories: true)
    try "old".write(toFile: "\(server.root)/no-head/notes.txt", atomically: true, encoding: .utf8)
    try configure(folder: "no-head/")
    let notes = try desktop.writeFile(named: "notes.txt", contents: "new")
    let run = try run([.file(notes)])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(run.returned?.map(\.url) == ["\(server.baseURL)/no-head/notes%20%282%29.txt"])
    #expect(try String(contentsOfFile: "\(server.root)/no-head/notes.txt", encoding: .utf8) == "old")
    #expect(try String(contentsOfFile: "\(server.root)/no-head/notes (2).txt", encoding: .utf8) == "new")
  }

  @Test func bigUploadsReportProgress() throws {
    try configure(folder: "")
    let path = "\(desktop.files)/big.bin"
    var bytes = [UInt8](repeating: 0, count: 24 << 20)
    for index in stride(from: 0, to: bytes.count, by: 4096) {
      bytes[index] = UInt8(truncatingIfNeeded: index >> 12)
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    // A name that is not UTF-8 is streamed (chunked) instead of sent with a Content-Length.
    let latin = try desktop.writeFile(named: Array("gro".utf8) + [0xDF] + Array(".bin".utf8), contents: bytes)
    let run = try run([.file(path), .file(latin)])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    let uploading = run.progress.filter { $0.message == "Uploading big.bin" }
    #expect(uploading.count >= 10, "progress: \(run.progress.count) events")
    let fractions = run.progress.compactMap(\.fraction)
    #expect(fractions == fractions.sorted())
    #expect(fractions.last == 1)
    #expect(try Bytes.contents(Array("\(server.root)/big.bin".utf8)) == bytes)
    #expect(try Bytes.contents(Array("\(server.root)/gro".utf8) + [0xDF] + Array(".bin".utf8)) == bytes)
  }

  @Test func aSymbolicLinkUploadsTheFileItNames() throws {
    try configure(folder: "")
    let target = try desktop.writeFile(named: "target.txt", contents: String(repeating: "x", count: 5000))
    try FileManager.default.createSymbolicLink(
      atPath: "\(desktop.files)/link.txt", withDestinationPath: target)
    let run = try run([.file("\(desktop.files)/link.txt")])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(try String(contentsOfFile: "\(server.root)/link.txt", encoding: .utf8).count == 5000)
  }

  @Test func aWrongPasswordIsRefusedWithAClearMessage() throws {
    try configure("URL=\(server.baseURL)/\nUser=\(server.user)\nPassword=wrong\n")
    let run = try run([.file(try desktop.writeFile(named: "a.txt", contents: "a"))])
    #expect(run.cancelCode == 401)
    #expect(
      run.cancelMessage
        == "The server refused the user name or password: check User= and the password in webdav.ini")
    #expect(try Bytes.names(in: server.root).isEmpty)
  }

  @Test func thePasswordCanComeFromAProgram() throws {
    try fakes.install("print-password", body: "printf '%s\\n' '\(server.password)'")
    try configure(
      "URL=\(server.baseURL)/\nUser=\(server.user)\nPasswordCommand=print-password lookup  service\tnextcloud\n"
    )
    let run = try run([.file(try desktop.writeFile(named: "a.txt", contents: "a"))])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(
      try fakes.arguments("print-password") == ["lookup", "service", "nextcloud"].map { Array($0.utf8) })
    try fakes.install("print-password", body: "echo 'no such secret' >&2; exit 1")
    let failing = try self.run([.file(try desktop.writeFile(named: "b.txt", contents: "b"))])
    #expect(
      failing.cancelMessage
        == "The password command in \(configuration) failed with status 1: no such secret")
  }

  @Test func aReadablePasswordFileIsWarnedAbout() throws {
    try configure(folder: "")
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: configuration)
    let run = try run([.file(try desktop.writeFile(named: "a.txt", contents: "a"))])
    #expect(run.completed)
    #expect(run.standardError.contains("holds a password and other users may read it"))
  }

  @Test func setupProblemsAreClearMessages() throws {
    let file = try desktop.writeFile(named: "a.txt", contents: "a")
    let notSetUp = try run([.file(file)])
    // The user must act first: cancelled, not failed.
    #expect(notSetUp.cancelCode == 3072)
    #expect(
      notSetUp.cancelMessage
        == "Upload to WebDAV is not set up: run xdg-share configure org.xdgshare.webdav to give its server, folder and user"
    )
    try configure("URL=ftp://example.org/\n")
    #expect(
      try run([.file(file)]).cancelMessage
        == "The address in \(configuration) is not an http:// or https:// address: ftp://example.org/")
    try configure("URL=\(server.baseURL)/\nUser=alice\n")
    #expect(
      try run([.file(file)]).cancelMessage
        == "\(configuration) has a User= but no Password= or PasswordCommand=: add one of them")
    // A server that is down is the server's failure, not the user's: failed, not cancelled.
    let closed = try WebDAVServer.freePort()
    try configure("URL=http://127.0.0.1:\(closed)/\n")
    let down = try run([.file(file)])
    #expect(
      down.status == 0 && !down.completed && down.cancelCode == nil, "\(down.lines) \(down.standardError)")
    #expect(
      (down.failMessage ?? "").contains(
        "Cannot connect to 127.0.0.1: is the server running, and the address in webdav.ini right?"),
      "\(down.lines)")
    try configure(folder: "")
    try FileManager.default.createDirectory(
      atPath: "\(desktop.files)/folder", withIntermediateDirectories: true)
    #expect(
      try run([.file("\(desktop.files)/folder")]).cancelMessage
        == "folder is a folder or a special file; Upload to WebDAV uploads files only")
  }

  @Test func xdgShareUploadsEndToEnd() throws {
    try configure(folder: "")
    let photo = try desktop.writeFile(named: Array("photo one.png".utf8), contents: tinyPNG)
    let result = try Tool.run(
      [Array("--service".utf8), Array(id.utf8), Array("--".utf8), photo], on: desktop)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput == "\(server.baseURL)/photo%20one.png\n")
  }
}
