#!/usr/bin/python3
"""Starts a command that opens a share extension's sheet and drives the sheet through AT-SPI, as
an assistive technology would.

Usage: compose_driver.py APP-NAME COMMAND [ARGUMENT...] --then STEP...

APP-NAME is the sheet's name on the accessibility bus (its program's name, e.g. Microblog).
COMMAND is what opens the sheet (`xdg-share share --service ID FILE`). The driver finds the sheet,
runs the steps, waits for COMMAND to end and prints, each on a line of its own:
  exit-status: N         COMMAND's exit status
  output: TEXT           each line COMMAND printed
  stderr: TEXT           each line COMMAND wrote on standard error
Run it inside `dbus-run-session`, with DISPLAY set: AT-SPI lives on the session bus.

Steps, run in order; the first that fails ends the driver with status 1:
  type TEXT              replace the text of the field named "Message" (EditableText)
  append TEXT            insert TEXT at the end of "Message"
  text                   print `text: "..."`, the text of "Message" (JSON)
  set NAME TEXT          replace the text of the text field named NAME (an entry or a text view)
  field NAME             print `field: NAME = "..."`, the text of the text field NAME (JSON)
  labels                 print `labels: [...]`, every label's name, in tree order
  count                  print `count: NAME`, the name of the "… remaining" label
  sensitive NAME         print `sensitive: NAME true|false` for the push button NAME
  describe NAME          print `describe: NAME = DESCRIPTION` for the push button NAME
  buttons                print `buttons: [...]`, every push button's name, in tree order
  press NAME             activate the push button named NAME (its first action)
  toggle NAME            activate the toggle button named NAME (GTK 4.8 shows it as a push button)
  checked NAME           print `checked: NAME true|false`: whether the button NAME is checked
  tree                   print `tree: ROLE 'NAME'` for every node, to see what the sheet shows
  key KEYSYM             press a key (xdotool) in the sheet's window, e.g. Escape, ctrl+Return
  wait-button NAME       wait until a push button named NAME is in the tree
  wait-no-button NAME    wait until no push button named NAME is in the tree
  wait-sensitive NAME true|false
                         wait until the push button NAME is (in)sensitive: AT-SPI's state
                         changes arrive after the action that made them
  wait-presented         wait until the sheet has slid in: its XDG_SHARE_ANIMATION_LOG file has a
                         `slide-in` line (before, GTK may ignore a row's action)
  wait-window-gone       wait until the sheet has no window left
  screenshot PATH        save the sheet's window as a PNG
  sleep SECONDS
  type-field NAME TEXT   replace the text of the one-line field (entry) named NAME
  field-role NAME        print `field-role: NAME ROLE`, the role of the field named NAME
  switch-app NAME        drive another application named NAME from now on (a process other
                         than the one driven now: the compose sheet a picker opened)
  first-app              drive the application found first again

Found by role and accessible name only, never by position on screen.
"""
import json
import os
import subprocess
import sys
import threading
import time

import pyatspi

TIMEOUT = 20
PID = None


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
    found = []
    try:
        count = node.childCount
    except Exception:
        return found
    for index in range(count):
        try:
            child = node.getChildAtIndex(index)
        except Exception:
            continue
        if child is None:
            continue
        try:
            if predicate(child):
                found.append(child)
        except Exception:
            pass
        found.extend(descendants(child, predicate))
    return found


def wait_for(description, look, timeout=TIMEOUT):
    deadline = time.time() + timeout
    while time.time() < deadline:
        result = look()
        if result is not None and result is not False:
            return result
        time.sleep(0.05)
    fail(f"timed out waiting for {description}")


def button(app, name):
    found = descendants(app, lambda n: n.getRole() == pyatspi.ROLE_PUSH_BUTTON and n.name == name)
    return found[0] if found else None


def message(app):
    found = descendants(app, lambda n: n.getRole() == pyatspi.ROLE_TEXT and n.name == "Message")
    return found[0] if found else None


def text_field(app, name):
    found = descendants(
        app, lambda n: n.getRole() in (pyatspi.ROLE_TEXT, pyatspi.ROLE_ENTRY) and n.name == name)
    return found[0] if found else None


def count_label(app):
    found = descendants(
        app, lambda n: n.getRole() == pyatspi.ROLE_LABEL and (n.name or "").endswith(" remaining"))
    return found[0] if found else None


def entry_field(app, name):
    roles = (pyatspi.ROLE_ENTRY, pyatspi.ROLE_TEXT, pyatspi.ROLE_PASSWORD_TEXT)
    found = descendants(app, lambda n: n.getRole() in roles and n.name == name)
    return found[0] if found else None


def other_app(name, pid):
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        candidate = desktop.getChildAtIndex(index)
        try:
            if candidate is not None and candidate.name == name and candidate.get_process_id() != pid:
                return candidate
        except Exception:
            pass
    return None


def presented():
    try:
        with open(os.environ["XDG_SHARE_ANIMATION_LOG"], encoding="utf-8") as log:
            return any(line.startswith("slide-in ") for line in log)
    except (KeyError, OSError):
        return False


def window():
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(PID)],
                           capture_output=True, text=True).stdout.split()
    return found[0] if found else None


def run_steps(app, steps):
    global PID
    index = 0
    first = (app, PID)

    def argument():
        nonlocal index
        if index >= len(steps):
            fail(f"{steps[index - 1]} needs an argument")
        index += 1
        return steps[index - 1]

    while index < len(steps):
        step = steps[index]
        index += 1
        if step == "type":
            text = argument()
            wait_for("the field Message", lambda: message(app)).queryEditableText().setTextContents(text)
            time.sleep(0.2)
        elif step == "append":
            text = argument()
            field = wait_for("the field Message", lambda: message(app))
            end = field.queryText().characterCount
            field.queryEditableText().insertText(end, text, len(text.encode("utf-8")))
            time.sleep(0.2)
        elif step == "text":
            field = wait_for("the field Message", lambda: message(app))
            print("text: " + json.dumps(field.queryText().getText(0, -1)), flush=True)
        elif step == "set":
            name, text = argument(), argument()
            field = wait_for(f"a text field named {name!r}", lambda: text_field(app, name))
            field.queryEditableText().setTextContents(text)
            time.sleep(0.2)
        elif step == "field":
            name = argument()
            field = wait_for(f"a text field named {name!r}", lambda: text_field(app, name))
            # An entry answers (0, -1) with nothing; the count works for entries and text views.
            text = field.queryText()
            print(f"field: {name} = " + json.dumps(text.getText(0, text.characterCount)), flush=True)
        elif step == "labels":
            names = [n.name for n in descendants(app, lambda n: n.getRole() == pyatspi.ROLE_LABEL)]
            print("labels: " + json.dumps(names), flush=True)
        elif step == "count":
            print("count: " + wait_for("the count", lambda: count_label(app)).name, flush=True)
        elif step == "sensitive":
            name = argument()
            target = wait_for(f"a button named {name!r}", lambda: button(app, name))
            sensitive = target.getState().contains(pyatspi.STATE_SENSITIVE)
            print(f"sensitive: {name} {'true' if sensitive else 'false'}", flush=True)
        elif step == "describe":
            name = argument()
            target = wait_for(f"a button named {name!r}", lambda: button(app, name))
            print(f"describe: {name} = {target.description}", flush=True)
        elif step == "buttons":
            names = [b.name for b in descendants(app, lambda n: n.getRole() == pyatspi.ROLE_PUSH_BUTTON)]
            print("buttons: " + json.dumps(names), flush=True)
        elif step == "press":
            name = argument()
            wait_for(f"a button named {name!r}", lambda: button(app, name)).queryAction().doAction(0)
            time.sleep(0.2)
        elif step == "toggle":
            name = argument()
            wait_for(f"a button named {name!r}", lambda: button(app, name)).queryAction().doAction(0)
            time.sleep(0.2)
        elif step == "key":
            keysym = argument()
            # Without a window manager the X focus may be anywhere: give it to the sheet first.
            target = wait_for("the sheet's window", window)
            subprocess.run(["xdotool", "windowfocus", "--sync", target], capture_output=True)
            subprocess.run(["xdotool", "key", "--clearmodifiers", keysym], check=True)
            time.sleep(0.2)
        elif step == "wait-button":
            name = argument()
            wait_for(f"a button named {name!r}", lambda: button(app, name))
        elif step == "wait-sensitive":
            name, wanted = argument(), argument() == "true"
            wait_for(f"a button named {name!r} sensitive {wanted}", lambda: (
                lambda found: found is not None
                and found.getState().contains(pyatspi.STATE_SENSITIVE) == wanted)(button(app, name)))
        elif step == "wait-presented":
            wait_for("the sheet to slide in", presented)
        elif step == "wait-no-button":
            name = argument()
            wait_for(f"no button named {name!r}", lambda: button(app, name) is None)
        elif step == "wait-window-gone":
            wait_for("the sheet's window to go", lambda: window() is None)
        elif step == "screenshot":
            path = argument()
            time.sleep(0.6)
            subprocess.run(["import", "-window", wait_for("the sheet's window", window), path], check=True)
        elif step == "checked":
            name = argument()
            state = wait_for(f"a button named {name!r}", lambda: button(app, name)).getState()
            checked = state.contains(pyatspi.STATE_CHECKED) or state.contains(pyatspi.STATE_PRESSED)
            print(f"checked: {name} {'true' if checked else 'false'}", flush=True)
        elif step == "tree":
            for node in descendants(app, lambda n: True):
                print(f"tree: {node.getRoleName()} {node.name!r}", flush=True)
        elif step == "sleep":
            time.sleep(float(argument()))
        elif step == "type-field":
            name, text = argument(), argument()
            wait_for(f"a field named {name!r}", lambda: entry_field(app, name)).queryEditableText().setTextContents(text)
            time.sleep(0.2)
        elif step == "field-role":
            name = argument()
            target = wait_for(f"a field named {name!r}", lambda: entry_field(app, name))
            print(f"field-role: {name} {target.getRoleName()}", flush=True)
        elif step == "switch-app":
            name = argument()
            current = PID
            app = wait_for(f"another application {name!r}", lambda: other_app(name, current))
            PID = app.get_process_id()
        elif step == "first-app":
            app, PID = first
        else:
            fail(f"unknown step {step!r}")


def main():
    global PID
    arguments = sys.argv[1:]
    if "--then" not in arguments or arguments.index("--then") < 2:
        fail("usage: compose_driver.py APP-NAME COMMAND [ARGUMENT...] --then STEP...")
    split = arguments.index("--then")
    name, command, steps = arguments[0], arguments[1:split], arguments[split + 1:]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    output, errors = [], []
    readers = [
        threading.Thread(target=lambda: output.extend(
            process.stdout.read().decode(errors="replace").splitlines()), daemon=True),
        threading.Thread(target=lambda: errors.extend(
            process.stderr.read().decode(errors="replace").splitlines()), daemon=True),
    ]
    for reader in readers:
        reader.start()
    app = find_app(name)
    PID = app.get_process_id()
    try:
        run_steps(app, steps)
    except SystemExit:
        process.kill()
        process.wait()
        for reader in readers:
            reader.join()
        for line in errors:
            print(f"stderr: {line}", flush=True)
        raise
    try:
        status = process.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        fail("the command did not end")
    for reader in readers:
        reader.join()
    print(f"exit-status: {status}", flush=True)
    for line in output:
        print(f"output: {line}", flush=True)
    for line in errors:
        print(f"stderr: {line}", flush=True)


main()
