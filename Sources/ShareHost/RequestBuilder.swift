import FoundationEssentials
public import ShareCore
public import ShareProtocol

/// Turns a selection's attachments into the request a plugin reads.
public enum RequestBuilder {
  public static func request(
    id: String, service: ShareService, attachments: [Attachment], userInfo: [String: JSONValue] = [:],
    compose: ComposePayload? = nil, target: TargetPayload? = nil
  ) -> PluginRequest {
    var texts: [String] = []
    let payloads = attachments.map { attachment -> AttachmentPayload in
      switch attachment.item {
      case .file(let path):
        return AttachmentPayload(
          typeIdentifiers: attachment.typeIdentifiers, url: path.fileURL, path: path.string,
          name: String(decoding: path.lastComponent, as: UTF8.self), size: attachment.file?.size)
      case .webURL(let url):
        return AttachmentPayload(typeIdentifiers: attachment.typeIdentifiers, url: url)
      case .text(let text):
        texts.append(text)
        return AttachmentPayload(typeIdentifiers: attachment.typeIdentifiers, text: text)
      }
    }
    let item = ItemPayload(
      attributedContentText: texts.isEmpty ? nil : texts.joined(separator: "\n"), attachments: payloads)
    return PluginRequest(
      requestId: id, serviceId: service.id, inputItems: [item], userInfo: userInfo, compose: compose,
      target: target)
  }

  /// A new request identifier: a lowercase UUID.
  public static func newRequestID() -> String {
    UUID().uuidString.lowercased()
  }
}
