import Foundation
import ShareCore
import ShareHost
import SharePOSIX
import Testing

@testable import ShareWeb

/// The share message a page's extension sends, read and checked before anything is written.
@Suite struct WebShareRequestTests {
  static func decode(_ json: String) throws(WebShareRefusal) -> WebShareRequest {
    try WebShareRequest.decode(Array(json.utf8))
  }

  @Test func aLinkWithItsTitle() throws {
    let request = try Self.decode(
      #"{"share": {"origin": "https://example.org", "title": "Hi", "url": "https://example.org/a?b=1"}}"#)
    #expect(request.site == "example.org")
    #expect(request.items(filesIn: FilePath("/f")) == [.text("Hi"), .webURL("https://example.org/a?b=1")])
  }

  @Test func theSiteKeepsItsPort() throws {
    let request = try Self.decode(#"{"share": {"origin": "http://127.0.0.1:8080", "text": "x"}}"#)
    #expect(request.site == "127.0.0.1:8080")
  }

  @Test func filesAreNamedSafelyAndInOrder() throws {
    let request = try Self.decode(
      #"""
      {"share": {"origin": "https://example.org", "files": [
        {"name": "../../etc/passwd.txt", "type": "text/plain", "size": 3},
        {"name": "passwd.txt", "type": "", "size": 0},
        {"name": "report\u202Efdp.png", "type": "image/png", "size": 10}]}}
      """#)
    #expect(request.files.map(\.name) == ["passwd.txt", "passwd (2).txt", "report_fdp.png"])
    #expect(
      request.items(filesIn: FilePath("/run/f")) == [
        .file(FilePath("/run/f/passwd.txt")), .file(FilePath("/run/f/passwd (2).txt")),
        .file(FilePath("/run/f/report_fdp.png")),
      ])
  }

  @Test(
    arguments: [
      (#"not json"#, WebShareRefusal.invalidMessage("not JSON")),
      (#"{}"#, .invalidMessage("'share' is missing")),
      (#"{"share": {"origin": 5, "url": "https://x/"}}"#, .invalidMessage("'share.origin' has a wrong type")),
      (
        #"{"share": {"origin": "https://x", "files": [{"name": "a.png", "size": "9"}]}}"#,
        .invalidMessage("'share.files[0].size' has a wrong type")
      ),
      (
        #"{"share": {"origin": "https://x", "files": [{"name": "a.png"}]}}"#,
        .invalidMessage("'share.files[0].size' is missing")
      ),
      (#"{"share": {"origin": "https://x"}}"#, .nothingToShare),
      (
        #"{"share": {"origin": "https://x", "url": "javascript:alert(1)"}}"#,
        .invalidURL("javascript:alert(1)")
      ),
      (
        #"{"share": {"origin": "https://x", "url": "file:///etc/passwd"}}"#, .invalidURL("file:///etc/passwd")
      ),
      (
        #"{"share": {"origin": "chrome-extension://abc", "text": "x"}}"#,
        .invalidOrigin("chrome-extension://abc")
      ),
      (#"{"share": {"origin": "https://x", "files": [{"name": "..", "size": 1}]}}"#, .unsafeName("..")),
      (
        #"{"share": {"origin": "https://x", "files": [{"name": "\u0000\u0001", "size": 1}]}}"#,
        .unsafeName("\u{0}\u{1}")
      ),
      (
        #"{"share": {"origin": "https://x", "files": [{"name": "run.sh", "size": 1}]}}"#,
        .typeNotAllowed(name: "run.sh", type: "")
      ),
      (
        #"{"share": {"origin": "https://x", "files": [{"name": "a.png", "type": "application/x-executable", "size": 1}]}}"#,
        .typeNotAllowed(name: "a.png", type: "application/x-executable")
      ),
      (
        #"{"share": {"origin": "https://x", "files": [{"name": "a.png", "size": -1}]}}"#,
        .invalidMessage("a file's size is negative")
      ),
      (
        #"{"share": {"origin": "https://x", "files": [{"name": "a.png", "size": 52428801}]}}"#,
        .tooLarge(what: "the files", limit: 50 << 20)
      ),
    ] as [(String, WebShareRefusal)])
  func refusals(_ json: String, _ refusal: WebShareRefusal) {
    #expect(throws: refusal) { try Self.decode(json) }
  }

  @Test func elevenFilesAreTooMany() {
    let files = (0..<11).map { #"{"name": "f\#($0).png", "size": 1}"# }.joined(separator: ",")
    #expect(throws: WebShareRefusal.tooManyFiles(11)) {
      try Self.decode(#"{"share": {"origin": "https://x", "files": [\#(files)]}}"#)
    }
  }

  @Test func aTitleOver16KiBIsTooLarge() {
    let title = String(repeating: "a", count: (16 << 10) + 1)
    #expect(throws: WebShareRefusal.tooLarge(what: "the title", limit: 16 << 10)) {
      try Self.decode(#"{"share": {"origin": "https://x", "title": "\#(title)"}}"#)
    }
  }

  /// Every refusal has a key the extension knows and words.
  @Test func everyRefusalIsWorded() {
    let refusals: [WebShareRefusal] = [
      .invalidMessage("x"), .nothingToShare, .invalidURL("u"), .invalidOrigin("o"), .tooManyFiles(11),
      .tooLarge(what: "the text", limit: 1 << 20), .unsafeName(".."),
      .typeNotAllowed(name: "a.exe", type: ""),
    ]
    #expect(Set(refusals.map(\.reason)).count == refusals.count)
    for refusal in refusals { #expect(!refusal.message.isEmpty) }
    #expect(
      WebShareRefusal.tooLarge(what: "the text", limit: 1 << 20).message
        == "the text is larger than the 1 MiB a page may share")
  }
}

@Suite struct SafeNamesTests {
  @Test(arguments: [
    ("photo.png", "photo.png"), ("a/b/c.png", "c.png"), (#"C:\Users\me\c.png"#, "c.png"),
    (".hidden.png", "_hidden.png"), ("  spaced.png  ", "spaced.png"), ("tab\there.png", "tab_here.png"),
    ("new\nline.png", "new_line.png"), ("\u{202E}gnp.exe", "_gnp.exe"), ("é ü.png", "é ü.png"),
  ])
  func safeNames(_ given: String, _ safe: String) {
    #expect(SafeFileNames.safe(given) == safe)
  }

  @Test(arguments: ["", ".", "..", "a/..", "/", "...", "\u{1}"])
  func namesThatCannotBeFiles(_ given: String) {
    #expect(SafeFileNames.safe(given) == nil)
  }

  @Test func aLongNameKeepsItsExtensionWithin255Bytes() throws {
    let name = try #require(SafeFileNames.safe(String(repeating: "é", count: 300) + ".png"))
    #expect(name.utf8.count <= 255)
    #expect(name.hasSuffix(".png"))
  }

  @Test func twoFilesOfOneNameAreToldApart() {
    var names = SafeFileNames()
    #expect(names.unique("a.png") == "a.png")
    #expect(names.unique("A.PNG") == "A (2).PNG")
    #expect(names.unique("a.png") == "a (3).png")
    #expect(names.unique("noext") == "noext")
    #expect(names.unique("noext") == "noext (2)")
  }

  @Test(arguments: [
    ("a.PNG", "image/png", true), ("a.png", "", true), ("a.txt", "text/plain; charset=utf-8", true),
    ("a.exe", "", false), ("a.png", "application/zip", false), ("noext", "text/plain", false),
    ("a.svgz", "image/svg+xml", true),
  ])
  func permittedTypes(_ name: String, _ type: String, _ permitted: Bool) {
    #expect(WebShareTypes.isPermitted(name: name, type: type) == permitted)
  }
}

@Suite struct NativeMessagingTests {
  /// Reads from `bytes` a little at a time, as a pipe gives them.
  final class Feed {
    var bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    func read(_ count: Int) -> [UInt8] {
      let chunk = Array(bytes.prefix(min(count, 3)))
      bytes.removeFirst(chunk.count)
      return chunk
    }
  }

  @Test func messagesComeBackAsFramed() throws {
    let feed = Feed(NativeMessaging.frame(Array("{\"a\":1}".utf8)) + NativeMessaging.frame([]))
    #expect(try NativeMessaging.read(with: feed.read) == Array("{\"a\":1}".utf8))
    #expect(try NativeMessaging.read(with: feed.read) == [])
    #expect(try NativeMessaging.read(with: feed.read) == nil)
  }

  @Test func aMessageOverTheLimitIsRefusedBeforeItIsRead() {
    let length = UInt32(NativeMessaging.maximumIncoming + 1)
    let feed = Feed(withUnsafeBytes(of: length) { Array($0) })
    #expect(throws: NativeMessaging.ReadError.tooLong(length)) { try NativeMessaging.read(with: feed.read) }
  }

  @Test(arguments: [[UInt8]([1, 0]), [5, 0, 0, 0, 65]])
  func anInputThatEndsInsideAMessageIsTruncated(_ bytes: [UInt8]) {
    let feed = Feed(bytes)
    #expect(throws: NativeMessaging.ReadError.truncated) { try NativeMessaging.read(with: feed.read) }
  }
}

/// How the sheet's end becomes the extension's answer.
@Suite struct WebShareAnswerTests {
  static func line(
    _ exit: Int32, _ response: UInt32, service: String? = "org.example.s", message: String? = nil
  )
    -> SheetSession.End
  {
    // As the sheet writes it, read back as every front end reads it.
    let line = SheetResultLine(
      exitStatus: exit, response: response,
      results: .init(serviceID: service, requestID: "r-1", message: message))
    return SheetSession.end(Array((try? JSONEncoder().encode(line)) ?? Data()), termination: .exited(exit))
  }

  @Test func eachEnd() {
    #expect(
      WebShareHost.Answer(Self.line(0, 0))
        == .init(outcome: .completed, service: "org.example.s", request: "r-1"))
    #expect(WebShareHost.Answer(Self.line(3, 1, message: "cancelled")).outcome == .cancelled)
    #expect(WebShareHost.Answer(Self.line(4, 2, message: "it failed")).message == "it failed")
    #expect(WebShareHost.Answer(Self.line(7, 2, service: nil)).outcome == .noService)
    #expect(WebShareHost.Answer(.closed) == .init(outcome: .cancelled, message: "the share sheet was closed"))
    #expect(WebShareHost.Answer(.noAnswer(.exited(1))).outcome == .failed)
  }

  @Test func anAnswerIsOneJSONObjectWithSortedKeys() {
    let answer = WebShareHost.Answer.rejected(.nothingToShare)
    #expect(
      String(decoding: answer.json, as: UTF8.self)
        == #"{"message":"nothing to share: no title, text, url or file","outcome":"rejected","reason":"nothing-to-share"}"#
    )
  }
}
