/// `NSExtension`: the extension point, and the activation rule in `NSExtensionAttributes`. Its other
/// keys (`NSExtensionPrincipalClass`, `NSExtensionMainStoryboard`…) are iOS's business and are
/// not looked at: xdg-share runs the bundle's `CFBundleExecutable`.
extension ManifestReader {
  /// The kind the extension point declares and the activation rule; `nil` for what is missing or
  /// wrong, which is then reported.
  mutating func extensionDictionary(in root: Scope) -> (ShareService.Kind?, ActivationRule?) {
    guard let extensionValue = root[InfoPlistKey.extensionDictionary] else {
      report(InfoPlistKey.extensionDictionary, in: root, .missingKey(expected: .dictionary))
      return (nil, nil)
    }
    guard let extensionValues = extensionValue.dictionaryValue else {
      report(
        InfoPlistKey.extensionDictionary, in: root,
        .unexpectedValue(expected: .dictionary, found: extensionValue))
      return (nil, nil)
    }
    let nsExtension = root.nested(InfoPlistKey.extensionDictionary, extensionValues)
    return (kind(in: nsExtension), activationRule(in: nsExtension))
  }

  /// Share or action, from `NSExtensionPointIdentifier`; any other extension point is an error.
  mutating func kind(in nsExtension: Scope) -> ShareService.Kind? {
    let key = InfoPlistKey.extensionPoint
    let expected = BundleProblem.Expectation.oneOf(InfoPlistKey.extensionPoints)
    guard let value = nsExtension[key] else {
      report(key, in: nsExtension, .missingKey(expected: expected))
      return nil
    }
    if isUnexpanded(value, key, in: nsExtension) { return nil }
    if case .string(let point) = value, let kind = ShareService.Kind(extensionPoint: point) { return kind }
    report(key, in: nsExtension, .unexpectedValue(expected: expected, found: value))
    return nil
  }

  mutating func activationRule(in nsExtension: Scope) -> ActivationRule? {
    // iOS 8 ran extensions without attributes for everything; so does xdg-share, with a warning.
    guard let attributesValue = nsExtension[InfoPlistKey.extensionAttributes] else {
      report(InfoPlistKey.extensionAttributes, in: nsExtension, .offeredForEverything, .warning)
      return .predicate(.constant(true))
    }
    guard let attributeValues = attributesValue.dictionaryValue else {
      report(
        InfoPlistKey.extensionAttributes, in: nsExtension,
        .unexpectedValue(expected: .dictionary, found: attributesValue))
      return nil
    }
    let attributes = nsExtension.nested(InfoPlistKey.extensionAttributes, attributeValues)
    rulePosition = document?.positions[attributes.path + [InfoPlistKey.activationRule]]
    if isUnexpanded(attributes[InfoPlistKey.activationRule], InfoPlistKey.activationRule, in: attributes) {
      return nil
    }
    switch attributes[InfoPlistKey.activationRule] {
    case nil:
      report(InfoPlistKey.activationRule, in: attributes, .missingKey(expected: .ruleDictionaryOrPredicate))
      return nil
    case .string(let source)?:
      do {
        let predicate = try PredicateParser.parse(source)
        lint(.predicate(predicate), attributes)
        return .predicate(predicate)
      } catch {
        // In an XML Info.plist, at the mistake itself, however many lines and entities before it.
        let path = attributes.path + [InfoPlistKey.activationRule]
        if let place = document?.position(ofByte: error.offset(in: source), inStringAt: path) {
          problems.append(
            BundleProblem(
              file: plistPath, key: InfoPlistKey.activationRule, kind: .predicateSyntax(error, placed: true),
              position: place))
        } else {
          report(InfoPlistKey.activationRule, in: attributes, .predicateSyntax(error))
        }
        return nil
      }
    case .dictionary(let dictionary)?:
      return dictionaryRule(attributes, attributes.nested(InfoPlistKey.activationRule, dictionary))
    case let other?:
      report(
        InfoPlistKey.activationRule, in: attributes,
        .unexpectedValue(expected: .ruleDictionaryOrPredicate, found: other))
      return nil
    }
  }

  /// The dictionary form of the rule. A key it does not know is a warning, as on iOS, which
  /// installs such extensions (shipped apps carry `NSExtensionActivationSupportsPlainText`).
  /// Xcode's undocumented nested `NSExtensionActivationRule` (`TRUEPREDICATE`, in extensions made
  /// with Xcode 6) is a warning of its own: it is ignored, and the real keys decide.
  mutating func dictionaryRule(_ attributes: Scope, _ rule: Scope) -> ActivationRule? {
    let errorsBefore = problems.count { $0.severity == .error }
    typealias Key = InfoPlistKey.Rule
    for key in rule.values.keys.sorted() where !Key.all.contains(key) {
      if key == InfoPlistKey.activationRule, let value = rule[key] {
        report(key, in: rule, .ignoredNestedRule(found: value), .warning)
        continue
      }
      report(key, in: rule, .unknownKey(suggestion: Suggestion.nearest(to: key, in: Key.all)), .warning)
    }
    let result = DictionaryRule(
      maxAttachments: count(rule, Key.maxAttachments), minAttachments: count(rule, Key.minAttachments),
      maxFiles: count(rule, Key.maxFiles), maxImages: count(rule, Key.maxImages),
      maxMovies: count(rule, Key.maxMovies), supportsText: boolean(rule, Key.supportsText) ?? false,
      maxWebURLs: count(rule, Key.maxWebURLs), maxWebPages: count(rule, Key.maxWebPages),
      version: count(rule, Key.version) ?? 1, usesStrictMatching: boolean(rule, Key.strictMatching) ?? false)
    guard problems.count(where: { $0.severity == .error }) == errorsBefore else { return nil }
    let counts = [
      result.maxAttachments, result.maxFiles, result.maxImages, result.maxMovies, result.maxWebURLs,
      result.maxWebPages,
    ]
    if !result.supportsText, counts.allSatisfy({ ($0 ?? 0) == 0 }) {
      report(InfoPlistKey.activationRule, in: attributes, .acceptsNothing, .warning)
    } else {
      lint(.dictionary(result), attributes)
    }
    return .dictionary(result)
  }

  /// Warns of a rule that accepts nothing or everything (``RuleLint``).
  mutating func lint(_ rule: ActivationRule, _ attributes: Scope) {
    if rule == .predicate(.constant(false)) {
      report(InfoPlistKey.activationRule, in: attributes, .acceptsNothing, .warning)
    } else if let (clause, reason) = RuleLint.neverAccepts(rule) {
      report(
        InfoPlistKey.activationRule, in: attributes, .ruleNeverHolds(clause: clause, reason: reason), .warning
      )
    } else if RuleLint.acceptsEverything(rule), case .predicate(let predicate) = rule {
      report(
        InfoPlistKey.activationRule, in: attributes, .acceptsEverything(clause: predicate.source), .warning)
    }
  }
}
