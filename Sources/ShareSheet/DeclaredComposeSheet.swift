import Dispatch
import ShareCore
import ShareKitUI
import ShareProtocol

/// The compose sheet a service declares in its `Info.plist` (`XDGShareComposeSheet`), for
/// extensions in any language: ShareKitUI's own ``ComposeServiceViewController``, configured from
/// the declaration instead of by a subclass in Swift.
///
/// Choices push a list of them; free text pushes a page with a field named by the item's title;
/// a secure item's field hides what is typed, and its row shows dots, never the text. Post is
/// insensitive while the text is over `MaximumCharacters` or an item has no value.
@MainActor
final class DeclaredComposeSheet: ComposeServiceViewController {
  /// What the service declares; set before the sheet is shown.
  var declaration = ComposeSheetDeclaration()
  /// The service's name, the title when the declaration has none.
  var serviceName = ""
  /// The text to start from (the host's `ComposeLine`).
  var startText = ""
  /// Each item's value, by identifier: at first the host's, then as the user chooses.
  var values: [String: String] = [:]
  /// Called on Post with what the user wrote and chose, before the request completes.
  var onPost: (@MainActor (ComposePayload) -> Void)?

  /// What a secure item's row shows once it has a value: always as many dots, so that not even
  /// the length shows.
  static let hiddenValue = String(repeating: "\u{2022}", count: 8)

  override func viewDidLoad() {
    title = declaration.title ?? serviceName
    postButtonTitle = declaration.postButtonTitle ?? "Post"
    placeholder = declaration.placeholder
    showsText = declaration.hasText
    contentText = startText
  }

  override func isContentValid() -> Bool {
    var valid = declaration.configurationItems.allSatisfy { !(values[$0.identifier] ?? "").isEmpty }
    if let maximum = declaration.maximumCharacters {
      let remaining = maximum - contentText.count
      charactersRemaining = remaining
      valid = valid && remaining >= 0
    }
    return valid
  }

  override func configurationItems() -> [ConfigurationItem] {
    declaration.configurationItems.map { declared in
      let row = ConfigurationItem(title: declared.title, value: shown(declared))
      row.tapHandler = { [weak self, weak row] in
        guard let self, let row else { return }
        pushConfigurationViewController(page(for: declared, row: row))
      }
      return row
    }
  }

  override func didSelectPost() {
    onPost?(ComposePayload(contentText: contentText, configuration: values))
    super.didSelectPost()
  }

  // MARK: Pages

  private func shown(_ item: ComposeSheetDeclaration.Item) -> String? {
    guard let value = values[item.identifier], !value.isEmpty else { return nil }
    return item.isSecure ? Self.hiddenValue : value
  }

  private func page(for item: ComposeSheetDeclaration.Item, row: ConfigurationItem)
    -> ConfigurationViewController
  {
    if let choices = item.choices {
      return ChoiceListViewController(
        title: item.title, choices: choices, selected: values[item.identifier]
      ) { [weak self, weak row] choice in
        guard let self else { return }
        values[item.identifier] = choice
        row?.value = shown(item)
        validateContent()
      }
    }
    let page = TextItemPage(item: item, text: values[item.identifier] ?? "")
    page.onChanged = { [weak self, weak row] text in
      guard let self else { return }
      values[item.identifier] = text
      row?.value = shown(item)
      validateContent()
    }
    return page
  }
}

/// A free-text item's page: one field, named by the item's title; a password field for a
/// secure one. Enter goes back, as Back does; the field has the focus once the page is in.
@MainActor
private final class TextItemPage: ConfigurationViewController {
  /// Each text the field holds, as the user types.
  var onChanged: (@MainActor (String) -> Void)?
  /// Held here: GTK holds the widgets, not these wrappers, and the page lives while it is shown.
  private let entry: Entry?
  private let password: PasswordEntry?

  init(item: ComposeSheetDeclaration.Item, text: String) {
    let field: Widget
    if item.isSecure {
      let password = PasswordEntry(text: text)
      (self.password, entry, field) = (password, nil, password)
    } else {
      let entry = Entry(text: text)
      (self.entry, password, field) = (entry, nil, entry)
    }
    field.setAccessibleLabel(item.title)
    field.expand(horizontally: true)
    let box = Box(.vertical, spacing: 6)
    box.setMargins(top: 18, bottom: 18, start: 18, end: 18)
    box.append(field)
    super.init(title: item.title, content: box)
    entry?.onChanged { [weak self] in self?.changed() }
    password?.onChanged { [weak self] in self?.changed() }
    entry?.onActivate { [weak self] in self?.dismiss() }
    password?.onActivate { [weak self] in self?.dismiss() }
    DispatchQueue.main.async { [weak field] in MainActor.assumeIsolated { _ = field?.grabFocus() } }
  }

  private func changed() {
    onChanged?(entry?.text ?? password?.text ?? "")
  }
}
