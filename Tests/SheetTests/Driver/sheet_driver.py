#!/usr/bin/python3
"""Runs xdg-share-sheet and drives it through AT-SPI, as an assistive technology would.

Usage: sheet_driver.py [--notifications LOG [--invoke ACTION]] SHEET [ARGUMENT...] --then STEP...
       sheet_driver.py [--notifications LOG [--invoke ACTION]] --launch COMMAND [ARGUMENT...] --then STEP...

With --notifications, a notification server of the tests' own (fake_notifications.py) serves the
session bus first, logging each notification to LOG; with --invoke it chooses ACTION on the first
notification that offers it.

With --launch, COMMAND is what opens the sheet (`xdg-share --picker FILE`, a D-Bus client calling
ShowPicker): the driver finds the sheet on the accessibility bus, runs the steps, waits for
COMMAND to end and prints its exit status and, as `output: TEXT`, each line it printed.

Starts SHEET with the arguments and `--result-fd N`, runs the steps, waits for the sheet to end
and prints, each on a line of its own:
  exit-status: N         the sheet's exit status
  result: {...}          the line it wrote on the result descriptor
  stderr: TEXT           each line it wrote on standard error
Run it inside `dbus-run-session`, with DISPLAY set: AT-SPI lives on the session bus.

Steps, run in order; the first that fails stops the sheet and ends the driver with status 1:
  services               print `services: ["Name", ...]`, the services listed, in order
  buttons                print `buttons: [...]`, every push button's name
  entries                print `entries: [...]`, every text field's name
  type TEXT              put TEXT in the search field, the one text field (EditableText)
  press NAME             activate the push button named NAME (its first action)
  key KEYSYM             press a key (xdotool), e.g. Escape, Return, Down
  keys TEXT              type TEXT into the focused widget (xdotool), as a keyboard would
  wait-button NAME       wait until a push button named NAME appears
  wait-label TEXT        wait until a label whose text contains TEXT appears
  wait-image NAME        wait until an image named NAME appears (a thumbnail: "Preview")
  actions                print `actions: ["Name", ...]`, the push buttons of the row named "Actions"
  suggestions            print `suggestions: ["Name", ...]`, the push buttons of the row named
                         "Suggestions" (the direct targets), in order; [] when there is none
  toggle NAME            activate the switch or toggle button named NAME
  clipboard              print `clipboard: TEXT`, the text on the display's clipboard (xclip)
  wait-gone              wait until the sheet has no window (on the accessibility bus and on X)
  kill-command           with --launch: kill COMMAND (SIGKILL), as a caller that goes away
  wait-sheet-end         wait until the sheet's process has ended (at most a minute)
  layout                 print `layout: {...}`, the window's size and where each push button is
                         (x, y, width, height in window coordinates), by name
  window-size            print `window-size: [W, H]`, the window's size
  labels                 print `labels: {...}`, each label's extents (x, y, width, height in
                         window coordinates), by its text
  selections TEXT        print `selections: N`, how many stretches of the label whose text
                         contains TEXT are selected
  screenshot PATH        save the sheet's window as a PNG (xdotool finds it, ImageMagick's import
                         takes it)
  sleep SECONDS

Found by role and accessible name only, never by position on screen.
"""
import json
import os
import subprocess
import sys
import threading
import time

import pyatspi

# How long a step waits; SHEET_DRIVER_TIMEOUT for a command that takes longer to open the sheet
# (a browser starting).
TIMEOUT = float(os.environ.get("SHEET_DRIVER_TIMEOUT", "15"))


SHEET = None
# The sheet's process id when another program started it (--launch), from AT-SPI.
SHEET_PID = None
ERRORS = []
# The command --launch started.
LAUNCHED = None
# The notification server of --notifications.
NOTIFICATIONS = None


def fail(message):
    print("driver: " + message, flush=True)
    if SHEET is not None:
        if SHEET.poll() is None:
            SHEET.kill()
        else:
            print(f"driver: the sheet had ended with status {SHEET.returncode}", flush=True)
        try:
            SHEET.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        time.sleep(0.1)
        for error in ERRORS:
            print(f"stderr: {error}", flush=True)
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
        try:
            child = node.getChildAtIndex(index)
        except Exception:
            if SHEET is not None and SHEET.poll() is not None:
                fail("the sheet ended")
            continue
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
    """The first answer of look() that is not None or False (an empty list is an answer)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        result = look()
        if result is not None and result is not False:
            return result
        time.sleep(0.05)
    fail(f"timed out waiting for {description}")


def service_names(app):
    """The names of the services listed, in order; None while there is no list."""
    lists = descendants(app, lambda n: role_is(n, pyatspi.ROLE_LIST))
    if not lists:
        return None
    # In edit mode the rows also hold "Pin …" and "Hide …" buttons; the service is the first.
    names = []
    for item in descendants(lists[0], lambda n: role_is(n, pyatspi.ROLE_LIST_ITEM)):
        inside = descendants(item, lambda n: role_is(n, pyatspi.ROLE_PUSH_BUTTON))
        if inside:
            names.append(inside[0].name)
    return names


def settled(look):
    """look()'s answer once two readings 0.15 s apart agree: the tree is rebuilt row by row."""
    first = look()
    time.sleep(0.15)
    second = look()
    return first if first == second else None


def button(app, name):
    matches = descendants(app, lambda n: role_is(n, pyatspi.ROLE_PUSH_BUTTON) and n.name == name)
    return matches[0] if matches else None


def sheet_window():
    """The X window of the sheet (its _NET_WM_PID), or None once it is gone."""
    pid = SHEET.pid if SHEET is not None else SHEET_PID
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(pid)],
                           capture_output=True, text=True).stdout.split()
    return found[0] if found else None


def press_key(keysym):
    # Without a window manager the X focus may be anywhere: give it to the sheet first.
    window = sheet_window()
    if window is not None:
        subprocess.run(["xdotool", "windowfocus", "--sync", window], capture_output=True)
    subprocess.run(["xdotool", "key", "--clearmodifiers", keysym], check=True)


def action_names(app):
    """The names of the buttons in the row of actions; None while there is no such row."""
    rows = descendants(app, lambda n: (n.name or "") == "Actions" and not role_is(n, pyatspi.ROLE_LABEL))
    if not rows:
        return None
    return [b.name for b in descendants(rows[0], lambda n: role_is(n, pyatspi.ROLE_PUSH_BUTTON))]


def suggestion_names(app):
    """The names of the direct targets' buttons, in order; [] without a row of them."""
    rows = descendants(app, lambda n: (n.name or "") == "Suggestions" and not role_is(n, pyatspi.ROLE_LABEL)
                       and not role_is(n, pyatspi.ROLE_TOGGLE_BUTTON) and n.childCount > 0)
    if not rows:
        return []
    return [b.name for b in descendants(rows[0], lambda n: role_is(n, pyatspi.ROLE_PUSH_BUTTON))]


def toggle(app, name):
    """A switch or toggle button named NAME."""
    roles = [pyatspi.ROLE_TOGGLE_BUTTON, pyatspi.ROLE_CHECK_BOX]
    if hasattr(pyatspi, "ROLE_SWITCH"):
        roles.append(pyatspi.ROLE_SWITCH)
    matches = descendants(app, lambda n: any(role_is(n, r) for r in roles) and n.name == name)
    return matches[0] if matches else None


def sheet_process_alive():
    if SHEET is not None:
        return SHEET.poll() is None
    try:
        os.kill(SHEET_PID, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie (the launching command was killed and nobody reaped it yet) has ended.
    try:
        with open(f"/proc/{SHEET_PID}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def has_window(app):
    frames = descendants(app, lambda n: role_is(n, pyatspi.ROLE_FRAME) or role_is(n, pyatspi.ROLE_WINDOW))
    return bool(frames) or sheet_window() is not None


def layout(app):
    """The frame's size and each push button's extents (window coordinates), by name."""
    def extents(node):
        box = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        return [box.x, box.y, box.width, box.height]
    found = {}
    frames = descendants(app, lambda n: role_is(n, pyatspi.ROLE_FRAME) or role_is(n, pyatspi.ROLE_WINDOW))
    if frames:
        found["(window size)"] = extents(frames[0])[2:]
    for node in descendants(app, lambda n: role_is(n, pyatspi.ROLE_PUSH_BUTTON) and n.name):
        found[node.name] = extents(node)
    return found


def screenshot(path):
    # Animations and the accessibility tree run ahead of the paint.
    time.sleep(0.5)
    window = sheet_window()
    if window is None:
        fail("no window of the sheet to take a picture of")
    subprocess.run(["import", "-window", window, path], check=True)


def run_steps(app, steps):
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
            names = wait_for("the list of services", lambda: settled(lambda: service_names(app)))
            print("services: " + json.dumps(names), flush=True)
        elif step == "buttons":
            names = [b.name for b in descendants(app, lambda n: role_is(n, pyatspi.ROLE_PUSH_BUTTON))
                     if b.name is not None]
            print("buttons: " + json.dumps(names), flush=True)
        elif step == "entries":
            names = [e.name for e in descendants(app, lambda n: role_is(n, pyatspi.ROLE_ENTRY))]
            print("entries: " + json.dumps(names), flush=True)
        elif step == "type":
            text = argument()
            entry = wait_for(
                "the search field",
                lambda: next(iter(descendants(app, lambda n: role_is(n, pyatspi.ROLE_ENTRY))), None))
            entry.queryEditableText().setTextContents(text)
            time.sleep(0.2)
        elif step == "press":
            name = argument()
            target = wait_for(f"a button named {name!r}", lambda: button(app, name))
            target.queryAction().doAction(0)
            time.sleep(0.2)
        elif step == "key":
            press_key(argument())
            time.sleep(0.2)
        elif step == "keys":
            subprocess.run(["xdotool", "type", "--delay", "20", argument()], check=True)
            time.sleep(0.2)
        elif step == "wait-button":
            name = argument()
            wait_for(f"a button named {name!r}", lambda: button(app, name))
        elif step == "wait-label":
            text = argument()
            wait_for(
                f"a label with {text!r}",
                lambda: descendants(app, lambda n: role_is(n, pyatspi.ROLE_LABEL) and text in (n.name or ""))
                or None)
        elif step == "wait-image":
            name = argument()
            wait_for(
                f"an image named {name!r}",
                lambda: descendants(app, lambda n: role_is(n, pyatspi.ROLE_IMAGE) and n.name == name) or None)
        elif step == "actions":
            names = wait_for("the row of actions", lambda: settled(lambda: action_names(app)))
            print("actions: " + json.dumps(names), flush=True)
        elif step == "suggestions":
            names = wait_for("the row of suggestions", lambda: settled(lambda: suggestion_names(app)))
            print("suggestions: " + json.dumps(names), flush=True)
        elif step == "toggle":
            name = argument()
            target = wait_for(f"a switch named {name!r}", lambda: toggle(app, name))
            target.queryAction().doAction(0)
            time.sleep(0.2)
        elif step == "clipboard":
            text = subprocess.run(["xclip", "-o", "-selection", "clipboard"], capture_output=True,
                                  text=True, timeout=10).stdout
            print("clipboard: " + json.dumps(text), flush=True)
        elif step == "wait-gone":
            wait_for("the sheet's window to go", lambda: not sheet_process_alive() or not has_window(app))
        elif step == "kill-command":
            if LAUNCHED is None:
                fail("kill-command needs --launch")
            LAUNCHED.kill()
        elif step == "wait-sheet-end":
            wait_for("the sheet to end", lambda: not sheet_process_alive(), timeout=60)
        elif step == "layout":
            wait_for("the list of services", lambda: service_names(app))
            print("layout: " + json.dumps(layout(app), sort_keys=True), flush=True)
        elif step == "window-size":
            frames = wait_for("the window", lambda: descendants(
                app, lambda n: role_is(n, pyatspi.ROLE_FRAME) or role_is(n, pyatspi.ROLE_WINDOW)) or None)
            box = frames[0].queryComponent().getExtents(pyatspi.WINDOW_COORDS)
            print("window-size: " + json.dumps([box.width, box.height]), flush=True)
        elif step == "labels":
            found = {}
            for node in descendants(app, lambda n: role_is(n, pyatspi.ROLE_LABEL) and n.name):
                box = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
                found[node.name] = [box.x, box.y, box.width, box.height]
            print("labels: " + json.dumps(found, sort_keys=True), flush=True)
        elif step == "selections":
            text = argument()
            label = wait_for(
                f"a label with {text!r}",
                lambda: next(iter(descendants(
                    app, lambda n: role_is(n, pyatspi.ROLE_LABEL) and text in (n.name or ""))), None))
            print(f"selections: {label.queryText().getNSelections()}", flush=True)
        elif step == "screenshot":
            screenshot(argument())
        elif step == "sleep":
            time.sleep(float(argument()))
        else:
            fail(f"unknown step {step!r}")


def launch(arguments):
    """--launch: start COMMAND, drive the sheet it opens, report how COMMAND ended."""
    split = arguments.index("--then")
    command, steps = arguments[1:split], arguments[split + 1:]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    global LAUNCHED
    LAUNCHED = process
    output = []
    reader = threading.Thread(
        target=lambda: output.extend(process.stdout.read().decode(errors="replace").splitlines()), daemon=True)
    reader.start()
    errors = threading.Thread(
        target=lambda: ERRORS.extend(process.stderr.read().decode(errors="replace").splitlines()), daemon=True)
    errors.start()
    global SHEET_PID
    app = find_app("xdg-share-sheet")
    SHEET_PID = app.get_process_id()
    run_steps(app, steps)
    try:
        status = process.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        fail("the command did not end")
    # A killed command may leave a child holding its pipes (the D-Bus service it started).
    reader.join(timeout=5)
    errors.join(timeout=5)
    print(f"exit-status: {status}", flush=True)
    for line in output:
        print(f"output: {line}", flush=True)
    for error in ERRORS:
        print(f"stderr: {error}", flush=True)


def start_notifications(arguments):
    """--notifications LOG [--invoke ACTION]: the tests' notification server; the rest."""
    global NOTIFICATIONS
    count = 4 if arguments[2:3] == ["--invoke"] else 2
    server = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_notifications.py")
    NOTIFICATIONS = subprocess.Popen([sys.executable, server] + arguments[1:count])
    bus = subprocess.run
    deadline = time.time() + TIMEOUT
    while time.time() < deadline:
        owned = bus(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus",
                     "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                     "string:org.freedesktop.Notifications"], capture_output=True, text=True).stdout
        if "boolean true" in owned:
            return arguments[count:]
        time.sleep(0.05)
    fail("the notification server did not start")


def main():
    global SHEET
    arguments = sys.argv[1:]
    if arguments[:1] == ["--notifications"]:
        arguments = start_notifications(arguments)
    if arguments[:1] == ["--launch"] and "--then" in arguments:
        launch(arguments)
        return
    if "--then" not in arguments or arguments.index("--then") == 0:
        fail("usage: sheet_driver.py SHEET [ARGUMENT...] --then STEP...")
    split = arguments.index("--then")
    command, steps = arguments[:split], arguments[split + 1:]
    for attempt in range(2):
        read_end, write_end = os.pipe()
        SHEET = subprocess.Popen(
            [command[0], "--result-fd", str(write_end)] + command[1:], pass_fds=(write_end,),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(write_end)
        reader = threading.Thread(
            target=lambda: ERRORS.extend(SHEET.stderr.read().decode(errors="replace").splitlines()), daemon=True)
        reader.start()
        # A display that refuses the first connection (seen on a busy machine) gets a second
        # chance; any other early end is the sheet's own and fails the run.
        try:
            SHEET.wait(timeout=1)
        except subprocess.TimeoutExpired:
            break
        reader.join()
        refused = any("cannot open display" in line for line in ERRORS) or SHEET.returncode == 8
        if attempt == 1 or not refused:
            break
        print("driver: the display refused the sheet; starting it again", flush=True)
        ERRORS.clear()
        os.close(read_end)
    app = find_app(os.path.basename(command[0]))
    run_steps(app, steps)
    try:
        status = SHEET.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        fail("the sheet did not end")
    reader.join()
    with os.fdopen(read_end, "rb") as result:
        line = result.read().decode().strip()
    print(f"exit-status: {status}", flush=True)
    print(f"result: {line}", flush=True)
    for error in ERRORS:
        print(f"stderr: {error}", flush=True)


main()
