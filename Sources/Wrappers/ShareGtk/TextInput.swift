internal import CGtk

/// A multi-line text field (`GtkTextView`), wrapping on words; the accessible role is text, with
/// AT-SPI's EditableText.
public final class TextView: Widget {
  public init() {
    super.init(gtk_text_view_new())
    gtk_text_view_set_wrap_mode(cast(widget), GTK_WRAP_WORD_CHAR)
    gtk_text_view_set_accepts_tab(cast(widget), 0)
  }

  private var buffer: UnsafeMutablePointer<GtkTextBuffer> {
    gtk_text_view_get_buffer(cast(widget))
  }

  /// The whole text.
  public var text: String {
    get {
      var start = GtkTextIter()
      var end = GtkTextIter()
      gtk_text_buffer_get_bounds(buffer, &start, &end)
      guard let copied = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return "" }
      defer { g_free(copied) }
      return String(cString: copied)
    }
    set { gtk_text_buffer_set_text(buffer, newValue, -1) }
  }

  /// Space between the text and the field's edges, in logical pixels.
  public func setTextMargins(_ margin: Int32) {
    gtk_text_view_set_top_margin(cast(widget), margin)
    gtk_text_view_set_bottom_margin(cast(widget), margin)
    gtk_text_view_set_left_margin(cast(widget), margin)
    gtk_text_view_set_right_margin(cast(widget), margin)
  }

  /// Calls `handler` after every change of the text (typing, pasting, an assistive technology).
  public func onChanged(_ handler: @escaping @MainActor () -> Void) {
    connect(raw(buffer), "changed", handler)
  }
}

/// A one-line field whose text the user edits (`GtkEditable`): ``Entry``, ``PasswordEntry``,
/// ``SearchEntry``.
public class Editable: Widget {
  public var text: String {
    get { String(cString: gtk_editable_get_text(cast(widget))) }
    set { gtk_editable_set_text(cast(widget), newValue) }
  }

  /// Calls `handler` after every change of the text.
  public func onChanged(_ handler: @escaping @MainActor () -> Void) {
    connect(raw(widget), "changed", handler)
  }

  /// Calls `handler` when Enter is pressed in the field.
  public func onActivate(_ handler: @escaping @MainActor () -> Void) {
    connect(raw(widget), "activate", handler)
  }
}

/// A one-line text field (`GtkEntry`).
public final class Entry: Editable {
  /// - Parameter placeholder: shown greyed while the field is empty.
  public init(text: String = "", placeholder: String? = nil) {
    super.init(gtk_entry_new())
    if let placeholder { gtk_entry_set_placeholder_text(cast(widget), placeholder) }
    gtk_editable_set_text(cast(widget), text)
  }
}

/// A button that is on or off: ``CheckButton``, ``ToggleButton``. GTK 4 makes them two classes
/// with calls of their own that do the same, so each hands its own to this one.
public class TwoStateButton: Widget {
  private let getActive: (UnsafeMutablePointer<GtkWidget>) -> gboolean
  private let setActive: (UnsafeMutablePointer<GtkWidget>, gboolean) -> Void

  init(
    _ widget: UnsafeMutablePointer<GtkWidget>, isActive: Bool,
    get: @escaping (UnsafeMutablePointer<GtkWidget>) -> gboolean,
    set: @escaping (UnsafeMutablePointer<GtkWidget>, gboolean) -> Void
  ) {
    getActive = get
    setActive = set
    super.init(widget)
    set(widget, isActive.gboolean)
  }

  public var isActive: Bool {
    get { getActive(widget) != 0 }
    set { setActive(widget, newValue.gboolean) }
  }

  /// Calls `handler` when the button turns on or off, by the user or by ``isActive``.
  public func onToggled(_ handler: @escaping @MainActor () -> Void) {
    connect(raw(widget), "toggled", handler)
  }
}

/// A check box with a label (`GtkCheckButton`); check buttons joined in a group are radio buttons.
public final class CheckButton: TwoStateButton {
  public init(label: String, isActive: Bool = false) {
    super.init(
      gtk_check_button_new_with_label(label), isActive: isActive,
      get: { gtk_check_button_get_active(cast($0)) }, set: { gtk_check_button_set_active(cast($0), $1) })
  }

  /// Makes this button one of `other`'s group: at most one of a group is active.
  public func join(_ other: CheckButton) {
    gtk_check_button_set_group(cast(widget), cast(other.widget))
  }
}

/// One widget with others drawn over it (`GtkOverlay`).
public final class Overlay: Widget {
  public init(child: Widget) {
    super.init(gtk_overlay_new())
    gtk_overlay_set_child(cast(widget), child.widget)
  }

  /// Adds `overlay` above the child; with `passesInput` clicks go through it to the child.
  public func addOverlay(_ overlay: Widget, passesInput: Bool = true) {
    gtk_overlay_add_overlay(cast(widget), overlay.widget)
    if passesInput { gtk_widget_set_can_target(overlay.widget, 0) }
  }
}

/// A button that stays pressed or not (`GtkToggleButton`). Unlike GTK 4.8's check button, which
/// AT-SPI cannot activate, it has the button's "click" action; its state is "checked".
public final class ToggleButton: TwoStateButton {
  /// A toggle button showing `content`; give it an accessible label.
  public init(content: Widget, isActive: Bool = false) {
    super.init(
      gtk_toggle_button_new(), isActive: isActive, get: { gtk_toggle_button_get_active(cast($0)) },
      set: { gtk_toggle_button_set_active(cast($0), $1) })
    gtk_button_set_child(cast(widget), content.widget)
  }

  /// Makes this button one of `other`'s group: at most one of a group is active.
  public func join(_ other: ToggleButton) {
    gtk_toggle_button_set_group(cast(widget), cast(other.widget))
  }
}

extension Widget {
  /// Whether pointer clicks reach the widget; a decoration inside a button lets them through.
  public var receivesPointer: Bool {
    get { gtk_widget_get_can_target(widget) != 0 }
    set { gtk_widget_set_can_target(widget, newValue.gboolean) }
  }
}

/// An on/off switch (`GtkSwitch`), for a setting; give it an accessible label.
public final class Switch: Widget {
  public init(isActive: Bool = false) {
    super.init(gtk_switch_new())
    gtk_switch_set_active(cast(widget), isActive.gboolean)
  }

  public var isActive: Bool {
    get { gtk_switch_get_active(cast(widget)) != 0 }
    set { gtk_switch_set_active(cast(widget), newValue.gboolean) }
  }

  /// Calls `handler` when the switch turns on or off, by the user or by ``isActive``.
  public func onToggled(_ handler: @escaping @MainActor () -> Void) {
    // `notify` hands its handler the property's spec, as a one-object signal does.
    connectObject(raw(widget), "notify::active") { _ in handler() }
  }
}
