import ShareCore
import ShareHost

/// A service as `list --json` prints it: its public fields, and the bundle's folder. A folder
/// whose path is not UTF-8 is `bundle` with escapes (``FilePath/text``) and `bundleURL` as a
/// `file://` URL that keeps every byte; a UTF-8 one is `bundle` alone, as it always was.
struct ServiceSummary {
  var fields: [String: String]

  init(_ service: ShareService) {
    fields = Dictionary(uniqueKeysWithValues: service.publicFields.map { ($0.field.rawValue, $0.value) })
    fields["bundle"] = service.bundlePath
    if service.bundleLocation.string == nil { fields["bundleURL"] = service.bundleLocation.fileURL }
  }
}
