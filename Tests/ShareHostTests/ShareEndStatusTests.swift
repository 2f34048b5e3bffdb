import Foundation
import ShareCore
import ShareHost
import SharePOSIX
import ShareProtocol
import Testing

/// The one table of status words: each end's word in each medium, as each has always said it, and
/// the same status whether a front end holds the `ShareEnd` or reads it back from the sheet.
@Suite struct ShareEndStatusTests {
  /// An end, then its D-Bus `outcome`, `--json` `status` and Web Share `outcome`.
  static let table: [(ShareEnd, dbus: String, commandLine: String, webShare: String)] = [
    (.finished(.completed(returningItems: []), requestID: "r"), "completed", "completed", "completed"),
    (
      .finished(.cancelled(code: ShareOutcome.userCancelledCode, message: "cancelled"), requestID: "r"),
      "cancelled", "cancelled", "cancelled"
    ),
    (
      .finished(.cancelled(code: 1, message: "not signed in"), requestID: "r"), "cancelled", "cancelled",
      "cancelled"
    ),
    (.finished(.failed(.exitStatus(1)), requestID: "r"), "failed", "failed", "failed"),
    (.finished(.timedOut(seconds: 1), requestID: "r"), "timed-out", "timed-out", "failed"),
    // What exit status 6 says (issue 32).
    (.refused(.noSuchService("x")), "failed", "no-such-service", "failed"),
    (.refused(.noSuchTarget("t", service: "s", known: [])), "failed", "no-such-service", "failed"),
    (.refused(.unreadableFiles([])), "failed", "refused", "failed"),
    (.composeCancelled, "cancelled", "cancelled", "cancelled"),
    (.composeFailed(.tooLong(characters: 3, maximum: 2)), "failed", "refused", "failed"),
    (.noServiceAccepts(itemCount: 2), "failed", "refused", "no-service"),
    (.notChosen(.declined), "cancelled", "cancelled", "cancelled"),
    (.notChosen(.noOneToAsk), "failed", "failed", "failed"),
  ]

  @Test func eachEndInEachMediumsWord() {
    for (end, dbus, commandLine, webShare) in Self.table {
      #expect(end.status.word(in: .dbus) == dbus, "\(end)")
      #expect(end.status.word(in: .commandLine) == commandLine, "\(end)")
      #expect(end.status.word(in: .webShare) == webShare, "\(end)")
    }
  }

  /// The history's words are the command line's for a share that ran.
  @Test func aShareThatRanIsNamedAsTheHistoryNamesIt() {
    for (end, _, commandLine, _) in Self.table {
      if let status = end.historyStatus { #expect(status.rawValue == commandLine, "\(end)") }
    }
  }

  /// Only a service's own cancel that says why is a failure for KDE Purpose.
  @Test func purposeShowsAServicesReasonToCancelAsAFailure() {
    for (end, _, _, _) in Self.table {
      let expected: ShareEnd.Status =
        end == .finished(.cancelled(code: 1, message: "not signed in"), requestID: "r") ? .failed : end.status
      #expect(end.purposeStatus == expected, "\(end)")
    }
    #expect(ShareEnd.finished(.cancelled(code: 1, message: ""), requestID: "r").purposeStatus == .cancelled)
  }

  /// What the sheet writes of an end is read back as the same status, with its service, request,
  /// returned items and words.
  @Test func theSheetsAnswerReadBackIsTheEndItWasMadeFrom() throws {
    let returned = [
      ItemPayload(attachments: [
        AttachmentPayload(typeIdentifiers: ["public.url"], url: "https://example.org/up")
      ])
    ]
    for (end, _, _, _) in Self.table + [
      (.finished(.completed(returningItems: returned), requestID: "r"), "", "", "")
    ] {
      let written = SheetAnswer(end, serviceID: "org.example.s")
      let line = SheetResultLine(
        exitStatus: written.exitCode.rawValue, response: written.response.rawValue,
        results: .init(
          serviceID: written.serviceID, requestID: written.requestID, message: written.message,
          returnedItems: written.returnedItems))
      let output = Array(try JSONEncoder().encode(line)) + [UInt8(ascii: "\n")]
      let read = SheetSession.end(output, termination: .exited(written.exitCode.rawValue))
      #expect(read == .answered(written, .exited(written.exitCode.rawValue)), "\(end)")
      #expect(read.status == end.status, "\(end)")
      #expect(read.response == end.response, "\(end)")
      #expect(read.message == end.message(), "\(end)")
    }
  }

  @Test func aSheetWithoutAnAnswer() {
    #expect(SheetSession.end(Array("not json\n".utf8), termination: .signalled(Signal.terminate)) == .closed)
    #expect(SheetSession.End.closed.status == .cancelled)
    #expect(SheetSession.End.closed.response == .cancelled)
    #expect(SheetSession.End.closed.message == "the share sheet was closed")
    let killed = SheetSession.end([], termination: .signalled(Signal.kill))
    #expect(killed == .noAnswer(.signalled(Signal.kill)))
    #expect(killed.status == .failed)
    #expect(killed.message == "the share sheet ended without an answer (killed by SIGKILL)")
    // A `response` no `Response` has is no answer.
    let odd = Array(#"{"exit-status":0,"response":7,"results":{}}"#.utf8)
    #expect(SheetSession.end(odd, termination: .exited(0)) == .noAnswer(.exited(0)))
  }

  @Test func whyTheSheetCannotStartIsWordedOnce() {
    #expect(
      SheetSession.StartError.notInstalled.message
        == "the share sheet (xdg-share-sheet) is not installed beside xdg-share")
    #expect(
      SheetSession.StartError.cannotStart(program: "/x/sheet", reason: "Permission denied").message
        == "cannot start the share sheet /x/sheet: Permission denied")
  }
}
