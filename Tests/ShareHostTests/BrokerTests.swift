import Foundation
import ShareCore
import SharePOSIX
import ShareTestSupport
import Synchronization
import Testing

@testable import ShareHost

/// The broker over its socket, with a double that records what it is asked to do.
@Suite struct BrokerTests {
  /// What the broker asked of the desktop.
  final class RecordingActions: BrokerActions {
    enum Call: Equatable {
      case email(BrokerEmail)
      case openURI(String)
      case openFile(FilePath)
      case copy(BrokerClip)
      case notify(String, String)
      case storeSecret(String, String)
    }

    let calls = Mutex<[Call]>([])
    /// What every call fails with, when set.
    let failure: BrokerError?

    init(failure: BrokerError? = nil) {
      self.failure = failure
    }

    private func record(_ call: Call) throws(BrokerError) {
      calls.withLock { $0.append(call) }
      if let failure { throw failure }
    }

    func composeEmail(_ email: BrokerEmail) throws(BrokerError) { try record(.email(email)) }
    func open(uri: String) throws(BrokerError) { try record(.openURI(uri)) }
    func open(file: FilePath) throws(BrokerError) { try record(.openFile(file)) }
    func copy(_ clip: BrokerClip) throws(BrokerError) { try record(.copy(clip)) }
    func notify(title: String, body: String) throws(BrokerError) { try record(.notify(title, body)) }
    func storeSecret(_ secret: String, item: String) throws(BrokerError) {
      try record(.storeSecret(item, secret))
    }
  }

  let desktop: TemporaryDesktop
  let actions: RecordingActions
  let broker: Broker

  init() throws {
    desktop = try TemporaryDesktop()
    actions = RecordingActions()
    broker = try Broker(paths: SearchPaths(environment: desktop.environment), actions: actions)
  }

  /// Sends `line` (a newline added) with `descriptors` and returns the reply line, parsed.
  func ask(_ line: String, descriptors: [FileDescriptor] = []) throws -> [String: Any] {
    let socket = try UnixSocket.connect(to: broker.socketPath.bytes)
    defer { socket.close() }
    try UnixSocket.send(Array((line + "\n").utf8), descriptors: descriptors, on: socket)
    var reply: [UInt8] = []
    while !reply.contains(UInt8(ascii: "\n")) {
      let message = try UnixSocket.receive(on: socket)
      if message.bytes.isEmpty { break }
      reply += message.bytes
    }
    #expect(reply.last == UInt8(ascii: "\n"))
    return try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any] ?? [:]
  }

  func errorMessage(_ reply: [String: Any]) -> String? {
    (reply["error"] as? [String: Any])?["message"] as? String
  }

  func errorCode(_ reply: [String: Any]) -> Int? {
    (reply["error"] as? [String: Any])?["code"] as? Int
  }

  @Test func theSocketIsPrivateAndGoesWithTheBroker() throws {
    let folder = broker.socketPath.bytes.split(separator: UInt8(ascii: "/")).dropLast()
    let folderPath = "/" + folder.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/")
    #expect(folderPath.hasPrefix("\(desktop.root)/runtime/xdg-share/broker/"))
    #expect(try FileSystem.status(Array(folderPath.utf8)).permissions & 0o777 == 0o700)
    broker.stop()
    #expect(!FileManager.default.fileExists(atPath: folderPath))
  }

  @Test func composeEmailGetsTheOptionsAndTheAttachmentsHostPaths() throws {
    let name: [UInt8] = Array("new\nline ".utf8) + [0xE9, 0xFF] + Array(".pdf".utf8)
    let path = try desktop.writeFile(named: name, contents: Array("%PDF".utf8))
    let other = try desktop.writeFile(named: "b.txt", contents: "b")
    let reply = try ask(
      #"{"method":"ComposeEmail","options":{"addresses":["a@example.org"],"cc":["c@example.org"],"#
        + #""bcc":["d@example.org"],"subject":"S","body":"B","attachment_fds":[1,0]}}"#,
      descriptors: [
        try FileDescriptor.openForReading(Array(other.utf8)), try FileDescriptor.openForReading(path),
      ])
    #expect(reply["ok"] as? Bool == true)
    #expect(
      actions.calls.withLock { $0 } == [
        .email(
          BrokerEmail(
            addresses: ["a@example.org"], cc: ["c@example.org"], bcc: ["d@example.org"], subject: "S",
            body: "B",
            attachments: [FilePath(bytes: path), FilePath(other)]))
      ])
  }

  @Test func aFileWithNoPathHereIsCopiedForTheMailProgram() throws {
    let path = try desktop.writeFile(named: "gone.txt", contents: "contents")
    let descriptor = try FileDescriptor.openForReading(Array(path.utf8))
    try FileManager.default.removeItem(atPath: path)
    let reply = try ask(
      #"{"method":"ComposeEmail","options":{"attachment_fds":[0]}}"#, descriptors: [descriptor])
    #expect(reply["ok"] as? Bool == true)
    guard case .email(let email)? = actions.calls.withLock({ $0.first }) else {
      Issue.record("no mail")
      return
    }
    let copy = try #require(email.attachments.first)
    #expect(copy.text.hasPrefix("\(desktop.root)/runtime/xdg-share/attachments/"))
    #expect(copy.text.hasSuffix("/gone.txt"))
    #expect(try String(contentsOfFile: copy.text, encoding: .utf8) == "contents")
  }

  @Test func aDescriptorThatIsNotARegularFileIsRefused() throws {
    let folder = try FileDescriptor.openForReading(Array(desktop.files.utf8))
    let reply = try ask(#"{"method":"OpenFile","options":{"fd":0}}"#, descriptors: [folder])
    #expect(errorCode(reply) == 1)
    #expect(
      errorMessage(reply) == "The option fd names a folder or a special file; only regular files are taken")
    let pipe = try FileDescriptor.pipe()
    let second = try ask(
      #"{"method":"ComposeEmail","options":{"attachment_fds":[0]}}"#, descriptors: [pipe.read])
    #expect(errorCode(second) == 1)
    let missing = try ask(#"{"method":"OpenFile","options":{"fd":0}}"#)
    #expect(errorMessage(missing) == "The option fd names a descriptor that was not sent with the request")
    #expect(actions.calls.withLock { $0 }.isEmpty)
  }

  @Test func openURIAndOpenFile() throws {
    #expect(
      try ask(#"{"method":"OpenURI","options":{"uri":"https://example.org/a?b=1"}}"#)["ok"] as? Bool == true)
    let refused = try ask(#"{"method":"OpenURI","options":{"uri":"file:///etc/passwd"}}"#)
    #expect(errorMessage(refused) == "The option uri is a file: open files with OpenFile and a descriptor")
    let path = try desktop.writeFile(named: "qr.png", contents: "png")
    let reply = try ask(
      #"{"method":"OpenFile","options":{"fd":0}}"#,
      descriptors: [try FileDescriptor.openForReading(Array(path.utf8))])
    #expect(reply["ok"] as? Bool == true)
    #expect(
      actions.calls.withLock { $0 } == [.openURI("https://example.org/a?b=1"), .openFile(FilePath(path))])
  }

  @Test func setClipboardTakesTextOrAFile() throws {
    #expect(
      try ask(
        #"{"method":"SetClipboard","options":{"mime_type":"text/plain;charset=utf-8","text":"Grüße"}}"#)[
          "ok"] as? Bool == true)
    let path = try desktop.writeFile(named: "a.png", contents: "PNGDATA")
    let reply = try ask(
      #"{"method":"SetClipboard","options":{"mime_type":"image/png","data_fd":0,"text_fallback":"file:///a.png"}}"#,
      descriptors: [try FileDescriptor.openForReading(Array(path.utf8))])
    #expect(reply["ok"] as? Bool == true)
    #expect(
      actions.calls.withLock { $0 } == [
        .copy(BrokerClip(mimeType: "text/plain;charset=utf-8", data: Array("Grüße".utf8))),
        .copy(
          BrokerClip(
            mimeType: "image/png", data: Array("PNGDATA".utf8), textFallback: Array("file:///a.png".utf8))),
      ])
  }

  @Test func notify() throws {
    #expect(
      try ask(#"{"method":"Notify","options":{"title":"Sent","body":"2 files"}}"#)["ok"] as? Bool == true)
    #expect(actions.calls.withLock { $0 } == [.notify("Sent", "2 files")])
  }

  @Test func storeSecret() throws {
    #expect(
      try ask(#"{"method":"StoreSecret","options":{"item":"password","secret":"s3cret"}}"#)["ok"] as? Bool
        == true)
    #expect(actions.calls.withLock { $0 } == [.storeSecret("password", "s3cret")])
  }

  @Test func theDesktopStoresOnlyTheServicesOwnSecureItems() throws {
    let sheet = ComposeSheetDeclaration(configurationItems: [
      .init(identifier: "password", title: "Password", isSecure: true),
      .init(identifier: "user", title: "User"),
    ])
    let service = ShareService(
      id: "org.example.dav", name: "DAV", bundlePath: "/nonexistent", executablePath: "/nonexistent/share",
      rule: .predicate(.constant(true)), composeSheet: sheet)
    let secrets = InMemorySecretStore()
    let desktopActions = DesktopBrokerActions(environment: [:], service: service, secrets: secrets)
    try desktopActions.storeSecret("s3cret", item: "password")
    #expect(try secrets.lookup(service: "org.example.dav", item: "password") == "s3cret")
    #expect(throws: BrokerError(code: 1, message: "user is not a Secure configuration item of this service"))
    {
      try desktopActions.storeSecret("x", item: "user")
    }
  }

  @Test func badLinesAndUnknownMethodsAreErrorReplies() throws {
    let notJSON = try ask("hello")
    #expect(errorCode(notJSON) == 1)
    #expect(errorMessage(notJSON) == "Not a broker request: it is not JSON")
    #expect(errorMessage(try ask(#"{"options":{}}"#)) == "Not a broker request: it has no \"method\"")
    #expect(
      errorMessage(try ask(#"{"method":"ComposeEmail","options":{"subject":3}}"#))
        == "The option subject is not a string")
    let unknown = try ask(#"{"method":"Spawn","options":{}}"#)
    #expect(errorCode(unknown) == 2)
    #expect(
      errorMessage(unknown)
        == "The broker has no method Spawn: ComposeEmail, OpenURI, OpenFile, SetClipboard, Notify, StoreSecret"
    )
    #expect(actions.calls.withLock { $0 }.isEmpty)
  }

  @Test func severalRequestsOnOneConnectionEachGetTheirReply() throws {
    let socket = try UnixSocket.connect(to: broker.socketPath.bytes)
    defer { socket.close() }
    try UnixSocket.send(
      Array((#"{"method":"Notify","options":{"title":"a"}}"# + "\n" + "{}\n").utf8), on: socket)
    var reply: [UInt8] = []
    while reply.filter({ $0 == UInt8(ascii: "\n") }).count < 2 {
      let message = try UnixSocket.receive(on: socket)
      if message.bytes.isEmpty { break }
      reply += message.bytes
    }
    let lines = String(decoding: reply, as: UTF8.self).split(separator: "\n")
    #expect(lines.first == #"{"ok":true}"#)
    #expect(lines.last == #"{"error":{"code":1,"message":"Not a broker request: it has no \"method\""}}"#)
  }

  @Test func aLineWithTooManyDescriptorsIsRefused() throws {
    let path = try desktop.writeFile(named: "a.txt", contents: "a")
    let files = try (0..<40).map { _ in try FileDescriptor.openForReading(Array(path.utf8)) }
    let socket = try UnixSocket.connect(to: broker.socketPath.bytes)
    defer { socket.close() }
    try UnixSocket.send(Array("{".utf8), descriptors: files, on: socket)
    try UnixSocket.send(Array(" ".utf8), descriptors: files, on: socket)
    var reply: [UInt8] = []
    while !reply.contains(UInt8(ascii: "\n")) {
      let message = try UnixSocket.receive(on: socket)
      if message.bytes.isEmpty { break }
      reply += message.bytes
    }
    #expect(
      String(decoding: reply, as: UTF8.self)
        == #"{"error":{"code":1,"message":"Not a broker request: more than 64 descriptors were sent"}}"#
        + "\n")
  }

  @Test func theActionsFailureIsTheReply() throws {
    let failing = try Broker(
      paths: SearchPaths(environment: desktop.environment),
      actions: RecordingActions(
        failure: BrokerError(code: 3, message: "No mail program is set up on this computer")))
    defer { failing.stop() }
    let socket = try UnixSocket.connect(to: failing.socketPath.bytes)
    defer { socket.close() }
    try UnixSocket.send(Array(#"{"method":"ComposeEmail","options":{}}"#.utf8) + [0x0A], on: socket)
    let reply = try UnixSocket.receive(on: socket)
    #expect(
      String(decoding: reply.bytes, as: UTF8.self)
        == #"{"error":{"code":3,"message":"No mail program is set up on this computer"}}"# + "\n")
  }

  /// The Python client of docs/plugin-protocol.md, run against the broker.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
  func theDocumentedPythonClientWorks() throws {
    let path = try desktop.writeFile(named: "report.pdf", contents: "%PDF")
    let script = """
      import array, json, os, socket, sys

      def broker(method, options, files=()):
          fds = [os.open(path, os.O_RDONLY | os.O_CLOEXEC) for path in files]
          try:
              with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                  s.connect(os.environ["XDG_SHARE_BROKER"])
                  line = (json.dumps({"method": method, "options": options}) + "\\n").encode()
                  ancillary = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))] if fds else []
                  sent = s.sendmsg([line], ancillary)
                  s.sendall(line[sent:])
                  reply = b""
                  while not reply.endswith(b"\\n"):
                      chunk = s.recv(65536)
                      if not chunk:
                          break
                      reply += chunk
          finally:
              for fd in fds:
                  os.close(fd)
          answer = json.loads(reply)
          if not answer.get("ok"):
              raise RuntimeError(answer["error"]["code"], answer["error"]["message"])

      broker("ComposeEmail", {"subject": "Report", "attachment_fds": [0]}, files=[sys.argv[1]])
      broker("SetClipboard", {"mime_type": "text/plain;charset=utf-8", "text": "Hello"})
      try:
          broker("Frobnicate", {})
      except RuntimeError as error:
          print(error.args[0])
      """
    var environment = desktop.environment
    environment["XDG_SHARE_BROKER"] = broker.socketPath.text
    let run = try CapturedRun.run(
      [Array("python3".utf8), Array("-c".utf8), Array(script.utf8), Array(path.utf8)],
      environment: environment)
    #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
    #expect(String(decoding: run.standardOutput, as: UTF8.self) == "2\n")
    #expect(
      actions.calls.withLock { $0 } == [
        .email(BrokerEmail(subject: "Report", attachments: [FilePath(path)])),
        .copy(BrokerClip(mimeType: "text/plain;charset=utf-8", data: Array("Hello".utf8))),
      ])
  }
}
