import Dispatch
import ShareCore
import ShareDBus
import ShareDaemon
import ShareHost
import SharePOSIX
import ShareProtocol
import ShareTestSupport
import Synchronization
import Testing

/// `ShowPicker` in process: the D-Bus service on a private bus, its sheet an in-memory one, called
/// by our own client. Each way the sheet ends is the request's one `Response`, code and results
/// exactly, keys in the order they have always come.
@Suite struct ShowPickerResponseTests {
  let desktop: TemporaryDesktop
  let bus: PrivateBus

  init() throws {
    desktop = try TemporaryDesktop(prefix: "share-show-picker")
    bus = try desktop.startBus()
  }

  /// Serves the bus with `sheets`, calls `ShowPicker` for a link, and returns the request's
  /// `Response`; `cancelling` calls the request's `Cancel` first.
  func response(_ sheets: InMemorySheetLauncher, cancelling: Bool = false) throws -> [DBusValue] {
    var configuration = ShareDaemon.Configuration(environment: desktop.environment, idleTimeout: 0)
    configuration.sheets = sheets
    configuration.busAddress = bus.address
    let stopHandle = Mutex<StopHandle?>(nil)
    let ready = DispatchSemaphore(value: 0)
    let ended = DispatchSemaphore(value: 0)
    DetachedThread.start { [configuration] in
      defer { ended.signal() }
      guard let daemon = try? ShareDaemon(configuration: configuration) else {
        ready.signal()
        return
      }
      stopHandle.withLock { $0 = daemon.stopHandle }
      ready.signal()
      _ = daemon.run()
    }
    ready.wait()
    let stop = try #require(stopHandle.withLock { $0 }, "the service did not start")
    defer {
      stop.stop()
      #expect(ended.wait(timeout: .now() + 30) == .success)
    }
    let client = try BusConnection.connect(address: bus.address)
    try client.addMatch("type='signal',interface='org.xdgshare.Request1',member='Response'")
    let reply = try call(
      client, "ShowPicker",
      [.string(""), DaemonTests.items([[("url", .string("https://example.org/"))]]), DaemonTests.noOptions])
    guard case .objectPath(let path)? = reply.arguments().first else {
      Issue.record("no request handle: \(reply.arguments())")
      return []
    }
    if cancelling {
      _ = try client.call(
        DBusMessage.methodCall(
          destination: ShareDaemon.busName, path: path, interface: ShareDaemon.requestInterface,
          member: "Cancel"),
        timeout: 10)
    }
    let response = try #require(
      client.waitForMessage(timeout: 30) { $0.member == "Response" && $0.path == path })
    #expect(sheets.requests.map(\.items) == [[.webURL("https://example.org/")]])
    return response.arguments()
  }

  static let link = [
    ItemPayload(attachments: [
      AttachmentPayload(typeIdentifiers: ["public.url"], url: "https://example.org/up")
    ])
  ]

  @Test func aShareThatCompletedReturnsWhatTheServiceReturned() throws {
    let sheets = InMemorySheetLauncher(
      answering: .finished(.completed(returningItems: Self.link), requestID: "r1"), serviceID: "org.example.s"
    )
    let returned = DBusValue.array(
      elementSignature: "a{sv}",
      [
        .vardict([
          ("type-identifiers", .array(elementSignature: "s", [.string("public.url")])),
          ("url", .string("https://example.org/up")),
        ])
      ])
    #expect(
      try response(sheets) == [
        .uint32(0),
        .vardict([
          ("service", .string("org.example.s")), ("service-id", .string("org.example.s")),
          ("outcome", .string("completed")), ("request", .string("r1")), ("request-id", .string("r1")),
          ("returned", returned), ("returned-items", returned),
        ]),
      ])
  }

  /// `outcome` and `message` of a share that ended other than completed, with its service and
  /// request.
  static func ended(_ code: UInt32, _ outcome: String, _ message: String) -> [DBusValue] {
    [
      .uint32(code),
      .vardict([
        ("service", .string("org.example.s")), ("service-id", .string("org.example.s")),
        ("outcome", .string(outcome)), ("request", .string("r1")), ("request-id", .string("r1")),
        ("message", .string(message)),
      ]),
    ]
  }

  @Test func theUserCancelling() throws {
    let sheets = InMemorySheetLauncher(
      answering: .finished(
        .cancelled(code: ShareOutcome.userCancelledCode, message: "cancelled"), requestID: "r1"),
      serviceID: "org.example.s")
    #expect(try response(sheets) == Self.ended(1, "cancelled", "cancelled"))
  }

  @Test func theServiceCancellingWithItsReason() throws {
    let sheets = InMemorySheetLauncher(
      answering: .finished(.cancelled(code: 1, message: "not signed in"), requestID: "r1"),
      serviceID: "org.example.s")
    #expect(try response(sheets) == Self.ended(1, "cancelled", "not signed in"))
  }

  @Test func aFailedShare() throws {
    let sheets = InMemorySheetLauncher(
      answering: .finished(.failed(.exitStatus(1)), requestID: "r1"), serviceID: "org.example.s")
    #expect(
      try response(sheets) == Self.ended(2, "failed", "it exited with status 1 without finishing the request")
    )
  }

  @Test func aShareThatTookTooLong() throws {
    let sheets = InMemorySheetLauncher(
      answering: .finished(.timedOut(seconds: 2), requestID: "r1"), serviceID: "org.example.s")
    #expect(
      try response(sheets) == Self.ended(2, "timed-out", "it took longer than 2 seconds and was stopped"))
  }

  @Test func closedBeforeAChoice() throws {
    let sheets = InMemorySheetLauncher(answering: .notChosen(.declined))
    #expect(
      try response(sheets) == [
        .uint32(1),
        .vardict([
          ("outcome", .string("cancelled")), ("message", .string("closed before a service was chosen")),
        ]),
      ])
  }

  /// `Cancel` closes the sheet, which ends without an answer: cancelled.
  @Test func cancelClosesTheSheet() throws {
    let sheets = InMemorySheetLauncher(.waitsForCancel)
    #expect(
      try response(sheets, cancelling: true) == [
        .uint32(1),
        .vardict([("outcome", .string("cancelled")), ("message", .string("the share sheet was closed"))]),
      ])
    #expect(sheets.cancelCount == 1)
  }

  @Test func aSheetThatEndsWithoutAnAnswer() throws {
    let sheets = InMemorySheetLauncher(.ends(.noAnswer(.signalled(Signal.kill))))
    #expect(
      try response(sheets) == [
        .uint32(2),
        .vardict([
          ("outcome", .string("failed")),
          ("message", .string("the share sheet ended without an answer (killed by SIGKILL)")),
        ]),
      ])
  }

  /// A sheet that cannot start is the call's error: no request is made.
  @Test func aSheetThatCannotStartIsTheCallsError() throws {
    let sheets = InMemorySheetLauncher(.cannotStart(.notInstalled))
    let error = try #require(throws: DBusFailure.self) { try response(sheets) }
    #expect(error.name == "org.xdgshare.Share1.Error.Failed")
    #expect(error.message == "the share sheet (xdg-share-sheet) is not installed beside xdg-share")
  }
}
