import ShareCore
import ShareHost

/// A service as `list --json` prints it: its public fields, and the bundle's folder. A folder
/// whose path is not UTF-8 is `bundle` with escapes (``FilePath/text``) and `bundleURL` as a
/// `file://` URL that keeps every byte; a UTF-8 one is `bundle` alone, as it always was. Its
/// `entitlements` are an object of Apple's key names, `{}` for none.
struct ServiceSummary {
  var fields: [String: String]
  var entitlements: Entitlements
  /// Its direct targets, each `{"id", "title", "subtitle", "icon"}`; the key is left out when
  /// it has none.
  var targets: [DirectTarget] = []

  init(_ service: ShareService, targets: [DirectTarget] = []) {
    fields = Dictionary(uniqueKeysWithValues: service.publicFields.map { ($0.field.rawValue, $0.value) })
    fields["bundle"] = service.bundlePath
    if service.bundleLocation.string == nil { fields["bundleURL"] = service.bundleLocation.fileURL }
    self.targets = targets
    entitlements = service.entitlements
  }

  /// The object `list --json` prints.
  var report: [String: ReportValue] {
    var object = fields.mapValues(ReportValue.string)
    object["entitlements"] = .object(entitlements.report)
    if !targets.isEmpty {
      object["targets"] = .objects(
        targets.map { target in
          var entry: [String: ReportValue] = ["id": .string(target.id), "title": .string(target.title)]
          if let subtitle = target.subtitle { entry["subtitle"] = .string(subtitle) }
          if let icon = target.icon { entry["icon"] = .string(icon) }
          return entry
        })
    }
    return object
  }
}
