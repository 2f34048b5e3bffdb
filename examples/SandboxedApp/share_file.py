#!/usr/bin/python3
"""Shares a file from a sandboxed app through xdg-share, as a Flatpak app does: the file is
handed over as a descriptor, never by its path (which means nothing outside the sandbox).

    share_file.py FILE [SERVICE-ID]

Without SERVICE-ID, the share sheet opens (ShowPicker) and the user chooses; with one, the file
goes to that service at once (Share). Prints how the share ended, as the Response says it.
GIO (PyGObject) alone: Gio.DBusProxy and Gio.UnixFDList.
"""
import os
import sys

from gi.repository import Gio, GLib

BUS_NAME = "org.xdgshare.Share"
PATH = "/org/xdgshare/Share"


def main():
    path = sys.argv[1]
    service = sys.argv[2] if len(sys.argv) > 2 else None
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    proxy = Gio.DBusProxy.new_sync(bus, Gio.DBusProxyFlags.NONE, None, BUS_NAME, PATH, "org.xdgshare.Share1", None)

    # The descriptor goes in a Gio.UnixFDList; the item's "fd" is its index there ('h').
    fds = Gio.UnixFDList.new()
    with open(path, "rb") as file:
        index = fds.append(file.fileno())
    item = {"fd": GLib.Variant("h", index), "name": GLib.Variant("s", os.path.basename(path))}

    # Subscribed before the call, with a token of our own, so that no Response is missed.
    token = f"share_file_{os.getpid()}"
    sender = bus.get_unique_name()[1:].replace(".", "_")
    handle = f"{PATH}/request/{sender}/{token}"
    loop = GLib.MainLoop()
    ended = {}

    def on_response(_bus, _sender, _path, _interface, _signal, parameters):
        code, results = parameters.unpack()
        ended.update(code=code, results=results)
        loop.quit()

    bus.signal_subscribe(BUS_NAME, "org.xdgshare.Request1", "Response", handle, None,
                         Gio.DBusSignalFlags.NONE, on_response)
    options = {"handle_token": GLib.Variant("s", token)}
    if service:
        arguments = GLib.Variant("(saa{sv}a{sv})", (service, [item], options))
        proxy.call_with_unix_fd_list_sync("Share", arguments, Gio.DBusCallFlags.NONE, -1, fds, None)
    else:
        arguments = GLib.Variant("(saa{sv}a{sv})", ("", [item], options))
        proxy.call_with_unix_fd_list_sync("ShowPicker", arguments, Gio.DBusCallFlags.NONE, -1, fds, None)
    loop.run()
    results = ended["results"]
    print(f"{results.get('outcome', '?')}: service {results.get('service', '-')}, "
          f"request {results.get('request', '-')}"
          + (f" ({results['message']})" if "message" in results else ""))
    return 0 if ended["code"] == 0 else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except GLib.Error as error:
        print(f"share_file: {error.message}", file=sys.stderr)
        sys.exit(2)
