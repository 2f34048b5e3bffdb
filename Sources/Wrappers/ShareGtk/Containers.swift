internal import CGtk

/// A row or column of widgets (`GtkBox`).
public final class Box: Widget {
  public enum Orientation: Sendable {
    case horizontal, vertical
  }

  public init(_ orientation: Orientation, spacing: Int32 = 0) {
    super.init(
      gtk_box_new(orientation == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL, spacing)
    )
  }

  public func append(_ child: Widget) {
    gtk_box_append(cast(widget), child.widget)
  }

  /// Removes `child`; a widget that is not a child of this box is left alone.
  public func remove(_ child: Widget) {
    guard gtk_widget_get_parent(child.widget) == widget else { return }
    gtk_box_remove(cast(widget), child.widget)
  }

  /// Whether the children go side by side or one above another.
  public var orientation: Orientation {
    get {
      gtk_orientable_get_orientation(cast(widget)) == GTK_ORIENTATION_HORIZONTAL ? .horizontal : .vertical
    }
    set {
      gtk_orientable_set_orientation(
        cast(widget), newValue == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL)
    }
  }

  /// Whether the children share the box's length equally.
  public var isHomogeneous: Bool {
    get { gtk_box_get_homogeneous(cast(widget)) != 0 }
    set { gtk_box_set_homogeneous(cast(widget), newValue.gboolean) }
  }
}

/// A scrollable view of one child (`GtkScrolledWindow`), scrolling vertically only.
public final class ScrolledWindow: Widget {
  public init(child: Widget) {
    super.init(gtk_scrolled_window_new())
    gtk_scrolled_window_set_policy(cast(widget), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    gtk_scrolled_window_set_child(cast(widget), child.widget)
  }

  /// Grows with its child up to `maximum` logical pixels, then scrolls; never below `minimum`.
  public func setContentHeight(minimum: Int32, maximum: Int32) {
    gtk_scrolled_window_set_propagate_natural_height(cast(widget), 1)
    gtk_scrolled_window_set_min_content_height(cast(widget), minimum)
    gtk_scrolled_window_set_max_content_height(cast(widget), maximum)
  }

  /// Scrolls back to the top.
  public func scrollToTop() {
    gtk_adjustment_set_value(gtk_scrolled_window_get_vadjustment(cast(widget)), 0)
  }
}

/// Pages of which one is shown at a time (`GtkStack`).
///
/// The pages not shown are taken out of the accessibility tree: GTK 4.8 would leave them there,
/// looking visible.
public final class Stack: Widget {
  private var pages: [(name: String, child: Widget)] = []

  public init() {
    super.init(gtk_stack_new())
    gtk_stack_set_transition_type(cast(widget), GTK_STACK_TRANSITION_TYPE_CROSSFADE)
    // The window keeps the size of the page it shows, not of the largest page.
    gtk_stack_set_hhomogeneous(cast(widget), 0)
    gtk_stack_set_vhomogeneous(cast(widget), 0)
    gtk_stack_set_interpolate_size(cast(widget), 1)
  }

  /// Adds a page; the first one added is shown until ``show(_:)`` says otherwise.
  public func add(_ child: Widget, name: String) {
    gtk_stack_add_named(cast(widget), child.widget, name)
    child.setAccessibilityHidden(!pages.isEmpty)
    pages.append((name, child))
  }

  /// Shows the page `name`.
  public func show(_ name: String) {
    gtk_stack_set_visible_child_name(cast(widget), name)
    for page in pages { page.child.setAccessibilityHidden(page.name != name) }
  }

  /// The page shown.
  public var visiblePage: String? {
    gtk_stack_get_visible_child_name(cast(widget)).map { String(cString: $0) }
  }
}

/// A vertical list of rows (`GtkListBox`) that selects nothing: its rows hold their own buttons.
public final class ListBox: Widget {
  public init() {
    super.init(gtk_list_box_new())
    gtk_list_box_set_selection_mode(cast(widget), GTK_SELECTION_NONE)
  }

  public func append(_ row: ListRow) {
    gtk_list_box_append(cast(widget), row.widget)
  }

  /// Removes `row`; a row that is not in this list is left alone.
  public func remove(_ row: ListRow) {
    guard gtk_widget_get_parent(row.widget) == widget else { return }
    gtk_list_box_remove(cast(widget), row.widget)
  }

  /// What the list shows when it has no visible row.
  public func setPlaceholder(_ placeholder: Widget) {
    gtk_list_box_set_placeholder(cast(widget), placeholder.widget)
  }
}

/// A row of a ``ListBox``. It neither activates nor takes the focus itself: the focus goes to
/// the controls inside, which assistive technologies can activate (GTK 4.8 gives rows no action).
public final class ListRow: Widget {
  public init(child: Widget) {
    super.init(gtk_list_box_row_new())
    gtk_list_box_row_set_child(cast(widget), child.widget)
    gtk_list_box_row_set_activatable(cast(widget), 0)
    gtk_list_box_row_set_selectable(cast(widget), 0)
    gtk_widget_set_focusable(widget, 0)
  }
}
