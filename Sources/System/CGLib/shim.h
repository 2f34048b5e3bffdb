#ifndef XDG_SHARE_CGLIB_SHIM_H
#define XDG_SHARE_CGLIB_SHIM_H
#include <glib.h>
#include <gio/gio.h>
#include <gio/gunixoutputstream.h>
#endif
