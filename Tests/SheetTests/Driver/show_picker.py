#!/usr/bin/python3
"""Calls org.xdgshare.Share1.ShowPicker as an application would, and reports its Response.

Usage: show_picker.py [--cancel-after SECONDS | --cancel-on FILE | --disconnect-on FILE] XDG_SHARE PARENT FILE...

Starts `XDG_SHARE daemon` on the session bus, subscribes to the request's signals before the
call (handle_token), calls ShowPicker(PARENT, [{path: FILE}...], {handle_token}), and prints
`handle: PATH`, then for each Response `response: CODE RESULTS-AS-JSON`; waits two seconds after
the first for any other, then prints `responses: N` and stops the service. With --cancel-after, it calls the request's Cancel that
long after ShowPicker answered; with --cancel-on, once FILE exists (the service has started). With --disconnect-on, it closes its connection to the bus once FILE
exists (a caller that goes away), prints `disconnected`, and waits for the service to end, which
it does two seconds after its last request.
"""
import json
import os
import subprocess
import sys
import time

import dbus
import dbus.mainloop.glib
from gi.repository import GLib


def plain(value):
    if isinstance(value, dbus.Array) and value.signature == "y":
        return os.fsdecode(bytes(value))
    if isinstance(value, (list, dbus.Array)):
        return [plain(v) for v in value]
    if isinstance(value, (dict, dbus.Dictionary)):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (int, dbus.UInt32, dbus.Int32)):
        return int(value)
    return str(value)


def main():
    arguments = sys.argv[1:]
    cancel_after = None
    cancel_on = None
    disconnect_on = None
    if arguments[:1] == ["--cancel-after"]:
        cancel_after = float(arguments[1])
        arguments = arguments[2:]
    elif arguments[:1] == ["--cancel-on"]:
        cancel_on = arguments[1]
        arguments = arguments[2:]
    elif arguments[:1] == ["--disconnect-on"]:
        disconnect_on = arguments[1]
        arguments = arguments[2:]
    executable, parent, files = arguments[0], arguments[1], arguments[2:]
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus(private=disconnect_on is not None)
    idle = "0" if disconnect_on is None else "2"
    daemon = subprocess.Popen([executable, "daemon", "--idle-timeout", idle])
    deadline = time.time() + 10
    while not bus.name_has_owner("org.xdgshare.Share"):
        if time.time() > deadline:
            daemon.kill()
            sys.exit("the service did not start")
        time.sleep(0.05)
    sender = bus.get_unique_name()[1:].replace(".", "_")
    handle = f"/org/xdgshare/Share/request/{sender}/picker1"
    responses = []
    loop = GLib.MainLoop()

    def on_response(code, results):
        responses.append((int(code), plain(results)))
        print(f"response: {int(code)} {json.dumps(plain(results), sort_keys=True)}", flush=True)
        GLib.timeout_add(2000, loop.quit)

    bus.add_signal_receiver(
        on_response, signal_name="Response", dbus_interface="org.xdgshare.Request1", path=handle)
    share = dbus.Interface(bus.get_object("org.xdgshare.Share", "/org/xdgshare/Share"), "org.xdgshare.Share1")
    items = dbus.Array([{"path": dbus.ByteArray(os.fsencode(f))} for f in files], signature="a{sv}")
    returned = share.ShowPicker(parent, items, {"handle_token": "picker1"})
    print(f"handle: {returned}", flush=True)
    if cancel_after is not None:
        def cancel():
            dbus.Interface(bus.get_object("org.xdgshare.Share", returned), "org.xdgshare.Request1").Cancel()
            print("cancelled", flush=True)
            return False
        GLib.timeout_add(int(cancel_after * 1000), cancel)
    if cancel_on is not None:
        def cancel_once_started():
            if not os.path.exists(cancel_on) or os.path.getsize(cancel_on) == 0:
                return True
            dbus.Interface(bus.get_object("org.xdgshare.Share", returned), "org.xdgshare.Request1").Cancel()
            print("cancelled", flush=True)
            return False
        GLib.timeout_add(50, cancel_once_started)
    if disconnect_on is not None:
        def disconnect():
            if not os.path.exists(disconnect_on):
                return True
            bus.close()
            print("disconnected", flush=True)
            loop.quit()
            return False
        GLib.timeout_add(50, disconnect)
    GLib.timeout_add(60000, loop.quit)
    loop.run()
    print(f"responses: {len(responses)}", flush=True)
    if disconnect_on is not None:
        daemon.wait(timeout=60)
        return
    daemon.terminate()
    daemon.wait(timeout=10)


main()
