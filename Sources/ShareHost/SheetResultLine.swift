public import ShareProtocol

/// The one line of JSON the share sheet writes on `--result-fd` as it ends, and the front ends
/// that started it read as a ``SheetAnswer`` (``SheetSession``): the shape of `Response(u
/// response, a{sv} results)`, with the sheet's exit status beside it. Defined once here, so
/// writer and reader agree.
///
/// ```json
/// {"exit-status":0,"response":0,"results":{"request-id":"…","returned-items":[…],"service-id":"…"}}
/// ```
public struct SheetResultLine: Codable, Equatable, Sendable {
  /// The sheet's exit status, as `xdg-share`'s.
  public var exitStatus: Int32
  /// 0 completed, 1 cancelled, 2 failed.
  public var response: UInt32
  public var results: Results

  public struct Results: Codable, Equatable, Sendable {
    public var serviceID: String?
    public var requestID: String?
    /// Why it did not complete, in English.
    public var message: String?
    /// What the service returned, each attachment as the plugin protocol writes it.
    public var returnedItems: [AttachmentPayload]?

    public init(
      serviceID: String? = nil, requestID: String? = nil, message: String? = nil,
      returnedItems: [AttachmentPayload]? = nil
    ) {
      self.serviceID = serviceID
      self.requestID = requestID
      self.message = message
      self.returnedItems = returnedItems
    }

    enum CodingKeys: String, CodingKey {
      case serviceID = "service-id", requestID = "request-id", message, returnedItems = "returned-items"
    }
  }

  public init(exitStatus: Int32, response: UInt32, results: Results) {
    self.exitStatus = exitStatus
    self.response = response
    self.results = results
  }

  enum CodingKeys: String, CodingKey {
    case exitStatus = "exit-status", response, results
  }
}
