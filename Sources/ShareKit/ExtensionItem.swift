public import ShareProtocol

/// One item of a request: optional text and the attachments, as Apple's `NSExtensionItem`.
public struct ExtensionItem: Sendable {
  /// A title for the item. The host sends none, so it is `nil` for input items.
  public var attributedTitle: String?
  /// The item's text: for input items, every shared text joined by newlines, or `nil`.
  public var attributedContentText: String?
  /// The shared files, links and texts, one provider each.
  public var attachments: [ItemProvider]
  /// Extra information. The host sends none, and returned items' `userInfo` stays in the
  /// extension.
  public var userInfo: [String: JSONValue]

  /// An item to return from ``ExtensionContext/completeRequest(returningItems:)``.
  ///
  /// Only the content text and the attachments reach the host.
  public init(
    attributedTitle: String? = nil, attributedContentText: String? = nil, attachments: [ItemProvider] = [],
    userInfo: [String: JSONValue] = [:]
  ) {
    self.attributedTitle = attributedTitle
    self.attributedContentText = attributedContentText
    self.attachments = attachments
    self.userInfo = userInfo
  }

  init(payload: ItemPayload) {
    self.init(
      attributedContentText: payload.attributedContentText,
      attachments: payload.attachments.map(ItemProvider.init(payload:)))
  }

  /// The item as the protocol sends it.
  var payload: ItemPayload {
    ItemPayload(attributedContentText: attributedContentText, attachments: attachments.map(\.payload))
  }
}

/// Any JSON value, for `userInfo` and the shared defaults; re-exported here so that an extension
/// needs no import but ShareKit's.
public typealias JSONValue = ShareProtocol.JSONValue
