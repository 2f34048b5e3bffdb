import Foundation
import ShareCurl
import ShareTestSupport
import Synchronization
import Testing

/// ShareCurl against the test's own lighttpd: what Upload to WebDAV does not reach by itself.
@Suite(
  .enabled(
    if: WebDAVServer.isAvailable,
    "lighttpd with mod_webdav is not installed: apt-get install lighttpd lighttpd-mod-webdav"))
struct HTTPSessionTests {
  let desktop: TemporaryDesktop
  let server: WebDAVServer
  let session = HTTPSession()

  init() throws {
    desktop = try TemporaryDesktop()
    server = try WebDAVServer(root: "\(desktop.root)/dav", state: "\(desktop.root)/dav-state")
  }

  var credentials: HTTPCredentials { HTTPCredentials(user: server.user, password: server.password) }

  func request(_ method: String, _ path: String, body: HTTPBody = .none) -> HTTPRequest {
    HTTPRequest(method: method, url: "\(server.baseURL)/\(path)", body: body, credentials: credentials)
  }

  @Test func aBodyOfUnknownLengthIsSentChunked() async throws {
    let chunks = Mutex([Array("one ".utf8), Array("two ".utf8), Array("three".utf8)])
    let body = HTTPBody.stream(length: nil) { _ in
      chunks.withLock { $0.isEmpty ? [] : $0.removeFirst() }
    }
    let response = try await session.send(request("PUT", "chunked.txt", body: body))
    #expect(response.status == 201)
    #expect(try String(contentsOfFile: "\(server.root)/chunked.txt", encoding: .utf8) == "one two three")
  }

  @Test func theFinalAnswersHeadersAndBodyAreKept() async throws {
    try FileManager.default.createDirectory(
      atPath: "\(server.root)/Folder", withIntermediateDirectories: true)
    try "hello".write(toFile: "\(server.root)/Folder/a.txt", atomically: true, encoding: .utf8)
    let moved = try await session.send(request("GET", "Folder"))
    #expect((300..<400).contains(moved.status))
    #expect(moved.header("location")?.hasSuffix("/Folder/") == true)
    let file = try await session.send(request("GET", "Folder/a.txt"))
    #expect(file.status == 200)
    #expect(file.body == Array("hello".utf8))
    #expect(file.header("Content-Length") == "5")
    var short = request("GET", "Folder/a.txt")
    short.maximumBodySize = 2
    #expect(try await session.send(short).body == Array("he".utf8))
  }

  @Test func aBodyThatCannotBeReadEndsTheRequestWithItsError() async throws {
    struct Unreadable: Error {}
    let failing = HTTPBody.stream(length: 10) { _ in throw Unreadable() }
    await #expect {
      try await session.send(request("PUT", "failing.txt", body: failing))
    } throws: { error in
      guard case .bodyUnreadable(let underlying) = error as? HTTPError else { return false }
      return underlying is Unreadable
    }
    let short = HTTPBody.stream(length: 10) { _ in [] }
    await #expect {
      try await session.send(request("PUT", "short.txt", body: short))
    } throws: { error in
      guard case .bodyUnreadable(let underlying) = error as? HTTPError else { return false }
      guard let short = underlying as? ShortBody else { return false }
      return short.expected == 10 && short.read == 0
    }
  }

  @Test func cancellingStopsTheTransfer() throws {
    // An endless body, a little at a time: only cancelling ends it.
    let endless = HTTPBody.stream(length: nil) { _ in
      usleep(10_000)
      return [UInt8](repeating: 0x61, count: 100)
    }
    let session = self.session
    let put = request("PUT", "endless.txt", body: endless)
    let cancellation = HTTPCancellation()
    let ended = Mutex<(result: Result<HTTPResponse, HTTPError>, at: Date)?>(nil)
    // On a thread of its own, so that what is timed is the transfer, not a busy task pool.
    let thread = Thread {
      let result = Result { () throws(HTTPError) -> HTTPResponse in
        try session.perform(put, cancellation: cancellation)
      }
      ended.withLock { $0 = (result, Date()) }
    }
    thread.start()
    Thread.sleep(forTimeInterval: 0.3)
    let cancelled = Date()
    cancellation.cancel()
    let deadline = Date().addingTimeInterval(30)
    while ended.withLock({ $0 }) == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    let end = try #require(ended.withLock { $0 }, "the transfer did not stop within 30 seconds")
    #expect(end.at.timeIntervalSince(cancelled) < 3)
    guard case .failure(.cancelled) = end.result else {
      Issue.record("expected HTTPError.cancelled, got \(end.result)")
      return
    }
  }

  @Test func cancellingTheWaitingTaskCancelsTheTransfer() async throws {
    let endless = HTTPBody.stream(length: nil) { _ in
      usleep(10_000)
      return [UInt8](repeating: 0x61, count: 100)
    }
    let session = self.session
    let put = request("PUT", "endless.txt", body: endless)
    let task = Task { try await session.send(put) }
    try await Task.sleep(for: .milliseconds(300))
    task.cancel()
    // The body never ends, so any end at all is the cancel's doing (how soon the task hears of it
    // depends on Swift's task pool, which the parallel tests keep busy on two cores).
    guard case .failure(let error) = await task.result, case .cancelled = error as? HTTPError else {
      Issue.record("expected HTTPError.cancelled")
      return
    }
  }

  @Test func failuresBeforeAnAnswerAreKinds() async throws {
    let closed = try WebDAVServer.freePort()
    await #expect {
      try await session.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(closed)/"))
    } throws: { error in
      if case .couldNotConnect = error as? HTTPError { true } else { false }
    }
    await #expect {
      try await session.send(HTTPRequest(method: "GET", url: "ftp://127.0.0.1/"))
    } throws: { error in
      if case .invalidRequest = error as? HTTPError { true } else { false }
    }
    await #expect {
      try await session.send(
        HTTPRequest(method: "GET", url: "\(server.baseURL)/", headers: ["X-Test": "a\r\nInjected: yes"]))
    } throws: { error in
      if case .invalidRequest = error as? HTTPError { true } else { false }
    }
    await #expect {
      try await session.send(HTTPRequest(method: "GET", url: "http://name.invalid/"))
    } throws: { error in
      if case .couldNotResolve = error as? HTTPError { true } else { false }
    }
  }

  @Test func wrongCredentialsAreAnAnswer() async throws {
    // Depth 0: lighttpd refuses the default, infinity.
    var right = request("PROPFIND", "")
    right.headers["Depth"] = "0"
    var wrong = right
    wrong.credentials = HTTPCredentials(user: server.user, password: "wrong")
    #expect(try await session.send(wrong).status == 401)
    #expect(try await session.send(right).status == 207)
  }
}
