import Foundation

/// Loads `*.shareext` bundles: reads and checks `Info.plist`, parses the activation rule once,
/// and picks the localized name.
public struct BundleLoader: Sendable {
  /// `.lproj` names to look in, most preferred first (see ``Localization``).
  public var languages: [String]

  public init(languages: [String]) {
    self.languages = languages
  }

  /// The outcome of loading one bundle: the service when it is valid, and every problem found.
  public struct Outcome: Sendable {
    public var service: ShareService?
    public var problems: [BundleProblem]
  }

  /// Loads the bundle at `path`, reporting every problem rather than stopping at the first.
  public func load(bundleAt path: String) -> Outcome {
    var reader = ManifestReader(bundlePath: path)
    let service = reader.read(languages: languages)
    return Outcome(
      service: reader.problems.contains { $0.severity == .error } ? nil : service, problems: reader.problems)
  }
}

/// Reads one Info.plist, collecting problems as it goes.
private struct ManifestReader {
  let bundlePath: String
  let plistPath: String
  var problems: [BundleProblem] = []

  /// The largest Info.plist read; real ones are a few kilobytes.
  static let maximumPlistSize = 1 << 20

  init(bundlePath: String) {
    var trimmed = bundlePath
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    self.bundlePath = trimmed
    self.plistPath = trimmed + "/Info.plist"
  }

  mutating func report(
    _ key: String?, _ kind: BundleProblem.Kind, _ severity: BundleProblem.Severity = .error
  ) {
    problems.append(BundleProblem(file: plistPath, key: key, kind: kind, severity: severity))
  }

  mutating func read(languages: [String]) -> ShareService? {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: bundlePath, isDirectory: &isDirectory)
    guard exists, isDirectory.boolValue else {
      problems.append(BundleProblem(file: bundlePath, kind: .notABundle(exists: exists)))
      return nil
    }
    if !bundlePath.hasSuffix(".shareext") {
      problems.append(BundleProblem(file: bundlePath, kind: .notABundle(), severity: .warning))
    }
    // A FIFO or a huge file named Info.plist must not hold up every reader of the registry. The
    // file a link leads to is what counts (attributesOfItem looks at the link itself).
    let attributes = try? FileManager.default.attributesOfItem(
      atPath: URL(fileURLWithPath: plistPath).resolvingSymlinksInPath().path)
    guard let attributes else {
      report(nil, .missingFile(expected: .fileInBundle, name: "Info.plist"))
      return nil
    }
    guard attributes[.type] as? FileAttributeType == .typeRegular,
      (attributes[.size] as? NSNumber)?.intValue ?? 0 <= Self.maximumPlistSize
    else {
      report(nil, .unreadable("expected a regular file of at most 1 MiB"))
      return nil
    }
    guard let data = FileManager.default.contents(atPath: plistPath) else {
      report(nil, .unreadable("permission denied"))
      return nil
    }
    let root: [String: PropertyListValue]
    do {
      guard let dictionary = try PropertyListValue.parse(data).dictionaryValue else {
        report(nil, .unreadable("the top level is not a dictionary"))
        return nil
      }
      root = dictionary
    } catch {
      report(nil, .unreadable("not a property list"))
      return nil
    }

    let id = identifier(in: root)
    let strings = Localization.strings(inBundle: bundlePath, languages: languages)
    let displayName = string(root, InfoPlistKey.displayName)
    let bundleName = string(root, InfoPlistKey.name)
    if displayName == nil && bundleName == nil {
      report(InfoPlistKey.name, .missingKey(expected: .string))
    }
    let name =
      strings[InfoPlistKey.displayName] ?? strings[InfoPlistKey.name] ?? displayName ?? bundleName ?? id ?? ""
    let executable = executablePath(in: root)
    let icon = icon(in: root)
    let rule = activationRule(in: root)
    let description = strings[InfoPlistKey.description] ?? string(root, InfoPlistKey.description)
    let requirements = Requirements(
      programs: stringArray(
        root, InfoPlistKey.requiredPrograms, expected: .programName, valid: Self.isProgramName),
      busNames: stringArray(root, InfoPlistKey.requiredBusNames, expected: .busName, valid: Self.isBusName))
    let groups = stringArray(root, InfoPlistKey.applicationGroups, expected: .string, valid: Self.isGroupName)
    let timeout = positiveNumber(root, InfoPlistKey.timeout)
    for key in root.keys.sorted() where key.hasPrefix("XDGShare") && !InfoPlistKey.linuxKeys.contains(key) {
      report(key, .unknownKey(suggestion: Suggestion.nearest(to: key, in: InfoPlistKey.linuxKeys)), .warning)
    }

    guard let id, let executable, let rule else { return nil }
    return ShareService(
      id: id, name: name, icon: icon, description: description,
      version: string(root, InfoPlistKey.shortVersion),
      bundlePath: bundlePath, executablePath: executable, rule: rule, requirements: requirements,
      timeout: timeout, applicationGroups: groups)
  }

  // MARK: Keys

  mutating func identifier(in root: [String: PropertyListValue]) -> String? {
    guard let value = root[InfoPlistKey.identifier] else {
      report(InfoPlistKey.identifier, .missingKey(expected: .bundleIdentifier))
      return nil
    }
    guard case .string(let id) = value, Self.isBundleIdentifier(id) else {
      report(InfoPlistKey.identifier, .unexpectedValue(expected: .bundleIdentifier, found: value))
      return nil
    }
    return id
  }

  mutating func executablePath(in root: [String: PropertyListValue]) -> String? {
    guard let name = requiredString(root, InfoPlistKey.executable) else { return nil }
    guard Self.isRelativeInside(name) else {
      report(
        InfoPlistKey.executable, .unexpectedValue(expected: .executableFileInBundle, found: .string(name)))
      return nil
    }
    let path = bundlePath + "/" + name
    var isDirectory: ObjCBool = false
    let found: BundleProblem.FileFinding
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      if !isDirectory.boolValue, FileManager.default.isExecutableFile(atPath: path) { return path }
      found = isDirectory.boolValue ? .directory : .notExecutable
    } else if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
      found = .danglingLink(target: target)
    } else {
      found = .nothing
    }
    report(InfoPlistKey.executable, .missingFile(expected: .executableFileInBundle, name: name, found: found))
    return nil
  }

  mutating func icon(in root: [String: PropertyListValue]) -> String {
    if let file = string(root, InfoPlistKey.iconFile) {
      let path = bundlePath + "/" + file
      if Self.isRelativeInside(file), FileManager.default.fileExists(atPath: path) { return path }
      report(InfoPlistKey.iconFile, .missingFile(expected: .fileInBundle, name: file), .warning)
    }
    return string(root, InfoPlistKey.iconName) ?? ShareService.defaultIcon
  }

  mutating func activationRule(in root: [String: PropertyListValue]) -> ActivationRule? {
    guard let extensionValue = root[InfoPlistKey.extensionDictionary] else {
      report(InfoPlistKey.extensionDictionary, .missingKey(expected: .dictionary))
      return nil
    }
    guard let nsExtension = extensionValue.dictionaryValue else {
      report(InfoPlistKey.extensionDictionary, .unexpectedValue(expected: .dictionary, found: extensionValue))
      return nil
    }
    switch nsExtension[InfoPlistKey.extensionPoint] {
    case .string(InfoPlistKey.shareServicesExtensionPoint): break
    case nil:
      report(
        InfoPlistKey.extensionPoint, .missingKey(expected: .value(InfoPlistKey.shareServicesExtensionPoint)))
    case let other?:
      report(
        InfoPlistKey.extensionPoint,
        .unexpectedValue(expected: .value(InfoPlistKey.shareServicesExtensionPoint), found: other))
    }
    guard let attributesValue = nsExtension[InfoPlistKey.extensionAttributes] else {
      report(InfoPlistKey.extensionAttributes, .missingKey(expected: .dictionary))
      return nil
    }
    guard let attributes = attributesValue.dictionaryValue else {
      report(
        InfoPlistKey.extensionAttributes, .unexpectedValue(expected: .dictionary, found: attributesValue))
      return nil
    }
    switch attributes[InfoPlistKey.activationRule] {
    case nil:
      report(InfoPlistKey.activationRule, .missingKey(expected: .ruleDictionaryOrPredicate))
      return nil
    case .string(let source)?:
      do {
        let predicate = try PredicateParser.parse(source)
        if predicate == .constant(false) { report(InfoPlistKey.activationRule, .acceptsNothing, .warning) }
        return .predicate(predicate)
      } catch {
        report(InfoPlistKey.activationRule, .predicateSyntax(error))
        return nil
      }
    case .dictionary(let dictionary)?:
      return dictionaryRule(dictionary)
    case let other?:
      report(
        InfoPlistKey.activationRule, .unexpectedValue(expected: .ruleDictionaryOrPredicate, found: other))
      return nil
    }
  }

  mutating func dictionaryRule(_ rule: [String: PropertyListValue]) -> ActivationRule? {
    let before = problems.count
    typealias Key = InfoPlistKey.Rule
    for key in rule.keys.sorted() where !Key.all.contains(key) {
      report(key, .unknownKey(suggestion: Suggestion.nearest(to: key, in: Key.all)))
    }
    let result = DictionaryRule(
      maxAttachments: count(rule, Key.maxAttachments), minAttachments: count(rule, Key.minAttachments),
      maxFiles: count(rule, Key.maxFiles), maxImages: count(rule, Key.maxImages),
      maxMovies: count(rule, Key.maxMovies), supportsText: boolean(rule, Key.supportsText) ?? false,
      maxWebURLs: count(rule, Key.maxWebURLs), maxWebPages: count(rule, Key.maxWebPages),
      version: count(rule, Key.version) ?? 1, usesStrictMatching: boolean(rule, Key.strictMatching) ?? false)
    guard problems.count == before else { return nil }
    let counts = [
      result.maxAttachments, result.maxFiles, result.maxImages, result.maxMovies, result.maxWebURLs,
      result.maxWebPages,
    ]
    if !result.supportsText, counts.allSatisfy({ ($0 ?? 0) == 0 }) {
      report(InfoPlistKey.activationRule, .acceptsNothing, .warning)
    }
    return .dictionary(result)
  }

  // MARK: Typed reads

  mutating func string(_ dictionary: [String: PropertyListValue], _ key: String) -> String? {
    switch dictionary[key] {
    case nil: return nil
    case .string(let value)?: return value
    case let other?:
      report(key, .unexpectedValue(expected: .string, found: other))
      return nil
    }
  }

  mutating func requiredString(_ dictionary: [String: PropertyListValue], _ key: String) -> String? {
    guard dictionary[key] != nil else {
      report(key, .missingKey(expected: .string))
      return nil
    }
    return string(dictionary, key)
  }

  /// A non-negative integer. Like Apple's `integerValue`, a string of digits is accepted too.
  mutating func count(_ dictionary: [String: PropertyListValue], _ key: String) -> Int? {
    switch dictionary[key] {
    case nil: return nil
    case .integer(let value)? where value >= 0: return value
    case .string(let text)?
    where !text.isEmpty && text.allSatisfy(\.isASCII) && Int(text).map({ $0 >= 0 }) == true:
      return Int(text)
    case let other?:
      report(key, .unexpectedValue(expected: .nonNegativeInteger, found: other))
      return nil
    }
  }

  /// A boolean. Like Apple's `boolValue`, 0/1 and the strings YES/NO/true/false are accepted too.
  mutating func boolean(_ dictionary: [String: PropertyListValue], _ key: String) -> Bool? {
    switch dictionary[key] {
    case nil: return nil
    case .boolean(let value)?: return value
    case .integer(let value)? where value == 0 || value == 1: return value == 1
    case .string(let text)? where ["yes", "true", "1", "no", "false", "0"].contains(text.lowercased()):
      return ["yes", "true", "1"].contains(text.lowercased())
    case let other?:
      report(key, .unexpectedValue(expected: .boolean, found: other))
      return nil
    }
  }

  mutating func positiveNumber(_ dictionary: [String: PropertyListValue], _ key: String) -> Double? {
    switch dictionary[key] {
    case nil: return nil
    case .integer(let value)? where value > 0: return Double(value)
    case .real(let value)? where value > 0 && value.isFinite: return value
    case let other?:
      report(key, .unexpectedValue(expected: .positiveNumber, found: other))
      return nil
    }
  }

  mutating func stringArray(
    _ dictionary: [String: PropertyListValue], _ key: String, expected: BundleProblem.Expectation,
    valid: (String) -> Bool
  ) -> [String] {
    switch dictionary[key] {
    case nil: return []
    case .array(let values)?:
      var strings: [String] = []
      for value in values {
        guard case .string(let string) = value, valid(string) else {
          report(key, .unexpectedValue(expected: expected, found: value))
          continue
        }
        strings.append(string)
      }
      return strings
    case let other?:
      report(key, .unexpectedValue(expected: .arrayOfStrings, found: other))
      return []
    }
  }

  // MARK: Forms

  /// Reverse-DNS: letters, digits, `.` and `-`, no empty component.
  static func isBundleIdentifier(_ id: String) -> Bool {
    !id.isEmpty && id.utf8.count <= 255
      && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
      && !id.split(separator: ".", omittingEmptySubsequences: false).contains { $0.isEmpty }
  }

  /// A program name or `a|b` alternatives, each without a slash.
  static func isProgramName(_ name: String) -> Bool {
    name.split(separator: "|", omittingEmptySubsequences: false).allSatisfy {
      !$0.isEmpty && !$0.contains("/") && !$0.contains(where: \.isWhitespace)
    }
  }

  /// A well-known D-Bus name (the specification's rules).
  static func isBusName(_ name: String) -> Bool {
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    return name.utf8.count <= 255 && parts.count >= 2
      && parts.allSatisfy { part in
        guard let first = part.first, !first.isNumber else { return false }
        return part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
      }
  }

  /// App Group names as Apple spells them: `group.` and a reverse-DNS name.
  static func isGroupName(_ name: String) -> Bool {
    name.hasPrefix("group.") && isBundleIdentifier(name)
  }

  /// A relative path that stays inside the bundle.
  static func isRelativeInside(_ name: String) -> Bool {
    !name.isEmpty && !name.hasPrefix("/")
      && !name.split(separator: "/").contains { $0 == ".." }
  }
}
