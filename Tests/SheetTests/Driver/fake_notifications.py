#!/usr/bin/python3
"""A notification server for the tests: owns org.freedesktop.Notifications on the session bus.

Usage: fake_notifications.py LOG [--invoke ACTION]

Answers Notify as a server would (a new id, or the one it replaces) and writes each call to LOG
as one JSON line: {"id", "replaces", "summary", "body", "actions": {key: label}, "value",
"urgency", "timeout"}. With --invoke, the first notification that offers ACTION gets it chosen a
second later (the ActionInvoked signal), as a user clicking its button. Ends with its bus.
"""
import json
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


class Server(dbus.service.Object):
    def __init__(self, bus, log, invoke):
        super().__init__(bus, PATH)
        self.log = log
        self.invoke = invoke
        self.last_id = 0

    @dbus.service.method(NAME, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
        if replaces:
            identifier = int(replaces)
        else:
            self.last_id += 1
            identifier = self.last_id
        keys = [str(a) for a in actions]
        offered = dict(zip(keys[0::2], keys[1::2]))
        entry = {
            "id": identifier, "replaces": int(replaces), "app": str(app), "summary": str(summary),
            "body": str(body), "actions": offered, "timeout": int(timeout),
            "value": int(hints["value"]) if "value" in hints else None,
            "urgency": int(hints["urgency"]) if "urgency" in hints else None,
        }
        with open(self.log, "a") as log:
            log.write(json.dumps(entry) + "\n")
        if self.invoke is not None and self.invoke in offered:
            action, self.invoke = self.invoke, None
            GLib.timeout_add(1000, lambda: self.ActionInvoked(dbus.UInt32(identifier), action) and False)
        return dbus.UInt32(identifier)

    @dbus.service.method(NAME, in_signature="u")
    def CloseNotification(self, identifier):
        self.NotificationClosed(identifier, dbus.UInt32(3))

    @dbus.service.method(NAME, out_signature="as")
    def GetCapabilities(self):
        return ["actions", "body"]

    @dbus.service.method(NAME, out_signature="ssss")
    def GetServerInformation(self):
        return ("fake", "xdg-share tests", "1", "1.2")

    @dbus.service.signal(NAME, signature="us")
    def ActionInvoked(self, identifier, action):
        pass

    @dbus.service.signal(NAME, signature="uu")
    def NotificationClosed(self, identifier, reason):
        pass


def main():
    arguments = sys.argv[1:]
    log = arguments[0]
    invoke = arguments[2] if arguments[1:2] == ["--invoke"] else None
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    bus.request_name(NAME, dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
    Server(bus, log, invoke)
    loop = GLib.MainLoop()
    bus.call_on_disconnection(lambda _: loop.quit())
    loop.run()


main()
