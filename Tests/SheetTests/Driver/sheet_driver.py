#!/usr/bin/python3
"""Drives xdg-share-sheet through AT-SPI, as an assistive technology or a test would.

Usage: sheet_driver.py APP-NAME STEP...

Steps, run in order; the first that fails ends the driver with status 1 and a message:
  services               print `services: ["Name", ...]`, the services listed, in order
  buttons                print `buttons: [...]`, every push button's name
  type TEXT              put TEXT in the search field (EditableText)
  press NAME             activate the push button named NAME (its first action)
  key KEYSYM             press a key (xdotool), e.g. Escape, Return, Down
  wait-button NAME       wait until a push button named NAME appears
  wait-label TEXT        wait until a label whose text contains TEXT appears
  sleep SECONDS

Found by role and accessible name only, never by position on screen.
"""
import json
import subprocess
import sys
import time

import pyatspi

TIMEOUT = 15


def fail(message):
    print("driver: " + message, flush=True)
    sys.exit(1)


def find_app(name):
    deadline = time.time() + TIMEOUT
    while time.time() < deadline:
        desktop = pyatspi.Registry.getDesktop(0)
        for index in range(desktop.childCount):
            app = desktop.getChildAtIndex(index)
            if app is not None and app.name == name:
                return app
        time.sleep(0.05)
    fail(f"no application {name!r} on the accessibility bus")


def descendants(node, predicate):
    """Every descendant matching predicate, in tree order (the order on screen)."""
    found = []
    try:
        count = node.childCount
    except Exception:
        return found
    for index in range(count):
        child = node.getChildAtIndex(index)
        if child is None:
            continue
        if predicate(child):
            found.append(child)
        found.extend(descendants(child, predicate))
    return found


def role_is(node, role):
    try:
        return node.getRole() == role
    except Exception:
        return False


def wait_for(description, look, timeout=TIMEOUT):
    deadline = time.time() + timeout
    while time.time() < deadline:
        result = look()
        if result:
            return result
        time.sleep(0.05)
    fail(f"timed out waiting for {description}")


def service_names(app):
    lists = descendants(app, lambda n: role_is(n, pyatspi.ROLE_LIST))
    if not lists:
        return None
    buttons = descendants(lists[0], lambda n: role_is(n, pyatspi.ROLE_PUSH_BUTTON))
    # In edit mode the rows also hold "Pin …" and "Hide …" buttons; the service is the first.
    names = []
    for item in descendants(lists[0], lambda n: role_is(n, pyatspi.ROLE_LIST_ITEM)):
        inside = descendants(item, lambda n: role_is(n, pyatspi.ROLE_PUSH_BUTTON))
        if inside:
            names.append(inside[0].name)
    return names if names or buttons == [] else None


def button(app, name):
    matches = descendants(app, lambda n: role_is(n, pyatspi.ROLE_PUSH_BUTTON) and n.name == name)
    return matches[0] if matches else None


def main():
    if len(sys.argv) < 2:
        fail("usage: sheet_driver.py APP-NAME STEP...")
    app = find_app(sys.argv[1])
    steps = sys.argv[2:]
    index = 0

    def argument():
        nonlocal index
        if index >= len(steps):
            fail(f"{steps[index - 1]} needs an argument")
        index += 1
        return steps[index - 1]

    while index < len(steps):
        step = steps[index]
        index += 1
        if step == "services":
            names = wait_for("the list of services", lambda: service_names(app))
            print("services: " + json.dumps(names), flush=True)
        elif step == "buttons":
            names = [b.name for b in descendants(app, lambda n: role_is(n, pyatspi.ROLE_PUSH_BUTTON))]
            print("buttons: " + json.dumps(names), flush=True)
        elif step == "type":
            text = argument()
            entry = wait_for(
                "the search field",
                lambda: next(iter(descendants(app, lambda n: n.name == "Search services"
                                              and role_is(n, pyatspi.ROLE_ENTRY))), None))
            entry.queryEditableText().setTextContents(text)
            time.sleep(0.2)
        elif step == "press":
            name = argument()
            target = wait_for(f"a button named {name!r}", lambda: button(app, name))
            target.queryAction().doAction(0)
            time.sleep(0.2)
        elif step == "key":
            subprocess.run(["xdotool", "key", "--clearmodifiers", argument()], check=True)
            time.sleep(0.2)
        elif step == "wait-button":
            name = argument()
            wait_for(f"a button named {name!r}", lambda: button(app, name))
        elif step == "wait-label":
            text = argument()
            wait_for(
                f"a label with {text!r}",
                lambda: descendants(app, lambda n: role_is(n, pyatspi.ROLE_LABEL) and text in (n.name or "")))
        elif step == "sleep":
            time.sleep(float(argument()))
        else:
            fail(f"unknown step {step!r}")


main()
