/// The one JSON object the host writes on a plugin's standard input (`docs/plugin-protocol.md`).
public struct PluginRequest: Codable, Equatable, Sendable {
  /// The protocol version; this is version 1.
  public var version: Int
  public var requestId: String
  public var serviceId: String
  public var inputItems: [ItemPayload]
  public var userInfo: [String: JSONValue]
  /// What the user wrote and chose in the compose sheet the bundle declares
  /// (`XDGShareComposeSheet`); absent for a service that declares none.
  public var compose: ComposePayload?
  /// The direct target the user chose, one the service published; absent when the user chose
  /// the service itself.
  public var target: TargetPayload?

  public static let currentVersion = 1

  public init(
    requestId: String, serviceId: String, inputItems: [ItemPayload], userInfo: [String: JSONValue] = [:],
    compose: ComposePayload? = nil, target: TargetPayload? = nil
  ) {
    self.version = Self.currentVersion
    self.requestId = requestId
    self.serviceId = serviceId
    self.inputItems = inputItems
    self.userInfo = userInfo
    self.compose = compose
    self.target = target
  }
}

/// The request's `target`: the direct target chosen, as its service published it,
/// `{"id": "…", "title": "…", "subtitle": "…"}`.
public struct TargetPayload: Codable, Equatable, Sendable {
  public var id: String
  public var title: String
  public var subtitle: String?

  public init(id: String, title: String, subtitle: String? = nil) {
    self.id = id
    self.title = title
    self.subtitle = subtitle
  }
}

/// The request's `compose` object: the compose sheet's text and the configuration items' values,
/// `{"contentText": "…", "configuration": {"<Identifier>": "<value>"}}`.
public struct ComposePayload: Codable, Equatable, Sendable {
  /// The text as the user left it in the sheet.
  public var contentText: String
  /// Each configuration item's value, by its `Identifier`.
  public var configuration: [String: String]

  public init(contentText: String, configuration: [String: String] = [:]) {
    self.contentText = contentText
    self.configuration = configuration
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    contentText = try container.decodeIfPresent(String.self, forKey: .contentText) ?? ""
    configuration = try container.decodeIfPresent([String: String].self, forKey: .configuration) ?? [:]
  }
}

/// An extension item: optional text and attachments.
public struct ItemPayload: Codable, Equatable, Sendable {
  public var attributedContentText: String?
  public var attachments: [AttachmentPayload]

  public init(attributedContentText: String? = nil, attachments: [AttachmentPayload]) {
    self.attributedContentText = attributedContentText
    self.attachments = attachments
  }
}

// The schema (data/plugin-protocol.schema.json) makes `userInfo` and `attachments` optional: a
// request or an item written by hand, or by a program in another language, may leave them out.
extension PluginRequest {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    version = try container.decode(Int.self, forKey: .version)
    requestId = try container.decode(String.self, forKey: .requestId)
    serviceId = try container.decode(String.self, forKey: .serviceId)
    inputItems = try container.decode([ItemPayload].self, forKey: .inputItems)
    userInfo = try container.decodeIfPresent([String: JSONValue].self, forKey: .userInfo) ?? [:]
    compose = try container.decodeIfPresent(ComposePayload.self, forKey: .compose)
    target = try container.decodeIfPresent(TargetPayload.self, forKey: .target)
  }
}

extension ItemPayload {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    attributedContentText = try container.decodeIfPresent(String.self, forKey: .attributedContentText)
    attachments = try container.decodeIfPresent([AttachmentPayload].self, forKey: .attachments) ?? []
  }
}

/// One attachment: a file, a link or a text, with its type identifiers.
///
/// A file has `url` (a `file://` URL percent-encoded byte by byte, so every name survives), `path`
/// (only when the name is valid UTF-8), `name` (for display) and `size`. A link has `url`; a text
/// has `text`.
public struct AttachmentPayload: Codable, Equatable, Sendable {
  public var typeIdentifiers: [String]
  public var url: String?
  public var path: String?
  public var name: String?
  public var size: UInt64?
  public var text: String?

  public init(
    typeIdentifiers: [String], url: String? = nil, path: String? = nil, name: String? = nil,
    size: UInt64? = nil,
    text: String? = nil
  ) {
    self.typeIdentifiers = typeIdentifiers
    self.url = url
    self.path = path
    self.name = name
    self.size = size
    self.text = text
  }

  /// Whether this attachment is a local file.
  public var isFile: Bool { url?.hasPrefix("file://") ?? false }
}
