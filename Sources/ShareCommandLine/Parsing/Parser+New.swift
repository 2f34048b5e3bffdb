import ShareCore

extension Parser {
  /// `new (--swift | --shell | --python | --from-xcode INFO_PLIST) [--identifier ID]
  /// [--define VAR=VALUE]... [--entitlements FILE] [--sharekit-url URL] NAME`.
  static func parseNew(_ cursor: inout ArgumentCursor) throws(UsageError) -> NewOptions {
    let given = try OptionValues.read(&cursor, operands: 1)
    guard let template = given.template else { throw .missingArgument(.template, command: .new) }
    let name = try given.singleText("NAME", of: .new)
    guard NewNames.isBundleName(name) else {
      throw .invalidArgument("NAME", value: name, expected: .bundleName, command: .new)
    }
    if !given.definitions.isEmpty {
      guard case .fromXcode = template.template else {
        throw .conflictingOptions("--define", template.option, command: .new)
      }
    }
    if given.shareKitURL != nil, template.template != .swift {
      throw .conflictingOptions("--sharekit-url", template.option, command: .new)
    }
    if given.entitlements != nil {
      guard case .fromXcode = template.template else {
        throw .conflictingOptions("--entitlements", template.option, command: .new)
      }
    }
    return NewOptions(
      template: template.template, name: name, identifier: given.identifier, definitions: given.definitions,
      shareKitURL: given.shareKitURL, entitlements: given.entitlements)
  }
}

/// The forms of the names `new` is given and makes.
enum NewNames {
  /// A bundle's name: ASCII letters, digits, `.`, `_` and `-`, starting with a letter or digit,
  /// so that it is a file name, a Swift package name and the start of an identifier alike.
  static func isBundleName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, name.utf8.count <= 200 else { return false }
    return isASCIIAlphanumeric(first)
      && name.unicodeScalars.allSatisfy { isASCIIAlphanumeric($0) || "._-".unicodeScalars.contains($0) }
  }

  /// A build setting's name: `[A-Za-z_][A-Za-z0-9_]*`.
  static func isVariableName(_ name: some StringProtocol) -> Bool {
    guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
    return name.unicodeScalars.allSatisfy { isASCIIAlphanumeric($0) || $0 == "_" }
  }

  static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
  }
}
