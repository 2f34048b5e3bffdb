import ShareCore
import ShareDBus
import ShareHost
import ShareProtocol

/// What a request's `Response` signal carries: `(u code, a{sv} results)`.
extension RequestTable {
  /// The `Response` of a share that ended so: its code from the outcome table, the request's
  /// id once it was recorded, and what was returned or why it did not complete.
  static func response(_ end: ShareEnd, service: String) -> [DBusValue] {
    var results: [(String, DBusValue)] = [
      ("service", .string(service)), ("outcome", .string(outcome(of: end))),
    ]
    if case .finished(let outcome, let requestID) = end {
      results.append(("request-id", .string(requestID)))
      results.append(("request", .string(requestID)))
      if case .completed(let items) = outcome {
        let returned = DBusValue.array(elementSignature: "a{sv}", items.flatMap(\.attachments).map(returned))
        results.append(("returned-items", returned))
        results.append(("returned", returned))
      }
    }
    if let message = end.message(naming: .identifier) { results.append(("message", .string(message))) }
    return [.uint32(end.response.rawValue), .vardict(results)]
  }

  /// `completed`, `cancelled`, `failed` or `timed-out`: the end as a caller reads it.
  static func outcome(of end: ShareEnd) -> String {
    switch end.exitCode {
    case .success: "completed"
    case .timedOut: "timed-out"
    default:
      switch end.response {
      case .completed: "completed"
      case .cancelled: "cancelled"
      case .ended: "failed"
      }
    }
  }

  static func returned(_ attachment: AttachmentPayload) -> DBusValue {
    var entries: [(String, DBusValue)] = [
      ("type-identifiers", .array(elementSignature: "s", attachment.typeIdentifiers.map(DBusValue.string)))
    ]
    if let url = attachment.url {
      if let path = FilePath(fileURL: url) {
        entries.append(("path", .bytes(path.bytes)))
      } else {
        entries.append(("url", .string(url)))
      }
    }
    if let text = attachment.text { entries.append(("text", .string(text))) }
    return .vardict(entries)
  }
}
