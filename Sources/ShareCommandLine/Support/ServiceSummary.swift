import ShareCore
import ShareHost

/// A service as `list --json` prints it: its public fields, and the bundle's folder.
struct ServiceSummary: Encodable {
  var fields: [String: String]

  init(_ service: ShareService) {
    fields = Dictionary(uniqueKeysWithValues: service.publicFields.map { ($0.field.rawValue, $0.value) })
    fields["bundle"] = service.bundlePath
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(fields)
  }
}
