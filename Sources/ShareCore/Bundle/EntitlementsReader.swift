/// Reads a bundle's `Entitlements.plist`, as Info.plist is read: each problem placed at its value
/// (`file:line:column`), a value of the wrong type an error (the bundle does not load), a key
/// without a meaning here a warning.
extension ManifestReader {
  /// The entitlements the file declares; none when the bundle has no such file.
  mutating func readEntitlements() -> Entitlements {
    // No file: no entitlement, as a bundle that declares nothing. A link to nothing is no file.
    guard let kind = files.kind(of: plistLocation), let root = readRoot(kind) else { return .none }
    var entitlements = Entitlements()
    entitlements.networkClient = flag(root, EntitlementKey.networkClient)
    entitlements.applicationGroups = stringArray(
      root, EntitlementKey.applicationGroups, expected: .applicationGroup, valid: InfoPlistForm.isGroupName)
    entitlements.userSelectedReadWrite = flag(root, EntitlementKey.userSelectedReadWrite)
    for folder in Entitlements.UserFolder.allCases where flag(root, EntitlementKey.key(for: folder)) {
      entitlements.userFolders.insert(folder)
    }
    entitlements.print = flag(root, EntitlementKey.print)
    entitlements.bluetooth = flag(root, EntitlementKey.bluetooth)
    entitlements.sessionBusTalk = stringArray(
      root, EntitlementKey.sessionBusTalk, expected: .busNameOrPrefix, valid: InfoPlistForm.isBusNameFilter)
    entitlements.display = flag(root, EntitlementKey.display)
    entitlements.unconfined = flag(root, EntitlementKey.unconfined)
    for key in root.values.keys.sorted() where !EntitlementKey.all.contains(key) {
      if EntitlementKey.alwaysSo.contains(key) {
        // What is always so here (a sandbox, the items readable): true says nothing new, and a
        // port from Xcode has it; anything else asks for what cannot be.
        if root[key] != .boolean(true) { report(key, in: root, .noMeaningHere(alwaysSo: true), .warning) }
        continue
      }
      // A likely typo of a key that has a meaning; not any key near one (Apple's
      // `….read-only` keys are real keys, not typos of `….read-write`).
      let typo = EntitlementKey.all.first { Suggestion.distance(key, $0) <= 2 }
      report(
        key, in: root, typo.map { .unknownKey(suggestion: $0) } ?? .noMeaningHere(alwaysSo: false), .warning)
    }
    return entitlements
  }

  /// A boolean entitlement, strictly: `<true/>` or `<false/>`, as Apple's are (a string or a
  /// number is an error, not a guess).
  mutating func flag(_ scope: Scope, _ key: String) -> Bool {
    if isUnexpanded(scope[key], key, in: scope) { return false }
    switch scope[key] {
    case nil: return false
    case .boolean(let value)?: return value
    case let other?:
      report(key, in: scope, .unexpectedValue(expected: .boolean, found: other))
      return false
    }
  }
}
