import Foundation
import ShareCore
import SharePOSIX
import ShareTestSupport
import Testing

@testable import ShareWeb

/// The built `xdg-share-webshare`, fed what a browser sends (and what a broken or hostile one
/// might), with a stand-in sheet that records how it was started and answers as told.
@Suite struct HostProgramTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  static var host: String {
    URL(fileURLWithPath: Tool.path).deletingLastPathComponent().appendingPathComponent("xdg-share-webshare")
      .path
  }

  /// A sheet that writes its arguments (NUL-separated) and each file it was given to
  /// `state/sheet/`, then runs `body` (which answers on standard output, the result descriptor).
  func fakeSheet(_ body: String) throws -> [String: String] {
    let path = "\(desktop.root)/fake-sheet"
    try """
    #!/bin/sh
    mkdir -p "$XDG_STATE_HOME/sheet"
    printf '%s\\0' "$@" > "$XDG_STATE_HOME/sheet/arguments"
    seen=false
    for argument in "$@"; do
      if $seen; then cp "$argument" "$XDG_STATE_HOME/sheet/"; fi
      [ "$argument" = -- ] && seen=true
    done
    \(body)

    """.write(toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    return ["XDG_SHARE_SHEET": path]
  }

  static let completed =
    #"echo '{"exit-status":0,"response":0,"results":{"service-id":"org.example.s","request-id":"r-1"}}'"#

  /// Runs the host with `input`; its answer (the one message it wrote) and its exit status. As a
  /// browser does, the input stays open until the answer comes, unless `closingInput` (a sender
  /// that stops in the middle of a message).
  func run(_ input: [UInt8], closingInput: Bool = false, environment extra: [String: String] = [:]) throws
    -> (answer: [String: Any], status: Int32)
  {
    let child = try ChildProcess.spawn(
      [Self.host, "chrome-extension://onbdopmibkhlpdgfehacjgodmadpnekp/"].map { Array($0.utf8) },
      environment: desktop.environment.merging(extra) { $1 }, standardInput: .pipe, standardOutput: .pipe)
    let stdin = try #require(child.standardInput)
    let stdout = try #require(child.standardOutput)
    // A host that refuses a message early may not read the rest: that is no failure here.
    try? stdin.write(input)
    if closingInput { stdin.close() }
    let frame = try NativeMessaging.read { count in
      guard try stdout.waitReadable(timeout: 30) else { return [] }
      return try stdout.read(upTo: count)
    }
    stdin.close()
    let rest = try stdout.readToEnd()
    #expect(rest.isEmpty, "the host wrote more than one message")
    guard case .exited(let status)? = child.wait(timeout: 30) else {
      Issue.record("the host did not end")
      child.signal(Signal.kill)
      _ = child.wait()
      throw CancellationError()
    }
    let bytes = try #require(frame)
    let answer = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    return (answer, status)
  }

  static func message(_ json: String) -> [UInt8] { NativeMessaging.frame(Array(json.utf8)) }

  static func chunk(_ file: Int, _ bytes: [UInt8]) -> [UInt8] {
    message(#"{"chunk": {"file": \#(file), "data": "\#(Data(bytes).base64EncodedString())"}}"#)
  }

  var requestFolders: [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: "\(desktop.root)/runtime/xdg-share/web-share"))
      ?? []
  }

  @Test func aShareWithFilesOpensTheSheetForTheSiteAndAnswersItsEnd() throws {
    let bytes: [UInt8] = [0, 1, 2, 0xFF] + Array(repeating: 7, count: 5000)
    let input =
      Self.message(
        #"""
        {"share": {"origin": "https://example.org", "title": "A report", "text": "Look",
         "files": [{"name": "../rep\u202Eort.pdf", "type": "application/pdf", "size": 5004},
                   {"name": "empty.txt", "type": "", "size": 0}]}}
        """#) + Self.chunk(0, Array(bytes[..<4000])) + Self.chunk(0, Array(bytes[4000...]))
    let (answer, status) = try run(input, environment: try fakeSheet(Self.completed))
    #expect(answer["outcome"] as? String == "completed")
    #expect(answer["service"] as? String == "org.example.s")
    #expect(answer["request"] as? String == "r-1")
    #expect(status == 0)
    let arguments = try String(contentsOfFile: "\(desktop.root)/state/sheet/arguments", encoding: .utf8)
      .split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
    #expect(
      arguments.starts(with: [
        "--site", "example.org", "--title", "A report", "--result-fd", "1", "--text", "Look", "--",
      ]))
    #expect(
      arguments.dropFirst(9).filter { !$0.isEmpty }.map { URL(fileURLWithPath: $0).lastPathComponent } == [
        "rep_ort.pdf", "empty.txt",
      ])
    #expect(FileManager.default.contents(atPath: "\(desktop.root)/state/sheet/rep_ort.pdf") == Data(bytes))
    #expect(FileManager.default.contents(atPath: "\(desktop.root)/state/sheet/empty.txt") == Data())
    // The request's folder is gone with the request.
    #expect(requestFolders.isEmpty)
  }

  @Test(arguments: [
    (#"{"exit-status":3,"response":1,"results":{"message":"cancelled"}}"#, "cancelled"),
    (
      #"{"exit-status":4,"response":2,"results":{"service-id":"s","message":"s failed: it exited with status 1"}}"#,
      "failed"
    ),
    (#"{"exit-status":7,"response":2,"results":{"message":"no service accepts these items"}}"#, "no-service"),
  ])
  func theSheetsEndIsTheAnswer(_ line: String, _ outcome: String) throws {
    let (answer, status) = try run(
      Self.message(#"{"share": {"origin": "https://example.org", "url": "https://example.org/"}}"#),
      environment: try fakeSheet("echo '\(line)'"))
    #expect(answer["outcome"] as? String == outcome)
    #expect(status == 1)
  }

  /// The browser letting go (the tab closed) closes the sheet: the host answers into the void
  /// and ends, its folder gone.
  @Test func theEndOfInputClosesTheSheet() throws {
    let sheet = try fakeSheet(#"touch "$XDG_STATE_HOME/sheet/open"; exec sleep 30"#)
    let child = try ChildProcess.spawn(
      [Self.host, "chrome-extension://x/"].map { Array($0.utf8) },
      environment: desktop.environment.merging(sheet) { $1 },
      standardInput: .pipe, standardOutput: .pipe)
    let input = try #require(child.standardInput)
    try input.write(
      Self.message(#"{"share": {"origin": "https://example.org", "files": [{"name": "a.png", "size": 3}]}}"#)
        + Self.chunk(0, [1, 2, 3]))
    let deadline = Date().addingTimeInterval(20)
    while !FileManager.default.fileExists(atPath: "\(desktop.root)/state/sheet/open"), Date() < deadline {
      usleep(20_000)
    }
    #expect(requestFolders.count == 1)
    input.close()
    let ended = child.wait(timeout: 20)
    #expect(ended == .exited(1))
    let output = (try? child.standardOutput?.readToEnd()) ?? []
    #expect(String(decoding: output, as: UTF8.self).contains(#""outcome":"cancelled""#))
    #expect(requestFolders.isEmpty)
  }

  /// Whatever a broken or hostile sender writes, the answer is a message saying what was wrong,
  /// the sheet never opens, and nothing is left behind.
  @Test(
    arguments: [
      (
        "a length over the limit", withUnsafeBytes(of: UInt32(64 << 20)) { Array($0) } + Array("{}".utf8),
        "invalid-message"
      ),
      ("a length of 4 GiB", [UInt8](repeating: 0xFF, count: 4), "invalid-message"),
      ("not JSON", message("\u{1}\u{2}garbage"), "invalid-message"),
      ("a JSON array", message("[1,2,3]"), "invalid-message"),
      (
        "a wrong type", message(#"{"share": {"origin": "https://x", "url": ["https://x/"]}}"#),
        "invalid-message"
      ),
      ("text as a number", message(#"{"share": {"origin": "https://x", "text": 5}}"#), "invalid-message"),
      ("a truncated message", [200, 0, 0, 0] + Array("{\"share\"".utf8), "invalid-message"),
      ("nothing to share", message(#"{"share": {"origin": "https://x"}}"#), "nothing-to-share"),
      (
        "a page's origin that is not one", message(#"{"share": {"origin": "file:///", "text": "x"}}"#),
        "invalid-origin"
      ),
      (
        "an unsafe name",
        message(#"{"share": {"origin": "https://x", "files": [{"name": "..", "size": 1}]}}"#), "unsafe-name"
      ),
      (
        "an executable",
        message(#"{"share": {"origin": "https://x", "files": [{"name": "x.desktop", "size": 1}]}}"#),
        "type-not-allowed"
      ),
      (
        "files too large",
        message(#"{"share": {"origin": "https://x", "files": [{"name": "a.png", "size": 99999999999}]}}"#),
        "too-large"
      ),
      (
        "a chunk of another file",
        message(
          #"{"share": {"origin": "https://x", "files": [{"name": "a.png", "size": 2}, {"name": "b.png", "size": 2}]}}"#
        )
          + chunk(1, [1, 2]), "invalid-message"
      ),
      (
        "a chunk longer than the file",
        message(#"{"share": {"origin": "https://x", "files": [{"name": "a.png", "size": 2}]}}"#)
          + chunk(0, [1, 2, 3]),
        "invalid-message"
      ),
      (
        "a chunk that is not base64",
        message(#"{"share": {"origin": "https://x", "files": [{"name": "a.png", "size": 2}]}}"#)
          + message(#"{"chunk": {"file": 0, "data": "@@@"}}"#), "invalid-message"
      ),
      (
        "files that never come",
        message(#"{"share": {"origin": "https://x", "files": [{"name": "a.png", "size": 2}]}}"#),
        "invalid-message"
      ),
    ] as [(String, [UInt8], String)])
  func hostileInputIsAnsweredNeverACrash(_ what: String, _ input: [UInt8], _ reason: String) throws {
    let (answer, status) = try run(
      input, closingInput: true, environment: try fakeSheet("touch \"$XDG_STATE_HOME/sheet-ran\""))
    #expect(answer["outcome"] as? String == "rejected", "\(what): \(answer)")
    #expect(answer["reason"] as? String == reason, "\(what): \(answer)")
    #expect(!((answer["message"] as? String) ?? "").isEmpty)
    #expect(status == 1)
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.root)/state/sheet-ran"))
    #expect(requestFolders.isEmpty)
  }

  /// A folder left by a host that was killed goes when the next share starts.
  @Test func anAbandonedFolderIsRemovedByTheNextShare() throws {
    let abandoned = "\(desktop.root)/runtime/xdg-share/web-share/999999999-old"
    try FileManager.default.createDirectory(atPath: abandoned, withIntermediateDirectories: true)
    try "x".write(toFile: "\(abandoned)/a.png", atomically: true, encoding: .utf8)
    _ = try run(
      Self.message(#"{"share": {"origin": "https://example.org", "text": "x"}}"#),
      environment: try fakeSheet(Self.completed))
    #expect(!FileManager.default.fileExists(atPath: abandoned))
  }
}
