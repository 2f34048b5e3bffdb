internal import CGtk

/// Application-wide appearance: extra CSS, and libadwaita's light or dark style.
@MainActor
public enum Style {
  /// Adds `css` for every window of the display, above the theme.
  public static func addCSS(_ css: String) {
    guard let display = gdk_display_get_default() else { return }
    let provider = gtk_css_provider_new()
    gtk_css_provider_load_from_data(provider, css, -1)
    gtk_style_context_add_provider_for_display(
      display, cast(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    // The display holds its own reference.
    g_object_unref(raw(provider))
  }

  /// Whether the windows are drawn dark (the desktop prefers it, or `ADW_DEBUG_COLOR_SCHEME`).
  public static var isDark: Bool {
    adw_style_manager_get_dark(adw_style_manager_get_default()) != 0
  }
}

/// The display's clipboard.
@MainActor
public enum Clipboard {
  /// Puts `text` on the clipboard of the display `widget` is on.
  public static func copy(_ text: String, from widget: Widget) {
    gdk_clipboard_set_text(gtk_widget_get_clipboard(widget.widget), text)
  }
}
