import ShareCore
import ShareGtk

/// The row of actions under the share services, as iOS shows its share targets and a row of
/// actions: each action extension (`com.apple.ui-services`) that accepts the items, a push button
/// named for it. Actions are ordered as services are and follow the search; hidden ones stay out,
/// and edit mode (which pins and hides share services) leaves the row aside.
@MainActor
final class ActionsRow {
  /// The heading and the row; shown only when an action is offered.
  let container: Box
  /// The buttons, named "Actions" for assistive technologies.
  let row: Box
  private(set) var actions: [Action] = []

  /// One action's button.
  struct Action {
    let service: ShareService
    let button: Button
    var isHidden = false
  }

  init(text: SheetText) {
    (container, row) = ServiceRowView.headedRow(text("Actions"), bottomMargin: 18)
  }

  /// Makes a button for each of `services`; `choose` runs the one activated.
  func set(
    _ services: [ShareService], iconTextures: [String: Texture], choose: @escaping @MainActor (String) -> Void
  ) {
    actions = services.map { service in
      let content = Box(.vertical, spacing: 4)
      content.append(ServiceRowView.icon(of: service, texture: iconTextures[service.id]))
      content.append(Label.tileCaption(service.name))
      let id = service.id
      let button = Button.tile(
        content, styleClass: "action", accessibleName: service.name,
        tooltip: service.description.flatMap { $0.isEmpty ? nil : $0 } ?? service.name
      ) { choose(id) }
      return Action(service: service, button: button)
    }
  }

  /// Puts the actions in `order` (the model's, hidden ones included) and leaves out hidden ones.
  func arrange(_ order: [PickerModel.Row]) {
    let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1.service.id, $0) })
    let hidden = Set(order.filter(\.isHidden).map(\.service.id))
    for action in actions { row.remove(action.button) }
    actions.sort { (position[$0.service.id] ?? 0) < (position[$1.service.id] ?? 0) }
    for index in actions.indices {
      actions[index].isHidden = hidden.contains(actions[index].service.id)
      row.append(actions[index].button)
    }
  }

  var isOffered: Bool { actions.contains { !$0.isHidden } }

  /// Shows the actions `query` finds, none in edit mode; marks the first when `markFirst`.
  func filter(query: String, editing: Bool, markFirst: Bool) {
    var first = markFirst
    for action in actions {
      let shown = !editing && !action.isHidden && PickerModel.matches(action.service, query: query)
      action.button.isVisible = shown
      action.button.setAccessibilityHidden(!shown)
      action.button.setStyleClass("first-match", shown && first && !query.isEmpty)
      if shown { first = false }
    }
    container.isVisible = visible.first != nil
    container.setAccessibilityHidden(!container.isVisible)
  }

  /// The actions shown, in order.
  var visible: [Action] { actions.filter { $0.button.isVisible } }

  /// The row's style, over libadwaita's and the picker's.
  static let css = """
    button.action { padding: 6px 4px; }
    button.action.first-match { background-color: alpha(@accent_bg_color, 0.14); }
    """

  /// Whether the focus is on one of the buttons.
  var containsFocus: Bool { row.containsFocus }
}

extension PickerWindow {
  /// Enter in the search field without a service found: the first action found.
  func chooseFirstAction() {
    guard !editing, !search.text.isEmpty, let first = actionsRow.visible.first else { return }
    choose(first.service.id)
  }
}

extension Label {
  /// A line below a tile's icon (an action's, a direct target's): a caption, ten characters wide,
  /// ellipsized.
  static func tileCaption(_ text: String) -> Label {
    let label = Label(text)
    label.addStyleClass("caption")
    label.ellipsizeAtEnd()
    label.setWidthInCharacters(10)
    return label
  }
}

extension Button {
  /// A flat tile of `content` in the row of actions or of direct targets, of style `styleClass`,
  /// named for assistive technologies, running `action` when clicked.
  static func tile(
    _ content: Widget, styleClass: String, accessibleName: String, tooltip: String,
    action: @escaping @MainActor () -> Void
  ) -> Button {
    let button = Button(content: content)
    button.addStyleClass("flat")
    button.addStyleClass(styleClass)
    button.setAccessibleLabel(accessibleName)
    button.tooltip = tooltip
    button.onClick(action)
    return button
  }
}
