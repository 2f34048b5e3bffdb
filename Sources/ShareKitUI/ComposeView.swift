import ShareGtk

/// The compose sheet's widgets below the header bar: the text with its placeholder (none when the
/// sheet has no text), the preview beside it, the characters-remaining count, and the
/// configuration items.
@MainActor
final class ComposeView {
  let root = Box(.vertical, spacing: 12)
  let textView = TextView()
  private let placeholderLabel = Label()
  private let previewSlot = Box(.vertical)
  private let count = Label()
  private let list = ListBox()
  private var rows: [ListRow] = []
  var onEdit: (@MainActor () -> Void)?

  init(text: String, placeholder: String?, showsText: Bool = true) {
    root.setMargins(top: 12, bottom: 18, start: 18, end: 18)
    textView.text = text
    textView.setAccessibleLabel("Message")
    textView.setTextMargins(8)
    textView.addStyleClass("card")
    placeholderLabel.addStyleClass("dim-label")
    placeholderLabel.align(horizontal: .start, vertical: .start)
    placeholderLabel.setMargins(top: 8, start: 10)
    // The field reads the placeholder as its description; the label itself is decoration.
    placeholderLabel.setAccessibilityHidden(true)
    let field = Overlay(child: textView)
    field.addOverlay(placeholderLabel)
    let scrolled = ScrolledWindow(child: field)
    scrolled.setContentHeight(minimum: 140, maximum: 240)
    scrolled.expand(horizontally: true, vertically: true)

    let top = Box(.horizontal, spacing: 12)
    // Without a text, the preview alone says what is shared; the field would be an empty box
    // with no purpose, and an assistive technology would name it all the same.
    scrolled.isVisible = showsText
    scrolled.setAccessibilityHidden(!showsText)
    top.append(scrolled)
    if showsText {
      previewSlot.align(vertical: .start)
    } else {
      previewSlot.align(horizontal: .center, vertical: .start)
      previewSlot.expand(horizontally: true)
    }
    previewSlot.isVisible = false
    top.append(previewSlot)
    root.append(top)

    count.align(horizontal: .end)
    count.addStyleClass("caption")
    count.addStyleClass("share-sheet-count")
    count.isVisible = false
    root.append(count)

    list.addStyleClass("boxed-list")
    list.isVisible = false
    root.append(list)

    self.placeholder = placeholder
    textView.onChanged { [weak self] in
      guard let self else { return }
      updatePlaceholder()
      onEdit?()
    }
  }

  var text: String {
    get { textView.text }
    set { textView.text = newValue }
  }

  var placeholder: String? {
    didSet {
      placeholderLabel.text = placeholder ?? ""
      if let placeholder { textView.setAccessibleDescription(placeholder) }
      updatePlaceholder()
    }
  }

  private func updatePlaceholder() {
    placeholderLabel.isVisible = placeholder != nil && textView.text.isEmpty
  }

  func showPreview(_ preview: Widget) {
    previewSlot.append(preview)
    previewSlot.isVisible = true
  }

  func showRemaining(_ remaining: Int?) {
    guard let remaining else {
      count.isVisible = false
      return
    }
    // Always "characters", for every N: the name is a contract (tests, screen-reader scripts).
    let text = "\(remaining) characters remaining"
    count.text = text
    // The label's name is its text: what a screen reader reads and a test finds.
    count.setAccessibleLabel(text)
    count.isVisible = true
  }

  func showValidity(_ valid: Bool) {
    count.setStyleClass("warning", !valid)
  }

  func showItems(_ items: [ConfigurationItem]) {
    for row in rows { list.remove(row) }
    rows = items.map { ConfigurationRow.make(for: $0) }
    for row in rows { list.append(row) }
    list.isVisible = !rows.isEmpty
  }
}

/// A configuration item's row: a button (GTK 4.8's `AdwActionRow` has no AT-SPI action) named by
/// the item's title, showing the value or a spinner, and an arrow saying it opens a page.
@MainActor
enum ConfigurationRow {
  static func make(for item: ConfigurationItem) -> ListRow {
    let line = Box(.horizontal, spacing: 12)
    line.setMargins(top: 8, bottom: 8, start: 6, end: 6)
    let title = Label()
    title.horizontalPosition = 0
    title.expand(horizontally: true)
    let value = Label()
    value.addStyleClass("dim-label")
    value.ellipsizeAtEnd()
    let spinner = Spinner()
    let arrow = Image(iconNames: ["go-next-symbolic"], pixelSize: 16)
    for part in [title, value, spinner, arrow] as [Widget] { line.append(part) }
    let button = Button(content: line)
    button.addStyleClass("flat")
    button.addStyleClass("share-sheet-row")
    let row = ListRow(child: button)
    func update() {
      title.text = item.title ?? ""
      button.setAccessibleLabel(item.title ?? "")
      value.text = item.value ?? ""
      value.isVisible = !item.valuePending
      spinner.isVisible = item.valuePending
      spinner.isSpinning = item.valuePending
      // Read after the title: "Visibility, Public".
      button.setAccessibleDescription(item.valuePending ? "Loading" : item.value ?? "")
    }
    update()
    // Weakly: the item holds this closure.
    item.changed = { [weak item] in
      guard item != nil else { return }
      update()
    }
    button.onClick { [weak item] in item?.tapHandler?() }
    return row
  }
}
