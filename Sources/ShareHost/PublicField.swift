public import ShareCore

/// The keys of a service as applications see it. `xdg-share list --json` and the D-Bus service's
/// dictionaries are both made from this one list, so they cannot disagree.
public enum PublicField: String, CaseIterable, Sendable {
  case id, name, icon, description, version
}

extension ShareService {
  /// The public fields this service has, in ``PublicField`` order; `description` and `version`
  /// only when the bundle gives them.
  public var publicFields: [(field: PublicField, value: String)] {
    PublicField.allCases.compactMap { field in
      let value: String? =
        switch field {
        case .id: id
        case .name: name
        case .icon: icon
        case .description: description
        case .version: version
        }
      return value.map { (field, $0) }
    }
  }
}
