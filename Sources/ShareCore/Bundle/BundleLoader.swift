import FoundationEssentials

/// Loads `*.shareext` bundles: reads and checks `Info.plist`, parses the activation rule once,
/// and picks the localized name.
public struct BundleLoader: Sendable {
  /// `.lproj` names to look in, most preferred first (see ``Localization``).
  public var languages: [String]
  /// How the bundle's folder and files are read.
  public var files: any BundleFiles

  public init(languages: [String], files: any BundleFiles = FoundationBundleFiles()) {
    self.languages = languages
    self.files = files
  }

  /// The outcome of loading one bundle: the service when it is valid, and every problem found.
  public struct Outcome: Sendable {
    public var service: ShareService?
    public var problems: [BundleProblem]
    /// The bundle's identifier when it names one that is well formed, whether or not the rest
    /// is: what `why` and `doctor` find an invalid bundle by.
    public var identifier: String?
    /// The name it gives itself, likewise.
    public var name: String?
    /// Where its `NSExtensionActivationRule` is in a text Info.plist, for warnings about the rule
    /// that are found later.
    public var rulePosition: TextPosition?
  }

  /// Loads the bundle at `path`, reporting every problem rather than stopping at the first.
  public func load(bundleAt path: String) -> Outcome {
    load(bundleAt: FilePath(path))
  }

  /// Loads the bundle at `path`, any bytes; problems name it by ``FilePath/text``.
  public func load(bundleAt path: FilePath) -> Outcome {
    var reader = ManifestReader(bundleLocation: path, files: files)
    var service = reader.read(languages: languages)
    var problems = reader.problems
    // Read even when Info.plist has errors, so that `validate` reports both files' at once.
    if reader.isBundle {
      var entitlements = ManifestReader(bundleLocation: path, files: files, fileName: EntitlementKey.fileName)
      let declared = entitlements.readEntitlements()
      problems += entitlements.problems
      service?.declare(declared)
    }
    return Outcome(
      service: problems.contains { $0.severity == .error } ? nil : service, problems: problems,
      identifier: reader.identifierRead, name: reader.nameRead, rulePosition: reader.rulePosition)
  }
}

/// One dictionary of an Info.plist and its key path from the root, so that a problem with one of
/// its keys can say where in the file it is.
struct Scope {
  var values: [String: PropertyListValue]
  var path: [String]

  subscript(key: String) -> PropertyListValue? { values[key] }

  /// The scope of the dictionary under `key`.
  func nested(_ key: String, _ values: [String: PropertyListValue]) -> Scope {
    Scope(values: values, path: path + [key])
  }
}

/// Reads one Info.plist, collecting problems as it goes. `NSExtension` is read in
/// ExtensionDictionary.swift.
struct ManifestReader {
  /// The bundle's folder, as bytes, and as text for problems and output.
  let bundleLocation: FilePath
  let bundlePath: String
  let plistLocation: FilePath
  let plistPath: String
  let files: any BundleFiles
  var problems: [BundleProblem] = []
  /// The Info.plist read: where its values are, by key path, asked for only to report a problem.
  var document: PropertyListDocument?
  /// The key paths of the values read that hold an unexpanded build variable (reported as errors),
  /// so that the walk over the rest reports each other one once, as a warning.
  var variablesRead: Set<[String]> = []
  /// `CFBundleIdentifier` and the name, as read, for ``BundleLoader/Outcome``.
  var identifierRead: String?
  var nameRead: String?
  var rulePosition: TextPosition?
  /// Whether the bundle is a folder, so that its other files are worth reading.
  var isBundle = false

  /// The largest Info.plist read; real ones are a few kilobytes.
  static let maximumPlistSize = 1 << 20

  /// A reader of `fileName` at the bundle's root: `Info.plist`, or `Entitlements.plist`, whose
  /// problems are placed in that file as Info.plist's are.
  init(bundleLocation: FilePath, files: any BundleFiles, fileName: String = "Info.plist") {
    self.bundleLocation = bundleLocation.trimmingTrailingSlashes
    self.bundlePath = self.bundleLocation.text
    self.plistLocation = FilePath(bytes: self.bundleLocation.bytes + Array(("/" + fileName).utf8))
    self.plistPath = plistLocation.text
    self.files = files
  }

  /// Reports a problem with `key` of `scope`, placed at its value, or, when the key is missing, at
  /// the dictionary it belongs in; `index` places it at one element of an array.
  mutating func report(
    _ key: String, in scope: Scope, _ kind: BundleProblem.Kind, _ severity: BundleProblem.Severity = .error,
    index: Int? = nil
  ) {
    var path = scope.path
    switch kind {
    case .missingKey, .offeredForEverything: break
    default: path.append(key)
    }
    if let index { path.append(String(index)) }
    problems.append(
      BundleProblem(
        file: plistPath, key: key, kind: kind, severity: severity, position: document?.positions[path]))
  }

  /// Reports a problem with the whole file.
  mutating func report(_ kind: BundleProblem.Kind, position: TextPosition? = nil) {
    problems.append(BundleProblem(file: plistPath, kind: kind, position: position))
  }

  mutating func read(languages: [String]) -> ShareService? {
    let bundleKind = files.kind(of: bundleLocation)
    guard bundleKind == .directory else {
      problems.append(BundleProblem(file: bundlePath, kind: .notABundle(exists: bundleKind != nil)))
      return nil
    }
    isBundle = true
    if !bundleLocation.bytes.reversed().starts(with: ".shareext".utf8.reversed()) {
      problems.append(BundleProblem(file: bundlePath, kind: .notABundle(), severity: .warning))
    }
    guard let plistKind = files.kind(of: plistLocation) else {
      report(.missingFile(expected: .fileInBundle, name: "Info.plist"))
      return nil
    }
    guard let root = readRoot(plistKind), let document else { return nil }

    let id = identifier(in: root)
    identifierRead = id
    let strings = Localization.strings(inBundle: bundleLocation, languages: languages, files: files)
    let displayName = string(root, InfoPlistKey.displayName)
    let bundleName = string(root, InfoPlistKey.name)
    // Missing only when neither is there at all: one of the wrong type was reported as such.
    if root[InfoPlistKey.displayName] == nil && root[InfoPlistKey.name] == nil {
      report(InfoPlistKey.name, in: root, .missingKey(expected: .string))
    }
    let name =
      strings[InfoPlistKey.displayName] ?? strings[InfoPlistKey.name] ?? displayName ?? bundleName ?? id ?? ""
    nameRead = name.isEmpty ? nil : name
    let executable = executableLocation(in: root)
    let icon = icon(in: root)
    let version = string(root, InfoPlistKey.shortVersion)
    let (kind, rule) = extensionDictionary(in: root)
    let plainDescription = string(root, InfoPlistKey.description)
    let description = strings[InfoPlistKey.description] ?? plainDescription
    let requirements = Requirements(
      programs: stringArray(
        root, InfoPlistKey.requiredPrograms, expected: .programName, valid: InfoPlistForm.isProgramName),
      busNames: stringArray(
        root, InfoPlistKey.requiredBusNames, expected: .busName, valid: InfoPlistForm.isBusName))
    let groups = stringArray(
      root, InfoPlistKey.applicationGroups, expected: .string, valid: InfoPlistForm.isGroupName)
    let timeout = positiveNumber(root, InfoPlistKey.timeout)
    let composeSheet = composeSheet(in: root)
    let application = string(root, InfoPlistKey.application)
    let targetSignals = stringArray(
      root, InfoPlistKey.targetSignals, expected: .signalMatchRule, valid: InfoPlistForm.isSignalMatchRule)
    for key in root.values.keys.sorted()
    where key.hasPrefix("XDGShare") && !InfoPlistKey.linuxKeys.contains(key) {
      report(
        key, in: root, .unknownKey(suggestion: Suggestion.nearest(to: key, in: InfoPlistKey.linuxKeys)),
        .warning)
    }
    // After every read, so that what was read is not reported again. Most bundles hold none:
    // they are looked for before any key path is made.
    if Self.holdsBuildVariable(document.value) {
      reportUnreadBuildVariables(in: document.value, key: nil, path: [])
    }

    guard let id, let executable, let kind, let rule else { return nil }
    var service = ShareService(
      id: id, name: name, icon: icon, description: description, version: version,
      bundleLocation: bundleLocation, executableLocation: executable, rule: rule, requirements: requirements,
      timeout: timeout, applicationGroups: groups, kind: kind, composeSheet: composeSheet)
    service.application = application
    service.targetSignals = targetSignals
    return service
  }

  /// The file's top-level dictionary, or nil after reporting why there is none. `kind`: what the
  /// file is, found there (the caller says what its absence means).
  mutating func readRoot(_ kind: BundleFileKind) -> Scope? {
    // A FIFO or a huge file named Info.plist must not hold up every reader of the registry. The
    // file a link leads to is what counts.
    guard case .regular(let size) = kind, size <= Self.maximumPlistSize else {
      report(.unreadable(.notARegularFile(maximumSize: Self.maximumPlistSize)))
      return nil
    }
    guard let data = files.contents(of: plistLocation, maximumSize: Self.maximumPlistSize) else {
      report(.unreadable(.permissionDenied))
      return nil
    }
    let document: PropertyListDocument
    do {
      document = try PropertyListReader.read(data)
    } catch {
      report(.malformedPropertyList(error), position: error.position)
      return nil
    }
    self.document = document
    guard let values = document.value.dictionaryValue else {
      report(.unreadable(.notADictionary), position: document.positions[[]])
      return nil
    }
    return Scope(values: values, path: [])
  }

  // MARK: Keys

  mutating func identifier(in root: Scope) -> String? {
    guard let value = root[InfoPlistKey.identifier] else {
      report(InfoPlistKey.identifier, in: root, .missingKey(expected: .bundleIdentifier))
      return nil
    }
    if isUnexpanded(value, InfoPlistKey.identifier, in: root) { return nil }
    guard case .string(let id) = value, InfoPlistForm.isBundleIdentifier(id) else {
      report(InfoPlistKey.identifier, in: root, .unexpectedValue(expected: .bundleIdentifier, found: value))
      return nil
    }
    return id
  }

  mutating func executableLocation(in root: Scope) -> FilePath? {
    guard let name = requiredString(root, InfoPlistKey.executable) else { return nil }
    guard InfoPlistForm.isRelativeInside(name) else {
      report(
        InfoPlistKey.executable, in: root,
        .unexpectedValue(expected: .executableFileInBundle, found: .string(name)))
      return nil
    }
    let path = bundleLocation.appending(name)
    let found: BundleProblem.FileFinding
    if let kind = files.kind(of: path) {
      if kind != .directory, files.isExecutable(path) { return path }
      found = kind == .directory ? .directory : .notExecutable
    } else if let target = files.linkDestination(of: path) {
      found = .danglingLink(target: target.text)
    } else {
      found = .nothing
    }
    report(
      InfoPlistKey.executable, in: root,
      .missingFile(expected: .executableFileInBundle, name: name, found: found))
    return nil
  }

  mutating func icon(in root: Scope) -> String {
    if let file = string(root, InfoPlistKey.iconFile) {
      let path = bundleLocation.appending(file)
      if InfoPlistForm.isRelativeInside(file), files.kind(of: path) != nil { return path.text }
      report(InfoPlistKey.iconFile, in: root, .missingFile(expected: .fileInBundle, name: file), .warning)
    }
    return string(root, InfoPlistKey.iconName) ?? ShareService.defaultIcon
  }

  // MARK: Typed reads

  mutating func string(_ scope: Scope, _ key: String) -> String? {
    if isUnexpanded(scope[key], key, in: scope) { return nil }
    switch scope[key] {
    case nil: return nil
    case .string(let value)?: return value
    case let other?:
      report(key, in: scope, .unexpectedValue(expected: .string, found: other))
      return nil
    }
  }

  mutating func requiredString(_ scope: Scope, _ key: String) -> String? {
    guard scope[key] != nil else {
      report(key, in: scope, .missingKey(expected: .string))
      return nil
    }
    return string(scope, key)
  }

  /// A non-negative integer. Like Apple's `integerValue`, a string of digits is accepted too.
  mutating func count(_ scope: Scope, _ key: String) -> Int? {
    if isUnexpanded(scope[key], key, in: scope) { return nil }
    switch scope[key] {
    case nil: return nil
    case .integer(let value)? where value >= 0: return value
    case .string(let text)?
    where !text.isEmpty && text.allSatisfy(\.isASCII) && Int(text).map({ $0 >= 0 }) == true:
      return Int(text)
    case let other?:
      report(key, in: scope, .unexpectedValue(expected: .nonNegativeInteger, found: other))
      return nil
    }
  }

  /// A boolean. Like Apple's `boolValue`, 0/1 and the strings YES/NO/true/false are accepted too.
  mutating func boolean(_ scope: Scope, _ key: String) -> Bool? {
    if isUnexpanded(scope[key], key, in: scope) { return nil }
    switch scope[key] {
    case nil: return nil
    case .boolean(let value)?: return value
    case .integer(let value)? where value == 0 || value == 1: return value == 1
    case .string(let text)? where ["yes", "true", "1", "no", "false", "0"].contains(text.lowercased()):
      return ["yes", "true", "1"].contains(text.lowercased())
    case let other?:
      report(key, in: scope, .unexpectedValue(expected: .boolean, found: other))
      return nil
    }
  }

  mutating func positiveNumber(_ scope: Scope, _ key: String) -> Double? {
    if isUnexpanded(scope[key], key, in: scope) { return nil }
    switch scope[key] {
    case nil: return nil
    case .integer(let value)? where value > 0: return Double(value)
    case .real(let value)? where value > 0 && value.isFinite: return value
    case let other?:
      report(key, in: scope, .unexpectedValue(expected: .positiveNumber, found: other))
      return nil
    }
  }

  mutating func stringArray(
    _ scope: Scope, _ key: String, expected: BundleProblem.Expectation, valid: (String) -> Bool
  ) -> [String] {
    switch scope[key] {
    case nil: return []
    case .array(let values)?:
      var strings: [String] = []
      for (index, value) in values.enumerated() {
        if isUnexpanded(value, key, in: scope, index: index) { continue }
        guard case .string(let string) = value, valid(string) else {
          report(key, in: scope, .unexpectedValue(expected: expected, found: value), index: index)
          continue
        }
        strings.append(string)
      }
      return strings
    case let other?:
      report(key, in: scope, .unexpectedValue(expected: .arrayOfStrings, found: other))
      return []
    }
  }

  // MARK: Build variables

  /// Whether `value`, read as `key` of `scope` (its element `index`), is a string holding an
  /// unexpanded Xcode build variable; reports it as an error, since xdg-share would use it as it is.
  mutating func isUnexpanded(
    _ value: PropertyListValue?, _ key: String, in scope: Scope, index: Int? = nil
  ) -> Bool {
    guard case .string(let text)? = value, let variable = InfoPlistForm.buildVariable(in: text) else {
      return false
    }
    report(key, in: scope, .unexpandedBuildVariable(variable), index: index)
    variablesRead.insert(scope.path + [key] + (index.map { [String($0)] } ?? []))
    return true
  }

  /// Whether a string in `value` holds a build variable.
  static func holdsBuildVariable(_ value: PropertyListValue) -> Bool {
    switch value {
    case .string(let text): InfoPlistForm.buildVariable(in: text) != nil
    case .array(let values): values.contains(where: holdsBuildVariable)
    case .dictionary(let values): values.values.contains(where: holdsBuildVariable)
    default: false
    }
  }

  /// Reports, as warnings, the build variables in every string not read (`CFBundleVersion`,
  /// `CFBundlePackageType`…): harmless here, but a sign the bundle was copied from an Xcode project.
  mutating func reportUnreadBuildVariables(in value: PropertyListValue, key: String?, path: [String]) {
    switch value {
    case .string(let text):
      guard let key, !variablesRead.contains(path), let variable = InfoPlistForm.buildVariable(in: text)
      else { return }
      problems.append(
        BundleProblem(
          file: plistPath, key: key, kind: .unexpandedBuildVariable(variable), severity: .warning,
          position: document?.positions[path]))
    case .array(let values):
      for (index, element) in values.enumerated() {
        reportUnreadBuildVariables(in: element, key: key, path: path + [String(index)])
      }
    case .dictionary(let values):
      for (name, element) in values.sorted(by: { $0.key < $1.key }) {
        reportUnreadBuildVariables(in: element, key: name, path: path + [name])
      }
    default: return
    }
  }
}
