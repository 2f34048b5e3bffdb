internal import CGtk

extension Window {
  /// The window's X11 identifier, to name it to another program as xdg-desktop-portal does
  /// (`x11:<XID in hex>`, see ``ParentWindow``): `nil` before the window is shown and on a display
  /// that is not X11 (Wayland).
  public var x11Identifier: UInt? {
    guard let surface = gtk_native_get_surface(cast(widget)) else { return nil }
    let display = gdk_surface_get_display(surface)
    guard g_type_check_instance_is_a(cast(display), gdk_x11_display_get_type()) != 0 else { return nil }
    let xid = gdk_x11_surface_get_xid(surface)
    return xid == 0 ? nil : UInt(xid)
  }

  /// The window as xdg-desktop-portal names parents, `x11:<XID in hex>`; `nil` when it has no X11
  /// identifier (see ``x11Identifier``).
  public var portalHandle: String? {
    x11Identifier.map { "x11:" + String($0, radix: 16) }
  }
}
