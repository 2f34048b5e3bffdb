/// `XDGShareComposeSheet`: the compose sheet a service in any language declares in its
/// `Info.plist`, which the host shows before it starts the program. What the user writes and
/// chooses reaches the program as the request's `compose` object.
public struct ComposeSheetDeclaration: Sendable, Equatable {
  /// `Title`: the sheet's title; `nil` shows the service's name.
  public var title: String?
  /// `PostButtonTitle`: the primary button's label; `nil` is "Post".
  public var postButtonTitle: String?
  /// `Placeholder`: shown in the empty text view.
  public var placeholder: String?
  /// `MaximumCharacters`: the most characters (grapheme clusters) the text may have.
  public var maximumCharacters: Int?
  /// `HasText`: whether the sheet has a text to write; false for a service that asks only its
  /// configuration items (Save to Folder: a folder), whose text is the shared text, unchanged.
  public var hasText: Bool
  /// `ConfigurationItems`, in the order they are shown and asked.
  public var configurationItems: [Item]

  /// One configuration item: a choice among `choices`, or free text when there are none.
  public struct Item: Sendable, Equatable {
    /// `Identifier`: the key of its value in the request's `compose.configuration`.
    public var identifier: String
    /// `Title`: what the sheet and `xdg-share configure` show.
    public var title: String
    /// `Choices`: the values to choose from; `nil` for free text.
    public var choices: [String]?
    /// `Default`: the value before the user chose one (for a choice, one of `choices`).
    public var defaultValue: String?
    /// `Secure`: a password. xdg-share keeps it in the Secret Service, never in a file, and
    /// never records it in history.
    public var isSecure: Bool
    /// `Kind`: what the value is.
    public var kind: Kind

    /// What an item's value is.
    public enum Kind: String, Sendable, CaseIterable {
      /// Text (or one of `choices`): the default.
      case text
      /// A folder the user chose: the service's sandbox has it, and no other, read-write, as
      /// Apple's open panel grants what the user picked (``ComposeSheetDeclaration/chosenFolders(in:home:)``).
      case folder
    }

    public init(
      identifier: String, title: String, choices: [String]? = nil, defaultValue: String? = nil,
      isSecure: Bool = false, kind: Kind = .text
    ) {
      self.identifier = identifier
      self.title = title
      self.choices = choices
      self.defaultValue = defaultValue
      self.isSecure = isSecure
      self.kind = kind
    }

    /// The value used when the user has chosen none: `Default`, else a choice item's first
    /// choice; `nil` for free text without a default, which the user must give.
    public var initialValue: String? {
      defaultValue ?? choices?.first
    }

    /// Whether `value` may be this item's value: one of the choices, or any text.
    public func accepts(_ value: String) -> Bool {
      choices?.contains(value) ?? true
    }
  }

  public init(
    title: String? = nil, postButtonTitle: String? = nil, placeholder: String? = nil,
    maximumCharacters: Int? = nil, configurationItems: [Item] = [], hasText: Bool = true
  ) {
    self.title = title
    self.postButtonTitle = postButtonTitle
    self.placeholder = placeholder
    self.maximumCharacters = maximumCharacters
    self.configurationItems = configurationItems
    self.hasText = hasText
  }

  /// The item whose `Identifier` is `identifier`.
  public func item(_ identifier: String) -> Item? {
    configurationItems.first { $0.identifier == identifier }
  }

  /// The folders the user chose in the `folder` items of `configuration` (a request's
  /// `compose.configuration`), which the service's sandbox binds read-write at their own paths:
  /// `~`, `$HOME` or `${HOME}` at the start is `home`, and a relative path is relative to it (as
  /// the services read a folder setting). An empty value is none.
  public func chosenFolders(in configuration: [String: String], home: FilePath) -> [FilePath] {
    configurationItems.filter { $0.kind == .folder }.compactMap { item in
      guard let value = configuration[item.identifier] ?? item.initialValue, !value.isEmpty else {
        return nil
      }
      if value == "~" || value == "$HOME" || value == "${HOME}" { return home }
      for prefix in ["~/", "$HOME/", "${HOME}/"] where value.hasPrefix(prefix) {
        return FilePath(bytes: home.bytes + [UInt8(ascii: "/")] + value.dropFirst(prefix.count).utf8)
      }
      return value.hasPrefix("/")
        ? FilePath(value) : FilePath(bytes: home.bytes + [UInt8(ascii: "/")] + value.utf8)
    }
  }

  /// The identifiers of the secure items, whose values are never written to a file.
  public var secureIdentifiers: Set<String> {
    Set(configurationItems.filter(\.isSecure).map(\.identifier))
  }
}

/// Reading `XDGShareComposeSheet`, at the top level of `Info.plist` with the other Linux
/// additions; `NSExtension` → `NSExtensionAttributes` is accepted too, but not both.
extension ManifestReader {
  mutating func composeSheet(in root: Scope) -> ComposeSheetDeclaration? {
    typealias Key = InfoPlistKey.ComposeSheet
    let key = InfoPlistKey.composeSheet
    var place = (scope: root, value: root[key])
    if case .dictionary(let nsExtension)? = root[InfoPlistKey.extensionDictionary],
      case .dictionary(let attributes)? = nsExtension[InfoPlistKey.extensionAttributes],
      let inAttributes = attributes[key]
    {
      let scope = root.nested(InfoPlistKey.extensionDictionary, nsExtension).nested(
        InfoPlistKey.extensionAttributes, attributes)
      if place.value != nil {
        report(key, in: scope, .declaredTwice)
        return nil
      }
      place = (scope, inAttributes)
    }
    guard let value = place.value else { return nil }
    guard case .dictionary(let values) = value else {
      report(key, in: place.scope, .unexpectedValue(expected: .dictionary, found: value))
      return nil
    }
    let sheet = place.scope.nested(key, values)
    let errorsBefore = problems.count { $0.severity == .error }
    reportUnknownKeys(in: sheet, known: Key.all)
    var declaration = ComposeSheetDeclaration(
      title: string(sheet, Key.title), postButtonTitle: string(sheet, Key.postButtonTitle),
      placeholder: string(sheet, Key.placeholder), maximumCharacters: count(sheet, Key.maximumCharacters))
    declaration.configurationItems = configurationItems(in: sheet)
    declaration.hasText = boolean(sheet, Key.hasText) ?? true
    guard problems.count(where: { $0.severity == .error }) == errorsBefore else { return nil }
    return declaration
  }

  private mutating func configurationItems(in sheet: Scope) -> [ComposeSheetDeclaration.Item] {
    let key = InfoPlistKey.ComposeSheet.configurationItems
    guard let value = sheet[key] else { return [] }
    guard case .array(let elements) = value else {
      report(key, in: sheet, .unexpectedValue(expected: .arrayOfDictionaries, found: value))
      return []
    }
    var items: [ComposeSheetDeclaration.Item] = []
    var firstIndex: [String: Int] = [:]
    for (index, element) in elements.enumerated() {
      guard case .dictionary(let values) = element else {
        report(key, in: sheet, .unexpectedValue(expected: .dictionary, found: element), index: index)
        continue
      }
      let scope = Scope(values: values, path: sheet.path + [key, String(index)])
      guard let item = configurationItem(in: scope) else { continue }
      if let first = firstIndex[item.identifier] {
        report(
          InfoPlistKey.ComposeSheet.identifier, in: scope,
          .duplicateIdentifier(item.identifier, firstIndex: first))
        continue
      }
      firstIndex[item.identifier] = index
      items.append(item)
    }
    return items
  }

  private mutating func configurationItem(in item: Scope) -> ComposeSheetDeclaration.Item? {
    typealias Key = InfoPlistKey.ComposeSheet
    reportUnknownKeys(in: item, known: Key.itemKeys)
    let identifier = requiredString(item, Key.identifier)
    if let identifier, !InfoPlistForm.isConfigurationIdentifier(identifier) {
      report(
        Key.identifier, in: item,
        .unexpectedValue(expected: .configurationIdentifier, found: .string(identifier)))
      return nil
    }
    let title = requiredString(item, Key.title)
    var choices: [String]?
    if let value = item[Key.choices] {
      let list = stringArray(item, Key.choices, expected: .string) { _ in true }
      if case .array(let elements) = value, elements.isEmpty {
        report(Key.choices, in: item, .unexpectedValue(expected: .nonEmptyArrayOfStrings, found: value))
      }
      choices = list
    }
    let defaultValue = string(item, Key.defaultValue)
    if let defaultValue, let choices, !choices.isEmpty, !choices.contains(defaultValue) {
      report(
        Key.defaultValue, in: item, .unexpectedValue(expected: .oneOf(choices), found: .string(defaultValue)))
    }
    let isSecure = boolean(item, Key.secure) ?? false
    var kind = ComposeSheetDeclaration.Item.Kind.text
    if let name = string(item, Key.kind) {
      if let known = ComposeSheetDeclaration.Item.Kind(rawValue: name) {
        kind = known
      } else {
        let names = ComposeSheetDeclaration.Item.Kind.allCases.map(\.rawValue)
        report(Key.kind, in: item, .unexpectedValue(expected: .oneOf(names), found: .string(name)))
        return nil
      }
    }
    guard let identifier, let title else { return nil }
    return ComposeSheetDeclaration.Item(
      identifier: identifier, title: title, choices: choices, defaultValue: defaultValue, isSecure: isSecure,
      kind: kind)
  }

  /// A key a dictionary of the sheet does not know is a warning, as unknown rule keys are.
  private mutating func reportUnknownKeys(in scope: Scope, known: [String]) {
    for key in scope.values.keys.sorted() where !known.contains(key) {
      report(key, in: scope, .unknownKey(suggestion: Suggestion.nearest(to: key, in: known)), .warning)
    }
  }
}
