import ShareCore
import ShareGtk

/// The top of the picker: what is being shared.
@MainActor
final class SummaryView {
  let box = Box(.horizontal, spacing: 12)
  private let pictureSlot = Box(.horizontal)
  private var picture: Widget
  private let title = Label()
  private let subtitle = Label()

  /// The size of the file icon and of the thumbnail, in logical pixels.
  nonisolated static let pictureSize: Int32 = 56

  init(_ summary: SelectionSummary, icons: [String]) {
    box.addStyleClass("share-summary")
    box.setMargins(top: 6, bottom: 6, start: 18, end: 18)
    picture = Image(iconNames: icons, pixelSize: Self.pictureSize)
    pictureSlot.append(picture)
    pictureSlot.align(vertical: .center)
    box.append(pictureSlot)
    let labels = Box(.vertical, spacing: 2)
    labels.align(vertical: .center)
    labels.expand(horizontally: true)
    for label in [title, subtitle] {
      label.horizontalPosition = 0
      labels.append(label)
    }
    title.addStyleClass("heading")
    title.wrap(lines: 2)
    subtitle.addStyleClass("dim-label")
    subtitle.addStyleClass("caption")
    subtitle.ellipsizeAtEnd()
    box.append(labels)
    show(summary, icons: icons)
  }

  func show(_ summary: SelectionSummary, icons: [String]) {
    title.text = summary.title
    subtitle.text = summary.subtitle
    subtitle.isVisible = !summary.subtitle.isEmpty
    replacePicture(with: Image(iconNames: icons, pixelSize: Self.pictureSize))
  }

  /// Shows the scaled-down picture of the first image (or the one the caller gave) in place of
  /// its icon, named `label` for assistive technologies.
  func showThumbnail(_ texture: Texture, label: String) {
    // The frame rounds the picture's corners: a widget clips its children, not what it draws.
    let frame = Box(.horizontal)
    frame.addStyleClass("thumbnail")
    frame.clipContent()
    frame.align(horizontal: .center, vertical: .center)
    let image = Image(texture: texture, pixelSize: Self.pictureSize)
    image.setAccessibleLabel(label)
    frame.append(image)
    replacePicture(with: frame)
  }

  private func replacePicture(with new: Widget) {
    pictureSlot.remove(picture)
    picture = new
    pictureSlot.append(new)
  }
}

/// One service in the list: a button that shares with it, and in edit mode buttons to pin and
/// hide it. Each is a push button AT-SPI can activate, named for the service. What only edit mode
/// or a pin shows is made when first needed.
@MainActor
final class ServiceRowView {
  let service: ShareService
  let row: ListRow
  let main: Button
  private let line = Box(.horizontal, spacing: 4)
  private let content = Box(.horizontal, spacing: 12)
  private(set) var pin: Button?
  private(set) var hide: Button?
  private var pinMark: Image?
  private var hiddenMark: Label?
  private let text: SheetText
  private let togglePin: @MainActor () -> Void
  private let toggleHidden: @MainActor () -> Void
  private(set) var isPinned = false
  private(set) var isHidden = false
  private(set) var isEditing = false

  /// The icon names to try for a service's `CFBundleIconName`: its symbolic form first, as GNOME
  /// draws rows (and as the suggestions' icons are), then the name itself for a theme that has
  /// only the full-colour icon, then a generic one.
  nonisolated static func iconNames(for icon: String) -> [String] {
    let symbolic = icon.hasSuffix("-symbolic") ? icon : icon + "-symbolic"
    var names: [String] = []
    for name in [symbolic, icon, ShareService.defaultIcon + "-symbolic"] where !names.contains(name) {
      names.append(name)
    }
    return names
  }

  /// The icon of `service` at 32 pixels: the image its bundle names (`texture`), else its
  /// themed icon.
  static func icon(of service: ShareService, texture: Texture?) -> Image {
    texture.map { Image(texture: $0, pixelSize: 32) }
      ?? Image(iconNames: iconNames(for: service.icon), pixelSize: 32)
  }

  /// A heading over a row of buttons, the row named by the heading for assistive technologies;
  /// hidden until something is offered in it.
  static func headedRow(_ heading: String, bottomMargin: Int32) -> (container: Box, row: Box) {
    let container = Box(.vertical, spacing: 6)
    let row = Box(.horizontal, spacing: 6)
    container.setMargins(top: 0, bottom: bottomMargin, start: 18, end: 18)
    let label = Label(heading)
    label.horizontalPosition = 0
    label.addStyleClass("heading")
    label.addStyleClass("dim-label")
    row.setAccessibleLabel(heading)
    container.append(label)
    container.append(row)
    container.isVisible = false
    return (container, row)
  }

  init(
    service: ShareService, iconTexture: Texture?, text: SheetText,
    choose: @escaping @MainActor () -> Void, togglePin: @escaping @MainActor () -> Void,
    toggleHidden: @escaping @MainActor () -> Void
  ) {
    self.service = service
    self.text = text
    self.togglePin = togglePin
    self.toggleHidden = toggleHidden

    let icon = Self.icon(of: service, texture: iconTexture)
    let name = Label(service.name)
    name.horizontalPosition = 0
    name.ellipsizeAtEnd()
    name.addStyleClass("service-name")
    let labels = Box(.vertical, spacing: 2)
    labels.align(vertical: .center)
    labels.expand(horizontally: true)
    labels.append(name)
    if let description = service.description, !description.isEmpty {
      let detail = Label(description)
      detail.horizontalPosition = 0
      // Two lines at the window's default width, then cut: most descriptions are a sentence.
      detail.wrap(lines: 2)
      detail.addStyleClass("dim-label")
      detail.addStyleClass("caption")
      labels.append(detail)
    }
    content.append(icon)
    content.append(labels)

    main = Button(content: content)
    main.addStyleClass("flat")
    main.addStyleClass("service")
    main.expand(horizontally: true)
    main.setAccessibleLabel(service.name)
    // The row's details: what it does, and what it may reach beyond the items (its entitlements,
    // as `xdg-share install` showed them), on hover and to assistive technologies.
    let details = [
      service.description.flatMap { $0.isEmpty ? nil : $0 }, text.permissions(service.entitlements),
    ]
    .compactMap { $0 }
    if !details.isEmpty {
      main.setAccessibleDescription(details.joined(separator: ". "))
    }
    if let permissions = text.permissions(service.entitlements) {
      main.tooltip = permissions
    }
    main.onClick(choose)
    line.append(main)
    row = ListRow(child: line)
    row.addStyleClass("service-row")
  }

  /// Shows the row's state: pinned and hidden marks, edit buttons named for what they do next.
  func update(pinned: Bool, hidden: Bool, editing: Bool) {
    isPinned = pinned
    isHidden = hidden
    isEditing = editing
    // In edit mode the row's name does nothing and the focus skips it (choosing waits for
    // Done); it stays drawn as it is, so that only hidden services look dimmed.
    main.canFocus = !editing
    row.setStyleClass("hidden-service", editing && hidden)
    row.setStyleClass("editing", editing)
    if pinned || pinMark != nil { makePinMark().isVisible = pinned }
    if editing && hidden || hiddenMark != nil { makeHiddenMark().isVisible = editing && hidden }
    guard editing || pin != nil else { return }
    let (pin, hide) = makeEditButtons()
    let name = ["service": service.name]
    pin.isVisible = editing
    hide.isVisible = editing
    pin.setStyleClass("pinned", pinned)
    let pinLabel = pinned ? text("Unpin {service}", name) : text("Pin {service}", name)
    pin.setAccessibleLabel(pinLabel)
    pin.tooltip = pinLabel
    let hideLabel = hidden ? text("Show {service}", name) : text("Hide {service}", name)
    hide.setIconName(hidden ? "view-reveal-symbolic" : "view-conceal-symbolic")
    hide.setAccessibleLabel(hideLabel)
    hide.tooltip = hideLabel
  }

  /// The buttons the arrow keys move between, left to right.
  var focusableButtons: [Button] { isEditing ? [pin, hide].compactMap { $0 } : [main] }

  private func makeEditButtons() -> (Button, Button) {
    if let pin, let hide { return (pin, hide) }
    let pin = Button(iconName: "view-pin-symbolic")
    let hide = Button(iconName: "view-conceal-symbolic")
    for button in [pin, hide] {
      button.addStyleClass("flat")
      button.addStyleClass("circular")
      button.align(vertical: .center)
      line.append(button)
    }
    pin.onClick(togglePin)
    hide.onClick(toggleHidden)
    self.pin = pin
    self.hide = hide
    return (pin, hide)
  }

  private func makePinMark() -> Image {
    if let pinMark { return pinMark }
    let mark = Image(iconNames: ["view-pin-symbolic"], pixelSize: 16)
    mark.addStyleClass("dim-label")
    mark.setAccessibleLabel(text("Pinned"))
    content.append(mark)
    pinMark = mark
    return mark
  }

  private func makeHiddenMark() -> Label {
    if let hiddenMark { return hiddenMark }
    let mark = Label(text("Hidden"))
    mark.addStyleClass("dim-label")
    mark.addStyleClass("caption")
    // Before the pin mark, when there is one.
    if let pinMark {
      content.remove(pinMark)
      content.append(mark)
      content.append(pinMark)
    } else {
      content.append(mark)
    }
    hiddenMark = mark
    return mark
  }
}

/// A page with a big icon, a title, a text and buttons: loading, nothing to share, outcomes.
@MainActor
final class StatusView {
  let box = Box(.vertical, spacing: 12)
  private let iconSlot = Box(.horizontal)
  private var icon: Widget
  let spinner = Spinner()
  let title = Label()
  let detail = Label()
  let buttons = Box(.horizontal, spacing: 12)
  let footnote = Label()

  init() {
    box.setMargins(top: 18, bottom: 24, start: 24, end: 24)
    box.align(vertical: .center)
    box.expand(vertically: true)
    icon = Image(iconNames: ["dialog-information-symbolic"], pixelSize: 48)
    iconSlot.append(icon)
    iconSlot.align(horizontal: .center)
    box.append(iconSlot)
    spinner.setSizeRequest(width: 32, height: 32)
    spinner.align(horizontal: .center)
    box.append(spinner)
    title.addStyleClass("title-3")
    title.wrap()
    title.setMaximumWidthInCharacters(30)
    box.append(title)
    detail.wrap(lines: 8)
    // At most 40 characters wide, and no wider than the window: a long path wraps where the
    // window is, rather than widen it.
    detail.setMaximumWidthInCharacters(40)
    detail.isSelectable = true
    // Selectable with the mouse, to copy a path or a link; never focused, so that the page never
    // opens with its text selected all (a focused selectable label selects it), which looked
    // like a highlight of its own.
    detail.canFocus = false
    box.append(detail)
    buttons.align(horizontal: .center)
    buttons.setMargins(top: 6)
    box.append(buttons)
    footnote.addStyleClass("dim-label")
    footnote.addStyleClass("caption")
    box.append(footnote)
  }

  /// Shows an icon (`nil`: the spinner), texts and buttons; empty texts are left out.
  func show(icon names: [String]?, style: String? = nil, title: String, detail: String, buttons: [Button]) {
    spinner.isSpinning = names == nil
    spinner.isVisible = names == nil
    iconSlot.isVisible = names != nil
    if let names {
      let image = Image(iconNames: names, pixelSize: 48)
      if let style { image.addStyleClass(style) }
      iconSlot.remove(icon)
      icon = image
      iconSlot.append(image)
    }
    self.title.text = title
    self.detail.text = detail
    self.detail.isVisible = !detail.isEmpty
    // Buttons are made for the page each time: the old ones go with their handlers.
    for button in shownButtons { self.buttons.remove(button) }
    shownButtons = buttons
    for button in buttons { self.buttons.append(button) }
    // Three pills side by side are wider than the window (Save…, Show in folder, Close): one
    // above another, as wide as the widest, they keep its width.
    self.buttons.orientation = buttons.count > 2 ? .vertical : .horizontal
    self.buttons.isVisible = !buttons.isEmpty
    footnote.isVisible = !footnote.text.isEmpty
  }

  private var shownButtons: [Button] = []
}
