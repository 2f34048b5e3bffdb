/// One line a plugin writes on its standard output.
public enum PluginEvent: Equatable, Sendable {
  /// `{"progress": 0.42, "message": "…"}`: the fraction done (0…1) and what is happening.
  case progress(fraction: Double?, message: String?)
  /// `{"posted": {}}`: the user has posted and the extension's sheet is gone; the work goes on
  /// in the background. Not final: a `complete` or `cancel` still ends the request.
  case posted
  /// `{"complete": {"returningItems": […]}}`.
  case complete(returningItems: [ItemPayload])
  /// `{"cancel": {"error": {"code": …, "message": "…"}}}`: the user cancelled, or must act first.
  case cancel(code: Int, message: String)
  /// `{"fail": {"error": {"code": …, "message": "…"}}}`: the service or its server failed (down,
  /// refused, 5xx, disk full).
  case fail(code: Int, message: String)

  public var isFinal: Bool {
    switch self {
    case .progress, .posted: false
    case .complete, .cancel, .fail: true
    }
  }
}

extension PluginEvent: Codable {
  private enum Keys: String, CodingKey {
    case progress, message, posted, complete, cancel, fail
  }
  private enum CompleteKeys: String, CodingKey {
    case returningItems
  }
  private enum CancelKeys: String, CodingKey {
    case error
  }
  private struct ErrorPayload: Codable {
    var code: Int?
    var message: String?
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    if container.contains(.complete) {
      let complete = try container.nestedContainer(keyedBy: CompleteKeys.self, forKey: .complete)
      self = .complete(
        returningItems: try complete.decodeIfPresent([ItemPayload].self, forKey: .returningItems) ?? [])
    } else if container.contains(.cancel) {
      let cancel = try container.nestedContainer(keyedBy: CancelKeys.self, forKey: .cancel)
      let error = try cancel.decodeIfPresent(ErrorPayload.self, forKey: .error)
      self = .cancel(code: error?.code ?? 0, message: error?.message ?? "")
    } else if container.contains(.fail) {
      let fail = try container.nestedContainer(keyedBy: CancelKeys.self, forKey: .fail)
      let error = try fail.decodeIfPresent(ErrorPayload.self, forKey: .error)
      self = .fail(code: error?.code ?? 0, message: error?.message ?? "")
    } else if container.contains(.posted) {
      self = .posted
    } else if container.contains(.progress) || container.contains(.message) {
      let fraction = try container.decodeIfPresent(Double.self, forKey: .progress)
      if let fraction, !(0...1).contains(fraction) || fraction.isNaN {
        throw DecodingError.dataCorruptedError(
          forKey: .progress, in: container, debugDescription: "progress must lie between 0 and 1")
      }
      self = .progress(
        fraction: fraction, message: try container.decodeIfPresent(String.self, forKey: .message))
    } else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: [], debugDescription: "expected progress, posted, complete, cancel or fail"))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    switch self {
    case .progress(let fraction, let message):
      try container.encodeIfPresent(fraction, forKey: .progress)
      try container.encodeIfPresent(message, forKey: .message)
    case .posted:
      _ = container.nestedContainer(keyedBy: CompleteKeys.self, forKey: .posted)
    case .complete(let items):
      var complete = container.nestedContainer(keyedBy: CompleteKeys.self, forKey: .complete)
      try complete.encode(items, forKey: .returningItems)
    case .cancel(let code, let message):
      var cancel = container.nestedContainer(keyedBy: CancelKeys.self, forKey: .cancel)
      try cancel.encode(ErrorPayload(code: code, message: message), forKey: .error)
    case .fail(let code, let message):
      var fail = container.nestedContainer(keyedBy: CancelKeys.self, forKey: .fail)
      try fail.encode(ErrorPayload(code: code, message: message), forKey: .error)
    }
  }
}
