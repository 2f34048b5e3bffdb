import ShareCore
import ShareHost
import SharePOSIX
import ShareProtocol
import ShareTestSupport
import Testing

@testable import ShareWeb

/// The web host's flow in process, its sheet an in-memory one: the one answer the extension gets
/// for each way the sheet ends, byte for byte.
@Suite struct WebShareSheetTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop(prefix: "share-web-sheet")
  }

  /// Serves a page's share of a link against `sheets`; the answer's JSON.
  func serve(_ sheets: InMemorySheetLauncher, browserLetsGo: Bool = false) -> String {
    var messages = [
      Array(#"{"share": {"origin": "https://example.org", "url": "https://example.org/"}}"#.utf8)
    ]
    let answer = WebShareHost.serve(
      read: { () throws(NativeMessaging.ReadError) in messages.isEmpty ? nil : messages.removeFirst() },
      whenInputEnds: { closeSheet in if browserLetsGo { closeSheet() } }, environment: desktop.environment,
      sheets: sheets)
    return String(decoding: answer.json, as: UTF8.self)
  }

  static let returned = [
    ItemPayload(attachments: [
      AttachmentPayload(typeIdentifiers: ["public.url"], url: "https://example.org/up")
    ])
  ]

  @Test func aShareThatCompletedNamesTheServiceAndTheRequest() {
    let sheets = InMemorySheetLauncher(
      answering: .finished(.completed(returningItems: Self.returned), requestID: "r1"),
      serviceID: "org.example.s")
    #expect(serve(sheets) == #"{"outcome":"completed","request":"r1","service":"org.example.s"}"#)
    #expect(
      sheets.requests == [
        SheetRequest(items: [.webURL("https://example.org/")], caller: .site("example.org"))
      ])
  }

  @Test func theUserCancelling() {
    let sheets = InMemorySheetLauncher(
      answering: .finished(
        .cancelled(code: ShareOutcome.userCancelledCode, message: "cancelled"), requestID: "r1"),
      serviceID: "org.example.s")
    #expect(
      serve(sheets)
        == #"{"message":"cancelled","outcome":"cancelled","request":"r1","service":"org.example.s"}"#)
  }

  @Test func theServiceCancellingWithItsReason() {
    let sheets = InMemorySheetLauncher(
      answering: .finished(.cancelled(code: 1, message: "not signed in"), requestID: "r1"),
      serviceID: "org.example.s")
    #expect(
      serve(sheets)
        == #"{"message":"not signed in","outcome":"cancelled","request":"r1","service":"org.example.s"}"#)
  }

  @Test func aFailedShare() {
    let sheets = InMemorySheetLauncher(
      answering: .finished(.failed(.signal(name: "SIGSEGV")), requestID: "r1"), serviceID: "org.example.s")
    #expect(
      serve(sheets)
        == #"{"message":"it was killed by SIGSEGV","outcome":"failed","request":"r1","service":"org.example.s"}"#
    )
  }

  /// A page learns no time limit: a share that ran past it failed.
  @Test func aShareThatTookTooLongFailed() {
    let sheets = InMemorySheetLauncher(
      answering: .finished(.timedOut(seconds: 1), requestID: "r1"), serviceID: "org.example.s")
    #expect(
      serve(sheets)
        == #"{"message":"it took longer than 1 second and was stopped","outcome":"failed","request":"r1","service":"org.example.s"}"#
    )
  }

  @Test func noServiceAcceptingTheItems() {
    let sheets = InMemorySheetLauncher(answering: .noServiceAccepts(itemCount: 1))
    #expect(serve(sheets) == #"{"message":"no installed service accepts this item","outcome":"no-service"}"#)
  }

  @Test func aSheetThatCannotStart() {
    #expect(
      serve(InMemorySheetLauncher(.cannotStart(.notInstalled)))
        == #"{"message":"the share sheet (xdg-share-sheet) is not installed beside xdg-share","outcome":"failed"}"#
    )
    #expect(
      serve(
        InMemorySheetLauncher(.cannotStart(.cannotStart(program: "/x/sheet", reason: "Permission denied"))))
        == #"{"message":"cannot start the share sheet \/x\/sheet: Permission denied","outcome":"failed"}"#)
  }

  /// The browser letting go closes the sheet: a cancel.
  @Test func theBrowserLettingGoClosesTheSheet() {
    let sheets = InMemorySheetLauncher(.waitsForCancel)
    #expect(
      serve(sheets, browserLetsGo: true) == #"{"message":"the share sheet was closed","outcome":"cancelled"}"#
    )
    #expect(sheets.cancelCount == 1)
  }

  @Test func aSheetThatEndsWithoutAnAnswer() {
    #expect(
      serve(InMemorySheetLauncher(.ends(.noAnswer(.exited(9)))))
        == #"{"message":"the share sheet ended without an answer (exit status 9)","outcome":"failed"}"#)
  }
}
