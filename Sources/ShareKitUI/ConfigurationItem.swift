import ShareGtk

/// One line below the compose sheet's text: a setting, its value, and what a tap does (Apple's
/// `SLComposeSheetConfigurationItem`).
///
/// ```swift
/// let visibility = ConfigurationItem()
/// visibility.title = "Visibility"
/// visibility.value = "Public"
/// visibility.tapHandler = { [weak self] in self?.pushConfigurationViewController(page) }
/// ```
///
/// Changing a property updates the sheet at once.
@MainActor
open class ConfigurationItem {
  /// The setting's name; also the row's accessible name.
  public var title: String? { didSet { changed?() } }
  /// The current value, shown at the row's end.
  public var value: String? { didSet { changed?() } }
  /// Shows a spinner instead of the value, while the value is being found (a server asked).
  public var valuePending = false { didSet { changed?() } }
  /// Called when the row is activated (click, Enter, Space, an assistive technology's action).
  public var tapHandler: (@MainActor () -> Void)?

  /// Set by the row showing the item.
  var changed: (@MainActor () -> Void)?

  public init() {}

  /// An item with its title and value.
  public convenience init(title: String, value: String? = nil, tapHandler: (@MainActor () -> Void)? = nil) {
    self.init()
    self.title = title
    self.value = value
    self.tapHandler = tapHandler
  }
}

/// A page pushed over the sheet by ``ComposeServiceViewController/pushConfigurationViewController(_:)``
/// (or ``SheetViewController/pushConfigurationViewController(_:)``): a header with Back and the title, and
/// the page's widgets, scrolling when long. Escape goes back, as Back does.
///
/// Give it the widgets with ``init(title:content:)``, or subclass it and override ``loadView()``.
@MainActor
open class ConfigurationViewController {
  /// The title in the page's header.
  public var title: String
  private let content: Widget?
  /// The sheet showing the page, while it does.
  weak var host: SheetHost?

  public init(title: String) {
    self.title = title
    self.content = nil
  }

  /// A page showing `content`, the extension's own widgets.
  public init(title: String, content: Widget) {
    self.title = title
    self.content = content
  }

  /// The page's widgets, asked for once, when the page is pushed.
  open func loadView() -> Widget {
    content ?? Box(.vertical)
  }

  /// Goes back to the page below, as Back does.
  public func dismiss() {
    host?.pop()
  }
}

/// A page that offers a list of values: choosing one calls `onChoose` and goes back.
@MainActor
public final class ChoiceListViewController: ConfigurationViewController {
  public let choices: [String]
  public let selected: String?
  private let onChoose: @MainActor (String) -> Void

  /// - Parameters:
  ///   - selected: the choice marked as current.
  ///   - onChoose: called with the choice, before the page goes back (set the item's value here).
  public init(
    title: String, choices: [String], selected: String?, onChoose: @escaping @MainActor (String) -> Void
  ) {
    self.choices = choices
    self.selected = selected
    self.onChoose = onChoose
    super.init(title: title)
  }

  public override func loadView() -> Widget {
    let list = ListBox()
    list.addStyleClass("boxed-list")
    list.align(vertical: .start)
    list.setMargins(top: 12, bottom: 12, start: 12, end: 12)
    for choice in choices {
      let line = Box(.horizontal, spacing: 12)
      let label = Label(choice)
      label.horizontalPosition = 0
      label.expand(horizontally: true)
      line.append(label)
      let mark = Image(iconNames: ["object-select-symbolic"], pixelSize: 16)
      mark.isVisible = choice == selected
      line.append(mark)
      line.setMargins(top: 8, bottom: 8, start: 6, end: 6)
      let button = Button(content: line)
      button.addStyleClass("flat")
      button.addStyleClass("share-sheet-row")
      button.setAccessibleLabel(choice)
      if choice == selected { button.setAccessibleDescription("Selected") }
      button.onClick { [weak self] in
        guard let self else { return }
        onChoose(choice)
        dismiss()
      }
      list.append(ListRow(child: button))
    }
    return list
  }
}
