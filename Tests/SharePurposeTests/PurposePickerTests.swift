import Dispatch
import ShareCore
import ShareHost
import SharePOSIX
import ShareProtocol
import ShareTestSupport
import Synchronization
import Testing

@testable import SharePurpose

/// KDE's "Share…" (`xdg-share-purpose --picker`) in process, its sheet an in-memory one: the
/// host's side of the socket gets exactly what the job answers for each way the sheet ends.
@Suite struct PurposePickerTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop(prefix: "share-purpose-picker")
  }

  /// Runs the picker job for a link against `sheets`, as Purpose's host would: listens, sends
  /// the job's input once the job connects, reads its lines to the end. What it replied, and
  /// its exit status.
  func pick(_ sheets: InMemorySheetLauncher) throws -> (replies: String, status: Int32) {
    let socket = Array("\(desktop.root)/runtime/purpose-\(UInt32.random(in: 0...UInt32.max))".utf8)
    let listener = try UnixSocket.listen(at: socket)
    defer { listener.close() }
    let environment = desktop.environment
    let status = Mutex<Int32?>(nil)
    let ended = DispatchSemaphore(value: 0)
    DetachedThread.start {
      let code = PurposeJob.run(
        arguments: [Array("--picker".utf8), Array("--server".utf8), socket], environment: environment,
        sheets: sheets)
      status.withLock { $0 = code }
      ended.signal()
    }
    let host = try #require(try listener.accept(timeout: 30))
    defer { host.close() }
    let input = Array(#"{"mimeType":"text/x-uri","urls":["https://example.org/page"]}"#.utf8)
    try host.write(Array("\(input.count)\n".utf8) + input)
    var replies: [UInt8] = []
    while try host.waitReadable(timeout: 30), let chunk = try? host.read(), !chunk.isEmpty {
      replies += chunk
    }
    #expect(ended.wait(timeout: .now() + 30) == .success)
    return (String(decoding: replies, as: UTF8.self), try #require(status.withLock { $0 }))
  }

  static let link = [
    ItemPayload(attachments: [
      AttachmentPayload(typeIdentifiers: ["public.url"], url: "https://example.org/up")
    ])
  ]

  @Test func aShareThatCompletedAnswersTheLinkItReturned() throws {
    let sheets = InMemorySheetLauncher(
      answering: .finished(.completed(returningItems: Self.link), requestID: "r1"), serviceID: "org.example.s"
    )
    let (replies, status) = try pick(sheets)
    #expect(replies == #"{"output":{"url":"https://example.org/up"}}"# + "\n")
    #expect(status == 0)
    #expect(sheets.requests == [SheetRequest(items: [.webURL("https://example.org/page")])])
  }

  @Test func theUserCancellingIsACancel() throws {
    let (replies, status) = try pick(
      InMemorySheetLauncher(
        answering: .finished(
          .cancelled(code: ShareOutcome.userCancelledCode, message: "cancelled"), requestID: "r1"),
        serviceID: "org.example.s"))
    #expect(replies == #"{"error":1,"errorText":"cancelled"}"# + "\n")
    #expect(status == 3)
  }

  /// The sheet showed the service's reason itself: a cancel stays a cancel.
  @Test func theServiceCancellingWithAReasonIsACancelWithItsWords() throws {
    let (replies, status) = try pick(
      InMemorySheetLauncher(
        answering: .finished(.cancelled(code: 1, message: "not signed in"), requestID: "r1"),
        serviceID: "org.example.s"))
    #expect(replies == #"{"error":1,"errorText":"not signed in"}"# + "\n")
    #expect(status == 3)
  }

  @Test func aFailedShareIsAFailureWithItsWords() throws {
    let (replies, status) = try pick(
      InMemorySheetLauncher(
        answering: .finished(.failed(.exitStatus(1)), requestID: "r1"), serviceID: "org.example.s"))
    #expect(
      replies == #"{"error":100,"errorText":"it exited with status 1 without finishing the request"}"# + "\n")
    #expect(status == 4)
  }

  @Test func aSheetThatCannotStartIsAFailure() throws {
    let sheets = InMemorySheetLauncher(.cannotStart(.notInstalled))
    let (replies, status) = try pick(sheets)
    #expect(
      replies
        == #"{"error":100,"errorText":"the share sheet (xdg-share-sheet) is not installed beside xdg-share"}"#
        + "\n")
    #expect(status == 1)
    #expect(sheets.requests.count == 1)
  }

  @Test(arguments: [SheetSession.End.closed, .noAnswer(.signalled(Signal.kill))])
  func aSheetThatEndsWithoutAnAnswerIsAFailure(_ end: SheetSession.End) throws {
    let (replies, status) = try pick(InMemorySheetLauncher(.ends(end)))
    #expect(replies == #"{"error":100,"errorText":"the share sheet ended without an answer"}"# + "\n")
    #expect(status == 1)
  }
}
