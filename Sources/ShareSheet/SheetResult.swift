import FoundationEssentials
import ShareCore
public import ShareHost
public import ShareProtocol

/// How a picker run ended: its exit status, and the result line written on `--result-fd N`.
///
/// The exit status is `xdg-share`'s: 0 completed, 3 cancelled (also when the window was closed
/// before a choice), 4 the service failed, 5 it ran past its time limit, 7 no service accepts the
/// items, 1 a file cannot be read or the request cannot be recorded, 6 the service is gone, 8 no
/// display to open on (GTK's start-up is asked first, so that it never prints and exits 1).
///
/// The result line is one JSON object and a newline, written once as the picker ends. It has the
/// shape of xdg-desktop-portal's `Response(u response, a{sv} results)`, so that the D-Bus service
/// can pass it on as it is; keys are sorted:
///
/// ```json
/// {"exit-status":0,"response":0,"results":{"request-id":"…","returned-items":[{"typeIdentifiers":["public.url"],"url":"https://…"}],"service-id":"org.example.upload"}}
/// {"exit-status":3,"response":1,"results":{"message":"closed before a service was chosen"}}
/// {"exit-status":3,"response":1,"results":{"message":"not signed in","request-id":"…","service-id":"org.example.upload"}}
/// {"exit-status":4,"response":2,"results":{"message":"it was killed by SIGSEGV","request-id":"…","service-id":"org.example.upload"}}
/// ```
///
/// - `response`: 0 completed; 1 cancelled, by the user (before or after choosing) or by the
///   service; 2 ended any other way (failed, timed out, refused, nothing accepts, unreadable).
/// - `service-id`, `request-id`: once a service was chosen and its request recorded.
/// - `returned-items`: what the service returned, each attachment as the plugin protocol's
///   `AttachmentPayload` (`typeIdentifiers`, `url` — a file as a `file://` URL, every byte kept —,
///   `path`, `name`, `size`, `text`).
/// - `message`: why it did not complete, in English.
public struct SheetResult: Equatable, Sendable {
  public var exitStatus: Int32
  public var response: UInt32
  public var serviceID: String?
  public var requestID: String?
  public var message: String?
  public var returnedItems: [AttachmentPayload]?

  /// The result of a picker that ended so; `serviceID` is the service chosen, if any.
  public init(_ end: ShareEnd, serviceID: String? = nil) {
    // What it says is what a front end reads back (``SheetAnswer``), so both are made alike.
    let answer = SheetAnswer(end, serviceID: serviceID)
    exitStatus = answer.exitCode.rawValue
    response = answer.response.rawValue
    self.serviceID = answer.serviceID
    requestID = answer.requestID
    message = answer.message
    returnedItems = answer.returnedItems
  }

  /// The result line (``SheetResultLine``), newline included.
  public var line: [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let value = SheetResultLine(
      exitStatus: exitStatus, response: response,
      results: .init(
        serviceID: serviceID, requestID: requestID, message: message, returnedItems: returnedItems))
    // Encoding strings, numbers and arrays of them cannot fail.
    return Array((try? encoder.encode(value)) ?? Data("{}".utf8)) + [UInt8(ascii: "\n")]
  }
}
