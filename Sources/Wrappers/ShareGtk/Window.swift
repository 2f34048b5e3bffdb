internal import CGtk

/// Another program's window, named as xdg-desktop-portal names parents: `x11:<XID in hex>` or
/// `wayland:<exported handle>`.
public enum ParentWindow: Equatable, Sendable {
  case x11(UInt)
  case wayland(String)
}

/// A top-level window of the application (`AdwApplicationWindow`), drawn by libadwaita with its
/// own title bar: the content is one widget, usually a box holding a ``HeaderBar``.
public final class Window: Widget {
  public init(application: Application, title: String) {
    super.init(adw_application_window_new(cast(application.application)))
    gtk_window_set_title(cast(widget), title)
  }

  public func setContent(_ content: Widget) {
    adw_application_window_set_content(cast(widget), content.widget)
  }

  /// The size the window opens with, in logical pixels; -1 leaves a dimension to the content.
  public func setDefaultSize(width: Int32, height: Int32) {
    gtk_window_set_default_size(cast(widget), width, height)
  }

  public var isResizable: Bool {
    get { gtk_window_get_resizable(cast(widget)) != 0 }
    set { gtk_window_set_resizable(cast(widget), newValue.gboolean) }
  }

  /// Shows the window and raises it.
  public func present() {
    gtk_window_present(cast(widget))
  }

  /// Asks the window to close, as the close button does (``onCloseRequest(_:)`` may refuse).
  public func close() {
    gtk_window_close(cast(widget))
  }

  /// Draws the focus ring from now on, as after keyboard navigation: moving the focus with
  /// one's own key handler keeps GTK from noticing that the keyboard is in use.
  public func showFocus() {
    gtk_window_set_focus_visible(cast(widget), 1)
  }

  /// Puts the keyboard focus on `widget`, which must be inside this window.
  public func setFocus(_ widget: Widget) {
    gtk_window_set_focus(cast(self.widget), widget.widget)
  }

  /// Calls `handler` when the user closes the window (close button, Alt+F4, ``close()``); the
  /// handler returns `true` to keep it open.
  public func onCloseRequest(_ handler: @escaping @MainActor () -> Bool) {
    connectPredicate(raw(widget), "close-request", handler)
  }

  /// Calls `handler` once the window is closed: gone from the screen and from the application.
  ///
  /// Not GTK's `destroy`: GTK 4 emits that only when the last reference goes, and this wrapper
  /// holds one. A closed window leaves its application (`GtkApplication::window-removed`), which
  /// is what this watches.
  public func onClosed(_ handler: @escaping @MainActor () -> Void) {
    guard let application = gtk_window_get_application(cast(widget)) else { return }
    let address = UInt(bitPattern: raw(widget))
    let connection = Connection()
    connection.id = connectObject(raw(application), "window-removed") { [connection] removed in
      guard removed == address else { return }
      // Once is all: the application outlives the window.
      g_signal_handler_disconnect(raw(application), connection.id)
      handler()
    }
  }

  /// Calls `handler` once, after the window's first frame is drawn (`GdkFrameClock::after-paint`).
  /// Call after ``present()``, which gives the window its frame clock.
  public func onFirstFrame(_ handler: @escaping @MainActor () -> Void) {
    guard let clock = gtk_widget_get_frame_clock(widget) else { return }
    let connection = Connection()
    connection.id = connect(raw(clock), "after-paint") { [connection] in
      // Disconnecting releases this closure's box; the trampoline holds it until we return.
      g_signal_handler_disconnect(raw(clock), connection.id)
      handler()
    }
  }

  /// Makes the window a child of another program's window, so that the desktop keeps it above
  /// that window and centred on it; `false` when the display is of another kind than `parent`.
  ///
  /// Call before ``present()``: the hint is set when the window is realized.
  ///
  /// X11: GTK 4.8 has no public API for a foreign parent (`gdk_x11_surface_foreign_new` went
  /// with GTK 3), so this sets `WM_TRANSIENT_FOR` on our X window with Xlib, as
  /// xdg-desktop-portal-gnome does. Wayland: `gdk_wayland_toplevel_set_transient_for_exported`
  /// with the handle the parent exported through xdg-foreign.
  public func setTransientParent(_ parent: ParentWindow) {
    onRealize { [weak self] in
      self?.applyTransientParent(parent)
    }
  }

  private func applyTransientParent(_ parent: ParentWindow) {
    guard let surface = gtk_native_get_surface(cast(widget)) else { return }
    let display = gdk_surface_get_display(surface)
    switch parent {
    case .x11(let xid):
      guard g_type_check_instance_is_a(cast(display), gdk_x11_display_get_type()) != 0,
        let xDisplay = gdk_x11_display_get_xdisplay(display)
      else { return }
      _ = XSetTransientForHint(xDisplay, gdk_x11_surface_get_xid(surface), xid)
    case .wayland(let handle):
      guard g_type_check_instance_is_a(cast(surface), gdk_wayland_toplevel_get_type()) != 0 else { return }
      _ = gdk_wayland_toplevel_set_transient_for_exported(surface, handle)
    }
  }
}

/// The title bar of a window (`AdwHeaderBar`), with the window's title and buttons.
public final class HeaderBar: Widget {
  public init() {
    super.init(adw_header_bar_new())
  }

  /// Adds a widget at the leading end.
  public func packStart(_ child: Widget) {
    adw_header_bar_pack_start(cast(widget), child.widget)
  }

  /// Adds a widget at the trailing end, before the window's close button.
  public func packEnd(_ child: Widget) {
    adw_header_bar_pack_end(cast(widget), child.widget)
  }
}

/// A handler id a handler needs, to disconnect itself.
@MainActor private final class Connection {
  var id: gulong = 0
}
