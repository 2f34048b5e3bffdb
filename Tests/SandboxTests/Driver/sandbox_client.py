#!/usr/bin/python3
"""An app inside the sandbox, calling org.xdgshare.Share as a Flatpak app would (python3-dbus).

Usage: sandbox_client.py [--make PATH TEXT]... [--png PATH]... [--fifo PATH] COMMAND ITEM...
  query ITEM...                       QueryItems: prints `services: [ids]`
  share SERVICE ITEM...               Share: prints `handle: PATH`, then `response: CODE {results}`
  picker [--options JSON] ITEM...     ShowPicker(""): as Share
ITEM: fd:PATH[=NAME] (the file opened for reading, handed over as a descriptor), dir:PATH (a
folder's descriptor), fifo:PATH (a FIFO's), writeonly:PATH (a descriptor open for writing only),
path:PATH, url:URL, text:TEXT. In --options, "preview" is a PATH handed over as a descriptor.
An error of the call prints `error: NAME: MESSAGE` and exits 1.
"""
import json
import os
import sys

import dbus
import dbus.mainloop.glib
from gi.repository import GLib

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
arguments = sys.argv[1:]
def png(path):
    """A small red square as a PNG."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + b"\xff\x00\x00" * 16 for _ in range(16))
    with open(path, "wb") as made:
        made.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0))
                   + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


while arguments and arguments[0] in ("--make", "--fifo", "--png"):
    if arguments[0] == "--png":
        png(arguments[1])
        arguments = arguments[2:]
    elif arguments[0] == "--make":
        os.makedirs(os.path.dirname(arguments[1]) or ".", exist_ok=True)
        with open(arguments[1], "wb") as made:
            made.write(arguments[2].encode())
        arguments = arguments[3:]
    else:
        os.mkfifo(arguments[1])
        arguments = arguments[2:]
command = arguments[0]
arguments = arguments[1:]
options = {}
if command == "picker" and arguments[:1] == ["--options"]:
    options = json.loads(arguments[1])
    arguments = arguments[2:]
service = arguments.pop(0) if command == "share" else None


def item(spec):
    kind, _, value = spec.partition(":")
    if kind == "fd":
        path, _, name = value.partition("=")
        entry = {"fd": dbus.types.UnixFd(os.open(path, os.O_RDONLY))}
        if name:
            entry["name"] = name
        return dbus.Dictionary(entry, signature="sv")
    if kind == "dir":
        return dbus.Dictionary({"fd": dbus.types.UnixFd(os.open(value, os.O_RDONLY | os.O_DIRECTORY))}, signature="sv")
    if kind == "fifo":
        return dbus.Dictionary({"fd": dbus.types.UnixFd(os.open(value, os.O_RDWR | os.O_NONBLOCK))}, signature="sv")
    if kind == "writeonly":
        return dbus.Dictionary({"fd": dbus.types.UnixFd(os.open(value, os.O_WRONLY | os.O_CREAT))}, signature="sv")
    if kind == "path":
        return dbus.Dictionary({"path": dbus.ByteArray(os.fsencode(value))}, signature="sv")
    if kind == "url":
        return dbus.Dictionary({"url": value}, signature="sv")
    return dbus.Dictionary({"text": value}, signature="sv")


def plain(value):
    if isinstance(value, dbus.Array) and value.signature == "y":
        return os.fsdecode(bytes(value))
    if isinstance(value, (list, dbus.Array)):
        return [plain(v) for v in value]
    if isinstance(value, (dict, dbus.Dictionary)):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (int, dbus.UInt32, dbus.Int32)):
        return int(value)
    return str(value)


items = dbus.Array([item(spec) for spec in arguments], signature="a{sv}")
bus = dbus.SessionBus()
try:
    share = dbus.Interface(bus.get_object("org.xdgshare.Share", "/org/xdgshare/Share"), "org.xdgshare.Share1")
    if command == "query":
        services = share.QueryItems(items, dbus.Dictionary({"fields": ["id"]}, signature="sv"))
        print("services: " + json.dumps([str(s["id"]) for s in services]), flush=True)
        sys.exit(0)
    token = "sandboxed"
    call_options = {"handle_token": token}
    for key, value in options.items():
        if key == "preview":
            call_options[key] = dbus.types.UnixFd(os.open(value, os.O_RDONLY))
        elif isinstance(value, list):
            call_options[key] = dbus.Array(value, signature="s")
        elif isinstance(value, bool):
            call_options[key] = dbus.Boolean(value)
        else:
            call_options[key] = value
    sender = bus.get_unique_name()[1:].replace(".", "_")
    expected = f"/org/xdgshare/Share/request/{sender}/{token}"
    loop = GLib.MainLoop()
    responses = []

    def on_response(code, results, path=None):
        if path == expected:
            responses.append((int(code), plain(results)))
            loop.quit()

    bus.add_signal_receiver(on_response, signal_name="Response", dbus_interface="org.xdgshare.Request1",
                            path_keyword="path")
    options_value = dbus.Dictionary(call_options, signature="sv")
    if command == "share":
        handle = share.Share(service, items, options_value)
    else:
        handle = share.ShowPicker("", items, options_value)
    print(f"handle: {handle}", flush=True)
    GLib.timeout_add_seconds(120, loop.quit)
    loop.run()
    for code, results in responses:
        print(f"response: {code} {json.dumps(results, sort_keys=True)}", flush=True)
except dbus.exceptions.DBusException as error:
    print(f"error: {error.get_dbus_name()}: {error.get_dbus_message()}", flush=True)
    sys.exit(1)
