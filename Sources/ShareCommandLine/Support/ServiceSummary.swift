import ShareCore

/// A service as `list --json` prints it.
struct ServiceSummary: Encodable {
  var id: String
  var name: String
  var icon: String
  var description: String?
  var version: String?
  var bundle: String

  init(_ service: ShareService) {
    id = service.id
    name = service.name
    icon = service.icon
    description = service.description
    version = service.version
    bundle = service.bundlePath
  }
}
