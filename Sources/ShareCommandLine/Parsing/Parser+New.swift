import ShareCore

extension Parser {
  /// `new (--swift | --shell | --python | --from-xcode INFO_PLIST) [--identifier ID]
  /// [--define VAR=VALUE]... [--sharekit-url URL] NAME`.
  static func parseNew(_ cursor: inout ArgumentCursor) throws(UsageError) -> NewOptions {
    var template: (NewOptions.Template, option: String)?
    var name: String?
    var identifier: String?
    var definitions: [NewOptions.Definition] = []
    var shareKitURL: String?
    while let argument = try cursor.nextInTable() {
      switch argument {
      case .positional(let bytes):
        let word = String(decoding: bytes, as: UTF8.self)
        guard name == nil else { throw .unexpectedArgument(word, command: .new) }
        name = word
      case .option(let option, let value):
        let text = value.map { String(decoding: $0, as: UTF8.self) }
        let chosen: NewOptions.Template? =
          switch option.key {
          case .swift: .swift
          case .shell: .shell
          case .python: .python
          case .fromXcode: value.map { .fromXcode(FilePath(bytes: $0)) }
          default: nil
          }
        if let chosen {
          if let template { throw .conflictingOptions(template.option, option.name, command: .new) }
          template = (chosen, option.name)
          continue
        }
        guard let text else { continue }  // The table gives new no other flag.
        switch option.key {
        case .identifier:
          guard InfoPlistForm.isBundleIdentifier(text) else {
            throw .invalidValue(
              option: option.name, value: text,
              expected: "a reverse-DNS identifier of letters, digits, '.' and '-', such as ch.example.hoi")
          }
          identifier = text
        case .define:
          guard let equals = text.firstIndex(of: "="), NewNames.isVariableName(text[..<equals]) else {
            throw .invalidValue(
              option: option.name, value: text,
              expected: "VAR=VALUE, VAR a build variable's name such as APP_GROUP_IDENTIFIER")
          }
          definitions.append(
            NewOptions.Definition(
              variable: String(text[..<equals]), value: String(text[text.index(after: equals)...])))
        case .shareKitURL:
          guard !text.isEmpty else {
            throw .invalidValue(option: option.name, value: text, expected: "a git URL or an absolute path")
          }
          shareKitURL = text
        default: break
        }
      }
    }
    guard let template else {
      throw .missingArgument(
        "what to write: --swift, --shell, --python or --from-xcode INFO_PLIST", command: .new)
    }
    guard let name else { throw .missingArgument("NAME", command: .new) }
    guard NewNames.isBundleName(name) else {
      throw .invalidArgument(
        "NAME", value: name,
        expected: "letters, digits, '.', '_' and '-', starting with a letter or digit", command: .new)
    }
    if !definitions.isEmpty {
      guard case .fromXcode = template.0 else {
        throw .conflictingOptions("--define", template.option, command: .new)
      }
    }
    if shareKitURL != nil, template.0 != .swift {
      throw .conflictingOptions("--sharekit-url", template.option, command: .new)
    }
    return NewOptions(
      template: template.0, name: name, identifier: identifier, definitions: definitions,
      shareKitURL: shareKitURL)
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
