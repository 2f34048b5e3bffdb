import ShareCore

/// The build settings an Xcode project's source Info.plist refers to (`$(PRODUCT_NAME)`), with
/// the values Xcode would give a share extension named NAME, and their expansion as Xcode expands
/// them: `$(VAR)` and `${VAR}`, nested references, values that refer to other settings, and the
/// modifiers `rfc1034identifier`, `c99extidentifier`, `identifier`, `lower`, `upper` and
/// `default=VALUE`.
struct BuildSettings {
  /// A reference that could not be expanded: it is left in the text as written.
  enum Unresolved: Hashable {
    /// No value for the variable.
    case undefined(String)
    /// A modifier this expansion does not know (`VAR`, `modifier`).
    case unknownModifier(String, String)
    /// The variable's value refers back to itself.
    case cycle(String)

    var variable: String {
      switch self {
      case .undefined(let name), .unknownModifier(let name, _), .cycle(let name): name
      }
    }
  }

  private(set) var values: [String: String]

  /// Xcode's values for a target named `name`, changed by `definitions` (a later one wins), then
  /// by `identifier`. Derived settings are written as Xcode derives them, as references, so that
  /// a definition of PRODUCT_NAME carries through to EXECUTABLE_NAME and PRODUCT_MODULE_NAME.
  init(name: String, identifier: String?, definitions: [NewOptions.Definition]) {
    values = [
      "TARGET_NAME": name,
      "PRODUCT_NAME": "$(TARGET_NAME)",
      "EXECUTABLE_NAME": "$(PRODUCT_NAME)",
      "PRODUCT_MODULE_NAME": "$(PRODUCT_NAME:c99extidentifier)",
      "PRODUCT_BUNDLE_IDENTIFIER": Self.defaultIdentifier(for: name),
      "DEVELOPMENT_LANGUAGE": "en",
      "MARKETING_VERSION": "1.0",
      "CURRENT_PROJECT_VERSION": "1",
      // What Xcode sets for an app extension's bundle (`XPC!`), which its template's
      // CFBundlePackageType names.
      "PRODUCT_BUNDLE_PACKAGE_TYPE": "XPC!",
    ]
    for definition in definitions { values[definition.variable] = definition.value }
    if let identifier { values["PRODUCT_BUNDLE_IDENTIFIER"] = identifier }
  }

  /// `local.` and the name, lowercased, as a reverse-DNS component.
  static func defaultIdentifier(for name: String) -> String {
    "local." + rfc1034Identifier(name.lowercased())
  }

  /// `text` with every reference expanded that can be, and those that cannot, in order.
  func expand(_ text: String) -> (text: String, unresolved: [Unresolved]) {
    var unresolved: [Unresolved] = []
    let text = expand(text, active: [], unresolved: &unresolved)
    var seen: Set<Unresolved> = []
    return (text, unresolved.filter { seen.insert($0).inserted })
  }

  /// `active`: the variables whose values are being expanded, to find one that refers to itself.
  private func expand(_ text: String, active: Set<String>, unresolved: inout [Unresolved]) -> String {
    guard text.contains("$") else { return text }
    let characters = Array(text)
    var out = ""
    var index = 0
    while index < characters.count {
      let character = characters[index]
      guard character == "$", index + 1 < characters.count,
        let close = ["(": Character(")"), "{": "}"][characters[index + 1]],
        let end = Self.closing(close, opening: characters[index + 1], in: characters, from: index + 2)
      else {
        out.append(character)
        index += 1
        continue
      }
      let reference = String(characters[index...end])
      // `$(A_$(B))`: the name may itself hold references.
      let body = expand(String(characters[(index + 2)..<end]), active: active, unresolved: &unresolved)
      out += resolve(body, active: active, unresolved: &unresolved) ?? reference
      index = end + 1
    }
    return out
  }

  /// The index of the `close` that matches an opening at `start - 1`.
  private static func closing(
    _ close: Character, opening: Character, in characters: [Character], from start: Int
  )
    -> Int?
  {
    var level = 1
    var index = start
    while index < characters.count {
      if characters[index] == opening {
        level += 1
      } else if characters[index] == close {
        level -= 1
        if level == 0 { return index }
      }
      index += 1
    }
    return nil
  }

  /// The value of `VAR:modifier:…`, or nil (and why, in `unresolved`).
  private func resolve(_ body: String, active: Set<String>, unresolved: inout [Unresolved]) -> String? {
    let parts = body.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    let name = parts[0]
    var value: String?
    if let raw = values[name] {
      guard !active.contains(name) else {
        unresolved.append(.cycle(name))
        return nil
      }
      let before = unresolved.count
      value = expand(raw, active: active.union([name]), unresolved: &unresolved)
      // A value that leads back to itself has none: the reference stays as written.
      if unresolved[before...].contains(where: { if case .cycle = $0 { true } else { false } }) { return nil }
    }
    for modifier in parts.dropFirst() {
      if modifier.hasPrefix("default=") {
        if value?.isEmpty ?? true { value = String(modifier.dropFirst("default=".count)) }
        continue
      }
      guard let transform = Self.modifiers[modifier] else {
        unresolved.append(.unknownModifier(name, modifier))
        return nil
      }
      value = value.map(transform)
    }
    guard let value else {
      unresolved.append(.undefined(name))
      return nil
    }
    return value
  }

  private static let modifiers: [String: @Sendable (String) -> String] = [
    "rfc1034identifier": rfc1034Identifier, "c99extidentifier": c99Identifier, "identifier": c99Identifier,
    "lower": { $0.lowercased() }, "upper": { $0.uppercased() },
  ]

  /// Every character but ASCII letters, digits, `-` and `.` as `-`, as Xcode makes a bundle
  /// identifier's part of a product name.
  static func rfc1034Identifier(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { NewNames.isASCIIAlphanumeric($0) || $0 == "-" || $0 == "." ? $0 : "-" }))
  }

  /// Every character but ASCII letters, digits and `_` as `_`, and `_` before a leading digit, as
  /// Xcode makes a module name of a product name.
  static func c99Identifier(_ text: String) -> String {
    let scalars = text.unicodeScalars.map { NewNames.isASCIIAlphanumeric($0) ? $0 : "_" }
    let identifier = String(String.UnicodeScalarView(scalars))
    return identifier.first.map { $0.isNumber } ?? true ? "_" + identifier : identifier
  }
}

/// An Xcode project's source Info.plist made into a bundle's: references expanded, the keys
/// Xcode adds at build time added, every other key kept as written.
struct XcodePort {
  /// A reference left unexpanded, and where: the key path of the value that holds it.
  struct Finding: Hashable {
    var path: [String]
    var unresolved: BuildSettings.Unresolved
    /// In a key xdg-share reads, so the bundle would not work as meant: an error.
    var isError: Bool
  }

  /// The keys Xcode adds to a built Info.plist when the source lacks them, as references.
  static let generatedKeys: [(String, String)] = [
    (InfoPlistKey.identifier, "$(PRODUCT_BUNDLE_IDENTIFIER)"),
    (InfoPlistKey.executable, "$(EXECUTABLE_NAME)"),
    (InfoPlistKey.name, "$(PRODUCT_NAME)"), (InfoPlistKey.shortVersion, "$(MARKETING_VERSION)"),
    ("CFBundleVersion", "$(CURRENT_PROJECT_VERSION)"),
  ]

  /// The top-level keys whose values xdg-share reads (`XDGShare…` keys too): an unexpanded
  /// reference there is an error.
  static let readKeys: Set<String> = [
    InfoPlistKey.identifier, InfoPlistKey.displayName, InfoPlistKey.name, InfoPlistKey.executable,
    InfoPlistKey.shortVersion, InfoPlistKey.iconName, InfoPlistKey.iconFile, InfoPlistKey.extensionDictionary,
  ]

  static func isRead(_ key: String) -> Bool { readKeys.contains(key) || key.hasPrefix("XDGShare") }

  var root: [String: PropertyListValue]
  var findings: [Finding] = []

  /// Ports `source`, the top-level dictionary of the Info.plist, with `settings`.
  init(_ source: [String: PropertyListValue], settings: BuildSettings) {
    var root = source
    for (key, reference) in Self.generatedKeys where root[key] == nil { root[key] = .string(reference) }
    var findings: [Finding] = []
    for (key, value) in root {
      root[key] = Self.substitute(
        value, path: [key], settings: settings, findings: &findings, isRead: Self.isRead)
    }
    self.root = root
    self.findings = findings
  }

  /// `value` with its strings expanded, depth first; the reader bounds how deep a value nests.
  /// `isRead`: whether xdg-share reads a top-level key, where a reference left is an error.
  static func substitute(
    _ value: PropertyListValue, path: [String], settings: BuildSettings, findings: inout [Finding],
    isRead: (String) -> Bool
  ) -> PropertyListValue {
    switch value {
    case .string(let text):
      let (expanded, unresolved) = settings.expand(text)
      for reference in unresolved {
        findings.append(Finding(path: path, unresolved: reference, isError: isRead(path[0])))
      }
      return .string(expanded)
    case .array(let elements):
      return .array(
        elements.enumerated().map {
          substitute($1, path: path + [String($0)], settings: settings, findings: &findings, isRead: isRead)
        })
    case .dictionary(let values):
      var result: [String: PropertyListValue] = [:]
      for (key, element) in values {
        result[key] = substitute(
          element, path: path + [key], settings: settings, findings: &findings, isRead: isRead)
      }
      return .dictionary(result)
    default:
      return value
    }
  }

  /// The program's name, when `CFBundleExecutable` is a path that stays inside the bundle.
  var executable: String? {
    guard case .string(let name)? = root[InfoPlistKey.executable], !name.hasPrefix("/"),
      !name.contains("$(") && !name.contains("${")
    else { return nil }
    let components = name.split(separator: "/", omittingEmptySubsequences: false)
    guard components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
    return name
  }
}

/// An Xcode target's `.entitlements` file made into a bundle's Entitlements.plist: the keys that
/// carry over kept, their references expanded; the others left out, each named.
struct EntitlementsPort {
  /// The keys written, with their values.
  var kept: [String: PropertyListValue] = [:]
  /// The keys left out, in the file's order: those with no meaning here, and Apple's for what is
  /// always so here (`com.apple.security.app-sandbox`), `alwaysSo`.
  var leftOut: [(key: String, alwaysSo: Bool)] = []
  /// References left unexpanded in the keys kept: each an error.
  var findings: [XcodePort.Finding] = []

  /// Ports `source`, the file's top-level dictionary, with `settings`; `positions` order the
  /// keys left out as the file does.
  init(_ source: [String: PropertyListValue], settings: BuildSettings, positions: [[String]: TextPosition]) {
    let keys = source.keys.sorted { a, b in
      switch (positions[[a]], positions[[b]]) {
      case (let first?, let second?) where first != second: first < second
      default: a < b
      }
    }
    for key in keys {
      guard let value = source[key] else { continue }
      guard EntitlementKey.all.contains(key) else {
        leftOut.append((key, EntitlementKey.alwaysSo.contains(key)))
        continue
      }
      kept[key] = XcodePort.substitute(value, path: [key], settings: settings, findings: &findings) { _ in
        true
      }
    }
  }
}
