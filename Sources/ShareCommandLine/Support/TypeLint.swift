import ShareCore
import ShareDesktop
import ShareGLib

/// The lint that needs this system's MIME types: a type identifier a rule asks about that no
/// MIME type maps to or conforms to (an Apple UTI Linux lacks, a typo), for `validate` and
/// `install`. Worked out only for rules that name types.
enum TypeLint {
  /// The warnings for `outcome`'s rule, placed at its `NSExtensionActivationRule`.
  static func warnings(for outcome: BundleLoader.Outcome) -> [BundleProblem] {
    guard let service = outcome.service else { return [] }
    var known: Set<String>?
    let unknown = RuleLint.unknownTypes(in: service.rule) { type in
      if known == nil { known = vocabulary() }
      return known?.contains(type.lowercased()) ?? true
    }
    let plist = service.bundleLocation.appending("Info.plist").text
    return unknown.map {
      BundleProblem(
        file: plist, key: InfoPlistKey.activationRule,
        kind: .unknownTypeIdentifier($0.type, clause: $0.clause),
        severity: .warning, position: outcome.rulePosition)
    }
  }

  /// Every type identifier, MIME type and wildcard that some MIME type of this system is or
  /// conforms to.
  private static func vocabulary() -> Set<String> {
    let types = SharedMIMEDatabase.typeSystem()
    let catalog = MIMECatalog.load(types: types, mimeDirectories: SharedMIMEDatabase.directories())
    var known = Set(catalog.knownTypes)
    for mimeType in catalog.knownTypes {
      for identifier in types.typeIdentifiers(forMIMEType: mimeType) {
        known.formUnion(types.conformanceClosure(of: identifier))
      }
    }
    // What links and texts are, whatever the MIME database holds.
    for identifier in TypeSystem.webURLIdentifiers + TypeSystem.textIdentifiers {
      known.formUnion(types.conformanceClosure(of: identifier))
    }
    return known
  }
}
