internal import CGtk

/// A GTK widget seen from Swift.
///
/// The wrapper holds a reference to its widget (the floating one sunk), so the widget lives at
/// least as long as the wrapper; a parent holds its own. Signal handlers are owned by the widget:
/// a handler that captures its owner must capture it weakly, or owner and widget keep each other
/// alive.
@MainActor
public class Widget {
  let widget: UnsafeMutablePointer<GtkWidget>

  init(_ widget: UnsafeMutablePointer<GtkWidget>) {
    self.widget = widget
    g_object_ref_sink(raw(widget))
  }

  isolated deinit {
    g_object_unref(raw(widget))
  }

  /// Whether the widget is shown (`gtk_widget_set_visible`).
  public var isVisible: Bool {
    get { gtk_widget_get_visible(widget) != 0 }
    set { gtk_widget_set_visible(widget, newValue.gboolean) }
  }

  /// Whether the widget reacts to input; an insensitive one is drawn greyed out.
  public var isSensitive: Bool {
    get { gtk_widget_get_sensitive(widget) != 0 }
    set { gtk_widget_set_sensitive(widget, newValue.gboolean) }
  }

  /// Whether the widget itself can take the keyboard focus (its children decide for themselves).
  public var canFocus: Bool {
    get { gtk_widget_get_focusable(widget) != 0 }
    set { gtk_widget_set_focusable(widget, newValue.gboolean) }
  }

  /// Moves the keyboard focus to the widget (or its first focusable child); `false` when it cannot.
  @discardableResult
  public func grabFocus() -> Bool {
    gtk_widget_grab_focus(widget) != 0
  }

  /// Whether the keyboard focus is on this widget or one of its descendants.
  public var containsFocus: Bool {
    guard let root = gtk_widget_get_root(widget), let focus = gtk_root_get_focus(root) else { return false }
    return focus == widget || gtk_widget_is_ancestor(focus, widget) != 0
  }

  /// Adds a CSS class (`flat`, `dim-label`, `title-2`, `boxed-list`, …).
  public func addStyleClass(_ name: String) {
    gtk_widget_add_css_class(widget, name)
  }

  public func removeStyleClass(_ name: String) {
    gtk_widget_remove_css_class(widget, name)
  }

  /// Adds or removes a CSS class.
  public func setStyleClass(_ name: String, _ present: Bool) {
    present ? addStyleClass(name) : removeStyleClass(name)
  }

  /// Space around the widget, in logical pixels.
  public func setMargins(top: Int32 = 0, bottom: Int32 = 0, start: Int32 = 0, end: Int32 = 0) {
    gtk_widget_set_margin_top(widget, top)
    gtk_widget_set_margin_bottom(widget, bottom)
    gtk_widget_set_margin_start(widget, start)
    gtk_widget_set_margin_end(widget, end)
  }

  /// How the widget sits in extra space its parent gives it.
  public enum Alignment: Sendable {
    case fill, start, end, center

    var gtk: GtkAlign {
      switch self {
      case .fill: GTK_ALIGN_FILL
      case .start: GTK_ALIGN_START
      case .end: GTK_ALIGN_END
      case .center: GTK_ALIGN_CENTER
      }
    }
  }

  public func align(horizontal: Alignment? = nil, vertical: Alignment? = nil) {
    if let horizontal { gtk_widget_set_halign(widget, horizontal.gtk) }
    if let vertical { gtk_widget_set_valign(widget, vertical.gtk) }
  }

  /// Whether the widget takes extra space its parent has.
  public func expand(horizontally: Bool? = nil, vertically: Bool? = nil) {
    if let horizontally { gtk_widget_set_hexpand(widget, horizontally.gboolean) }
    if let vertically { gtk_widget_set_vexpand(widget, vertically.gboolean) }
  }

  /// The smallest size the widget may get; -1 leaves a dimension to the widget.
  public func setSizeRequest(width: Int32 = -1, height: Int32 = -1) {
    gtk_widget_set_size_request(widget, width, height)
  }

  /// Whether drawing stops at the widget's bounds (rounded corners of a thumbnail clip it).
  public func clipContent() {
    gtk_widget_set_overflow(widget, GTK_OVERFLOW_HIDDEN)
  }

  /// A tooltip (also the accessible description when the widget has none of its own).
  public var tooltip: String? {
    get { gtk_widget_get_tooltip_text(widget).map { String(cString: $0) } }
    set { gtk_widget_set_tooltip_text(widget, newValue) }
  }

  // MARK: Accessibility

  /// The name assistive technologies read (`GTK_ACCESSIBLE_PROPERTY_LABEL`); buttons whose
  /// content is an icon and a label need one, as GTK 4.8 names them after nothing.
  public func setAccessibleLabel(_ label: String) {
    updateAccessibleProperty(GTK_ACCESSIBLE_PROPERTY_LABEL, label)
  }

  /// A longer description read after the name (`GTK_ACCESSIBLE_PROPERTY_DESCRIPTION`).
  public func setAccessibleDescription(_ description: String) {
    updateAccessibleProperty(GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description)
  }

  /// Takes the widget and its subtree out of the accessibility tree, or brings them back
  /// (`GTK_ACCESSIBLE_STATE_HIDDEN`). GTK 4.8 leaves a hidden stack page in the tree, shown as
  /// visible; assistive technologies would read and activate it.
  public func setAccessibilityHidden(_ hidden: Bool) {
    var state = GTK_ACCESSIBLE_STATE_HIDDEN
    var value = GValue()
    g_value_init(&value, FundamentalType.boolean)
    g_value_set_boolean(&value, hidden.gboolean)
    gtk_accessible_update_state_value(cast(widget), 1, &state, &value)
    g_value_unset(&value)
  }

  private func updateAccessibleProperty(_ property: GtkAccessibleProperty, _ text: String) {
    var property = property
    var value = GValue()
    g_value_init(&value, FundamentalType.string)
    g_value_set_string(&value, text)
    gtk_accessible_update_property_value(cast(widget), 1, &property, &value)
    g_value_unset(&value)
  }

  // MARK: Input

  /// When an event controller sees a key: before the focused widget (`capture`) or after it
  /// left the key alone (`bubble`).
  public enum KeyPhase: Sendable {
    case capture, bubble
  }

  /// Calls `handler` for each key pressed while the focus is in this widget; the handler returns
  /// whether it handled the key (then no other widget sees it).
  public func onKeyPress(
    _ phase: KeyPhase = .bubble, _ handler: @escaping @MainActor (Key, KeyModifiers) -> Bool
  ) {
    let controller = gtk_event_controller_key_new()
    gtk_event_controller_set_propagation_phase(
      controller, phase == .capture ? GTK_PHASE_CAPTURE : GTK_PHASE_BUBBLE)
    connectKeyPressed(raw(controller), handler)
    // The widget takes the controller's reference.
    gtk_widget_add_controller(widget, controller)
  }

  /// Calls `handler` once GTK has created the widget's window-system resources.
  public func onRealize(_ handler: @escaping @MainActor () -> Void) {
    connect(raw(widget), "realize", after: true, handler)
  }
}
