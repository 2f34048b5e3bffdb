internal import CGtk

/// Text on screen (`GtkLabel`).
public final class Label: Widget {
  public init(_ text: String = "") {
    super.init(gtk_label_new(text))
  }

  public var text: String {
    get { String(cString: gtk_label_get_text(cast(widget))) }
    set { gtk_label_set_text(cast(widget), newValue) }
  }

  /// Where the text sits in the label's width: 0 at the start, 1 at the end.
  public var horizontalPosition: Float {
    get { gtk_label_get_xalign(cast(widget)) }
    set { gtk_label_set_xalign(cast(widget), newValue) }
  }

  /// Ends a text too long for one line with "…" instead of growing the window.
  public func ellipsizeAtEnd() {
    gtk_label_set_ellipsize(cast(widget), PANGO_ELLIPSIZE_END)
    gtk_label_set_single_line_mode(cast(widget), 1)
  }

  /// Wraps a long text on word boundaries, at most `lines` lines when given (then ellipsized).
  public func wrap(lines: Int32? = nil) {
    gtk_label_set_wrap(cast(widget), 1)
    gtk_label_set_wrap_mode(cast(widget), PANGO_WRAP_WORD_CHAR)
    if let lines {
      gtk_label_set_lines(cast(widget), lines)
      gtk_label_set_ellipsize(cast(widget), PANGO_ELLIPSIZE_END)
    }
  }

  /// Lets the user select and copy the text.
  public var isSelectable: Bool {
    get { gtk_label_get_selectable(cast(widget)) != 0 }
    set { gtk_label_set_selectable(cast(widget), newValue.gboolean) }
  }

  /// The widest the label grows, in characters; narrower, it wraps (or is cut, past its lines),
  /// and asks for no width of its own: the window keeps its width.
  public func setMaximumWidthInCharacters(_ characters: Int32) {
    gtk_label_set_max_width_chars(cast(widget), characters)
  }

  /// The width the label asks for, in characters; it can still shrink to what it must show.
  public func setWidthInCharacters(_ characters: Int32) {
    gtk_label_set_width_chars(cast(widget), characters)
    gtk_label_set_max_width_chars(cast(widget), characters)
  }
}

/// A push button (`GtkButton`): a text, an icon, or any content.
public final class Button: Widget {
  /// A button showing `label`.
  public init(label: String) {
    super.init(gtk_button_new_with_label(label))
  }

  /// A button showing only an icon; give it an accessible label.
  public init(iconName: String) {
    super.init(gtk_button_new_from_icon_name(iconName))
  }

  /// A button showing `content`; give it an accessible label, as GTK 4.8 names it after nothing.
  public init(content: Widget) {
    super.init(gtk_button_new())
    gtk_button_set_child(cast(widget), content.widget)
  }

  /// The text shown, for a button made with one.
  public var label: String {
    get { gtk_button_get_label(cast(widget)).map { String(cString: $0) } ?? "" }
    set { gtk_button_set_label(cast(widget), newValue) }
  }

  /// Replaces the icon of a button showing one.
  public func setIconName(_ name: String) {
    gtk_button_set_icon_name(cast(widget), name)
  }

  /// Calls `handler` when the button is clicked: by pointer, keyboard, or an assistive
  /// technology's action.
  public func onClick(_ handler: @escaping @MainActor () -> Void) {
    connect(raw(widget), "clicked", handler)
  }
}

/// An icon or a small picture (`GtkImage`), drawn at a size in logical pixels.
public final class Image: Widget {
  /// The first of `iconNames` the icon theme has (a `GThemedIcon`), so that a missing icon
  /// falls back to a generic one.
  public init(iconNames: [String], pixelSize: Int32) {
    var pointers = iconNames.map { g_strdup($0) }
    let icon = pointers.withUnsafeMutableBufferPointer { buffer in
      g_themed_icon_new_from_names(buffer.baseAddress, Int32(buffer.count))
    }
    for pointer in pointers { g_free(pointer) }
    super.init(gtk_image_new_from_gicon(icon))
    g_object_unref(raw(icon))
    gtk_image_set_pixel_size(cast(widget), pixelSize)
  }

  /// `texture`, scaled to fit `pixelSize`.
  public init(texture: Texture, pixelSize: Int32) {
    super.init(gtk_image_new_from_paintable(texture.paintable))
    gtk_image_set_pixel_size(cast(widget), pixelSize)
  }
}

/// A text field for searching (`GtkSearchEntry`): a magnifier, a clear button, Escape handling.
public final class SearchEntry: Editable {
  public init(placeholder: String) {
    super.init(gtk_search_entry_new())
    setProperty(raw(widget), "placeholder-text", string: placeholder)
    // Filtering a short list costs nothing: follow each key at once rather than after GTK's
    // default 150 ms.
    gtk_search_entry_set_search_delay(cast(widget), 0)
  }

  /// Calls `handler` when the text changes.
  public func onSearchChanged(_ handler: @escaping @MainActor () -> Void) {
    connect(raw(widget), "search-changed", handler)
  }

  /// Keys typed anywhere in `widget` that the focused control does not use go to this field:
  /// type-to-search.
  public func captureKeys(from widget: Widget) {
    gtk_search_entry_set_key_capture_widget(cast(self.widget), widget.widget)
  }
}

/// A busy indicator (`GtkSpinner`).
public final class Spinner: Widget {
  public init() {
    super.init(gtk_spinner_new())
  }

  public var isSpinning: Bool {
    get { gtk_spinner_get_spinning(cast(widget)) != 0 }
    set { gtk_spinner_set_spinning(cast(widget), newValue.gboolean) }
  }
}

/// How far a piece of work has come (`GtkProgressBar`).
public final class ProgressBar: Widget {
  public init() {
    super.init(gtk_progress_bar_new())
  }

  /// From 0 to 1; `nil` makes the bar pulse (work of unknown length).
  public func setFraction(_ fraction: Double?) {
    if let fraction {
      gtk_progress_bar_set_fraction(cast(widget), min(1, max(0, fraction)))
    } else {
      gtk_progress_bar_pulse(cast(widget))
    }
  }
}
