internal import CGtk

// What a share extension's sheet needs beyond the picker's widgets: a title in the header bar,
// no window buttons, a modal window of a measured height, content-type icons, a valid app id.

extension HeaderBar {
  /// Shows `title` in the middle (an `AdwWindowTitle`, read as a label).
  public func setTitle(_ title: String) {
    adw_header_bar_set_title_widget(cast(widget), adw_window_title_new(title, nil))
  }

  /// Whether the window's own buttons (close, minimize) are shown at the ends; a sheet with its
  /// own Cancel has none.
  public func showWindowButtons(_ shown: Bool) {
    adw_header_bar_set_show_start_title_buttons(cast(widget), shown.gboolean)
    adw_header_bar_set_show_end_title_buttons(cast(widget), shown.gboolean)
  }
}

extension Widget {
  /// The height the widget asks for at `width` logical pixels (its natural height).
  public func naturalHeight(forWidth width: Int32) -> Int32 {
    var minimum: Int32 = 0
    var natural: Int32 = 0
    gtk_widget_measure(widget, GTK_ORIENTATION_VERTICAL, width, &minimum, &natural, nil, nil)
    return natural
  }
}

extension Window {
  /// Whether the window keeps the rest of the application from input while it is shown.
  public var isModal: Bool {
    get { gtk_window_get_modal(cast(widget)) != 0 }
    set { gtk_window_set_modal(cast(widget), newValue.gboolean) }
  }
}

extension Application {
  /// Whether `id` is a valid application id (`g_application_id_is_valid`): reverse-DNS, at
  /// least two elements, none starting with a digit.
  public static func isValidID(_ id: String) -> Bool {
    g_application_id_is_valid(id) != 0
  }
}

extension Image {
  /// The icon of a content type (`image/png`, `application/pdf`), falling back to a generic one.
  public convenience init(contentType: String, pixelSize: Int32) {
    let icon = g_content_type_get_icon(contentType)
    var names: [String] = []
    if let icon, g_type_check_instance_is_a(cast(raw(icon)), g_themed_icon_get_type()) != 0,
      let list = g_themed_icon_get_names(icon)
    {
      var index = 0
      while let name = list[index] {
        names.append(String(cString: name))
        index += 1
      }
    }
    if let icon { g_object_unref(raw(icon)) }
    self.init(iconNames: names + ["text-x-generic"], pixelSize: pixelSize)
  }
}
