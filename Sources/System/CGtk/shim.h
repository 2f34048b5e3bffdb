#ifndef XDG_SHARE_CGTK_SHIM_H
#define XDG_SHARE_CGTK_SHIM_H
#include <gtk/gtk.h>
#include <adwaita.h>
#include <glib-unix.h>

// libdispatch's main queue as a file descriptor, and the call that drains it: what Foundation's
// RunLoop uses. GLib's loop polls the descriptor so that work queued on the main actor runs.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *);

// The few X11 and Wayland calls that make the picker a child of another program's window,
// declared here rather than through <gdk/x11/gdkx.h>: that header pulls in <X11/Xlib.h>, whose
// `Bool`, `Status` and `None` would shadow Swift's names in every file importing this module.
// The types are those of the headers (Display * is opaque here; Window and XID are unsigned long).
GType gdk_x11_display_get_type(void);
void *gdk_x11_display_get_xdisplay(GdkDisplay *display);
unsigned long gdk_x11_surface_get_xid(GdkSurface *surface);
int XSetTransientForHint(void *display, unsigned long window, unsigned long parent);
GType gdk_wayland_toplevel_get_type(void);
gboolean gdk_wayland_toplevel_set_transient_for_exported(GdkToplevel *toplevel, const char *parent_handle);

#endif
