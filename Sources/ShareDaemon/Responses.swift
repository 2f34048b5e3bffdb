import ShareCore
import ShareDBus
import ShareHost
import ShareProtocol

/// What a request's `Response` signal carries, `(u code, a{sv} results)`, for `Share` and
/// `ShowPicker` alike: the one place its keys are written (data/org.xdgshare.Request1.xml,
/// `ShowPicker` in data/org.xdgshare.Share1.xml).
struct ResponseResults {
  /// The method whose request it ends. Each writes every value under its version 3 name and
  /// its older one (`request-id`, `returned-items`; `ShowPicker` also `service-id`), in the
  /// order it always has: `Share` the older name first, `ShowPicker` the newer.
  enum Method {
    case share
    case showPicker
  }

  var response: ShareEnd.Response
  var status: ShareEnd.Status
  /// The service chosen, once there is one.
  var service: String?
  /// The request's id in the history, once it was recorded.
  var requestID: String?
  /// What the service returned (code 0).
  var returned: [AttachmentPayload]
  /// Why it did not complete (codes 1 and 2).
  var message: String?

  /// The results of a share that ended so, with `service`.
  init(_ end: ShareEnd, service: String) {
    self.init(
      response: end.response, status: end.status, service: service, requestID: end.requestID,
      returned: end.returnedAttachments ?? [], message: end.message(naming: .identifier))
  }

  /// The results of a share sheet that ended so.
  init(_ end: SheetSession.End) {
    self.init(
      response: end.response, status: end.status, service: end.answer?.serviceID,
      requestID: end.answer?.requestID, returned: end.answer?.returnedItems ?? [], message: end.message)
  }

  init(
    response: ShareEnd.Response, status: ShareEnd.Status, service: String?, requestID: String?,
    returned: [AttachmentPayload], message: String?
  ) {
    self.response = response
    self.status = status
    self.service = service
    self.requestID = requestID
    self.returned = returned
    self.message = message
  }

  /// The signal's arguments: the code, then the results of `method`'s request.
  func arguments(for method: Method) -> [DBusValue] {
    var results: [(String, DBusValue)] = []
    func add(_ name: String, older: String?, _ value: DBusValue) {
      let names = method == .share ? [older, name] : [name, older]
      for name in names.compactMap(\.self) { results.append((name, value)) }
    }
    if let service { add("service", older: method == .showPicker ? "service-id" : nil, .string(service)) }
    results.append(("outcome", .string(status.word(in: .dbus))))
    if let requestID { add("request", older: "request-id", .string(requestID)) }
    if response == .completed {
      add("returned", older: "returned-items", .array(elementSignature: "a{sv}", returned.map(Self.returned)))
    } else {
      results.append(("message", .string(message ?? "")))
    }
    return [.uint32(response.rawValue), .vardict(results)]
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
