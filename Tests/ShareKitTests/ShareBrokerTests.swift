import Foundation
import SharePOSIX
import ShareTestSupport
import Synchronization
import Testing

@testable import ShareKit

/// ShareKit's broker calls against a stand-in host: the lines and descriptors it sends, and
/// replies made errors.
@Suite struct ShareBrokerTests {
  /// What the stand-in host received in one request.
  struct Received: Sendable {
    var line: String
    /// The contents of each descriptor sent with it.
    var files: [[UInt8]]
  }

  let desktop: TemporaryDesktop
  let socketPath: String

  init() throws {
    desktop = try TemporaryDesktop()
    socketPath = "\(desktop.root)/runtime/broker"
  }

  /// Serves one connection with `reply`, then returns what came.
  func serveOnce(reply: String, while body: (ShareBroker) throws -> Void) throws -> Received {
    let listener = try UnixSocket.listen(at: Array(socketPath.utf8))
    defer {
      listener.close()
      try? FileManager.default.removeItem(atPath: socketPath)
    }
    let received = Mutex<Received?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      defer { done.signal() }
      guard let connection = try? listener.accept(timeout: 30) else { return }
      var bytes: [UInt8] = []
      var files: [[UInt8]] = []
      while !bytes.contains(UInt8(ascii: "\n")), let message = try? UnixSocket.receive(on: connection),
        !message.bytes.isEmpty
      {
        bytes += message.bytes
        files += message.descriptors.map { (try? $0.readToEnd()) ?? [] }
      }
      received.withLock {
        $0 = Received(line: String(decoding: bytes.dropLast(), as: UTF8.self), files: files)
      }
      try? UnixSocket.send(Array((reply + "\n").utf8), on: connection)
    }
    try body(ShareBroker(socketPath: Array(socketPath.utf8)))
    done.wait()
    return try #require(received.withLock { $0 })
  }

  @Test func composeEmailSendsThePortalsOptionsAndTheFiles() throws {
    let a = try desktop.writeFile(named: "a.txt", contents: "A")
    let b = try desktop.writeFile(named: [0x62, 0xE9, 0x0A], contents: Array("B".utf8))
    let received = try serveOnce(reply: #"{"ok":true}"#) { broker in
      try broker.composeEmail(
        addresses: ["to@example.org"], subject: "Photos", body: "Look\n", attachments: [Array(a.utf8), b])
    }
    #expect(
      received.line
        == #"{"method":"ComposeEmail","options":{"addresses":["to@example.org"],"attachment_fds":[0,1],"#
        + #""body":"Look\n","subject":"Photos"}}"#)
    #expect(received.files == [Array("A".utf8), Array("B".utf8)])
  }

  @Test func eachCallIsItsMethod() throws {
    #expect(
      try serveOnce(reply: #"{"ok":true}"#) { try $0.open(url: URL(string: "https://example.org/?a=1")!) }
        .line
        == #"{"method":"OpenURI","options":{"uri":"https://example.org/?a=1"}}"#)
    #expect(
      try serveOnce(reply: #"{"ok":true}"#) { try $0.copy(text: "Grüße") }.line
        == #"{"method":"SetClipboard","options":{"mime_type":"text/plain;charset=utf-8","text":"Grüße"}}"#)
    let image = try desktop.writeFile(named: "a.png", contents: "PNG")
    let copied = try serveOnce(reply: #"{"ok":true}"#) {
      try $0.copy(image: Array(image.utf8), mimeType: "image/png", textFallback: "file:///a.png")
    }
    #expect(
      copied.line
        == #"{"method":"SetClipboard","options":{"data_fd":0,"mime_type":"image/png","text_fallback":"file:///a.png"}}"#
    )
    #expect(copied.files == [Array("PNG".utf8)])
    let opened = try serveOnce(reply: #"{"ok":true}"#) { try $0.open(filePath: Array(image.utf8)) }
    #expect(opened.line == #"{"method":"OpenFile","options":{"fd":0}}"#)
    #expect(opened.files == [Array("PNG".utf8)])
    #expect(
      try serveOnce(reply: #"{"ok":true}"#) { try $0.notify(title: "Sent", body: "2 files") }.line
        == #"{"method":"Notify","options":{"body":"2 files","title":"Sent"}}"#)
  }

  @Test func anErrorReplyIsAShareErrorWithItsCodeAndMessage() throws {
    var thrown: ShareError?
    _ = try serveOnce(reply: #"{"error":{"code":3,"message":"No mail program is set up on this computer"}}"#)
    {
      broker in
      do {
        try broker.composeEmail(subject: "x")
      } catch {
        thrown = error as? ShareError
      }
    }
    #expect(thrown?.code == 3)
    #expect(thrown?.message == "No mail program is set up on this computer")
  }

  @Test func noBrokerIsAClearError() {
    #expect(throws: ShareError.self) {
      try ShareBroker(socketPath: Array("\(desktop.root)/runtime/none".utf8)).copy(text: "x")
    }
  }
}
