import ShareCore
import ShareDBus
import ShareHost
import ShareProtocol

/// What a request's `Response` signal carries: `(u code, a{sv} results)`.
extension RequestTable {
  static func response(_ outcome: ShareOutcome, requestID: String) -> [DBusValue] {
    var results: [(String, DBusValue)] = [("request-id", .string(requestID))]
    let code: UInt32
    switch outcome {
    case .completed(let items):
      code = 0
      results.append(
        ("returned-items", .array(elementSignature: "a{sv}", items.flatMap(\.attachments).map(returned))))
    case .cancelled(_, let message):
      code = 1
      results.append(("message", .string(message)))
    case .failed(let failure):
      code = 2
      results.append(("message", .string(failure.message)))
    case .timedOut(let seconds):
      code = 2
      results.append(("message", .string(ShareOutcome.timedOutMessage("it", seconds: seconds))))
    }
    return [.uint32(code), .vardict(results)]
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
