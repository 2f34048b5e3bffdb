#!/usr/bin/python3
"""The share sheet's start-up against a bare C AdwApplication window, on a throw-away desktop.

Usage: Benchmarks/sheet-bench/run.py [RUNS]   (from the repository; RUNS defaults to 20)

Builds xdg-share-sheet in release (static Swift standard library, as install.sh installs it)
and the C floor (adw-floor.c), makes a desktop under /tmp with 200 installed services (half of
them accept images), 100 history records and a 1-megapixel PNG, starts Xvfb and a session bus
of its own, and times both programs from fork/exec to their first frame with the accepting
services on screen (first_frame.py), and the sheet again where three services published two
direct targets each. Also says whether xdg-share links GTK (it must not).

Each program draws with the renderer GTK (and, for the sheet, ShareGtk's Renderer) chooses on
this machine; SHEET_BENCH_RENDERER=ngl or =cairo makes all of them use that one.
Leaves nothing behind.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def run(argv, **kwargs):
    return subprocess.run(argv, check=True, **kwargs)


def bundle(folder, index):
    identifier = f"org.bench.service{index:03d}"
    path = os.path.join(folder, f"service{index:03d}.shareext")
    os.makedirs(path)
    # Half take images (up to 10), the others text and links only.
    rule = ("<key>NSExtensionActivationSupportsImageWithMaxCount</key><integer>10</integer>"
            if index % 2 == 0 else
            "<key>NSExtensionActivationSupportsText</key><true/>"
            "<key>NSExtensionActivationSupportsWebURLWithMaxCount</key><integer>1</integer>")
    with open(os.path.join(path, "Info.plist"), "w") as plist:
        plist.write(f"""<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
<key>CFBundleIdentifier</key><string>{identifier}</string>
<key>CFBundleDisplayName</key><string>Service {index:03d}</string>
<key>CFBundleExecutable</key><string>share</string>
<key>CFBundleIconName</key><string>mail-send</string>
<key>NSExtension</key><dict>
<key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string>
<key>NSExtensionAttributes</key><dict><key>NSExtensionActivationRule</key><dict>{rule}</dict></dict>
</dict></dict></plist>
""")
    program = os.path.join(path, "share")
    with open(program, "w") as script:
        script.write("#!/bin/sh\ncat >/dev/null\necho '{\"complete\": {}}'\n")
    os.chmod(program, 0o755)
    return identifier


def main():
    runs = sys.argv[1] if len(sys.argv) > 1 else "20"
    scratch = "/tmp/sheet-bench-build"
    run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--scratch-path", scratch,
         "--product", "xdg-share-sheet"], cwd=ROOT)
    run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--scratch-path", scratch,
         "--product", "xdg-share"], cwd=ROOT)
    binaries = subprocess.run(["swift", "build", "-c", "release", "--scratch-path", scratch, "--show-bin-path"],
                              cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    sheet = os.path.join(binaries, "xdg-share-sheet")
    linked = subprocess.run(["ldd", os.path.join(binaries, "xdg-share")], capture_output=True, text=True).stdout
    print("xdg-share links GTK: " + ("yes" if "libgtk" in linked else "no"))

    with tempfile.TemporaryDirectory(prefix="sheet-bench.") as root:
        floor = os.path.join(root, "adw-floor")
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libadwaita-1"], check=True,
                               capture_output=True, text=True).stdout.split()
        run(["cc", "-O2", os.path.join(HERE, "adw-floor.c"), "-o", floor] + flags)
        environment = dict(os.environ)
        for name, sub in (("HOME", "home"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"),
                          ("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache"), ("XDG_RUNTIME_DIR", "runtime")):
            environment[name] = os.path.join(root, sub)
            os.makedirs(environment[name], mode=0o700, exist_ok=True)
        environment["XDG_DATA_DIRS"] = "/usr/local/share:/usr/share"
        environment.pop("DBUS_SESSION_BUS_ADDRESS", None)
        environment.update({"GDK_BACKEND": "x11", "GIO_USE_VFS": "local", "ADW_DISABLE_PORTAL": "1"})
        extensions = os.path.join(environment["XDG_DATA_HOME"], "xdg-share", "extensions")
        os.makedirs(extensions)
        identifiers = [bundle(extensions, index) for index in range(200)]
        history = os.path.join(environment["XDG_STATE_HOME"], "xdg-share", "history")
        os.makedirs(history)
        for index in range(100):
            record = {"id": f"bench-{index:03d}", "serviceId": identifiers[(index * 7) % 200],
                      "serviceName": "Service", "items": [{"file": f"file:///home/someone/{index}.png"}],
                      "started": f"2026-11-{1 + index % 28:02d}T10:00:00.000Z", "status": "completed"}
            with open(os.path.join(history, f"bench-{index:03d}.json"), "w") as out:
                json.dump(record, out)
        # The same desktop where three services published two direct targets each
        # (docs/direct-targets.md), for the cost of the row of targets.
        targets_state = os.path.join(root, "state-targets")
        shutil.copytree(environment["XDG_STATE_HOME"], targets_state)
        targets = os.path.join(targets_state, "xdg-share", "targets")
        os.makedirs(targets)
        for index, (icon, names) in enumerate([("phone", ["Pixel 8", "Tablet"]),
                                               ("avatar-default", ["Jana", "Climbing club"]),
                                               ("folder", ["Photos", "Invoices"])]):
            published = [{"id": f"t{index}-{n}", "title": name, "subtitle": f"Service {index * 2:03d}",
                          "icon": icon} for n, name in enumerate(names)]
            with open(os.path.join(targets, identifiers[index * 2] + ".json"), "w") as out:
                json.dump({"targets": published}, out)
        environment["SHEET_BENCH_TARGETS_STATE"] = targets_state
        photo = os.path.join(root, "home", "photo.png")
        run(["convert", "-size", "1000x1000", "gradient:blue-yellow", photo])

        display = subprocess.Popen(["Xvfb", "-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1280x800x24"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        number = display.stdout.readline().decode().strip()
        environment["DISPLAY"] = ":" + number
        try:
            run(["dbus-run-session", "--", sys.executable, os.path.join(HERE, "first_frame.py"), runs, floor,
                 sheet, photo], env=environment, cwd=root)
        finally:
            display.terminate()
            display.wait()
    if os.environ.get("SHEET_BENCH_CLEAN"):
        shutil.rmtree(scratch, ignore_errors=True)


main()
