#!/usr/bin/python3
"""Runs a command in a sandbox built from Flatpak's own parts, as `flatpak run` builds one.

Usage: flatpak_sandbox.py [--talk] [--app-id ID] [--app-folder DIR] [--document-portal] [--daemon XDG_SHARE]
                          -- COMMAND...

On the session bus DBUS_SESSION_BUS_ADDRESS names (the test's own):
- with --document-portal, starts the document portal (xdg-document-portal) by calling it, as
  Flatpak does before an app runs;
- with --daemon, starts `XDG_SHARE daemon` on it first (and stops it at the end);
- writes the app's /.flatpak-info ([Application] name=ID, [Instance] instance-id);
- starts xdg-dbus-proxy as Flatpak does (flatpak-run.c's add_bwrap_wrapper): inside a bwrap of
  its own that holds the same /.flatpak-info, so that the process the bus names for the app is
  in the app's sandbox, with Flatpak's filter rules (--own=ID.*, the portals) and, with --talk,
  --talk=org.xdgshare.Share;
- runs COMMAND in the app's sandbox: bwrap with a user namespace of its own and no capabilities,
  the host's /usr and /etc read-only, a private /tmp, a private home (an empty tmpfs at $HOME,
  with the app's ~/.var/app/ID bound in from the host, as Flatpak does), /run/user/UID with the
  proxy's socket as the session bus, and this folder (or DIR) at /app.
Prints COMMAND's output, and exits with its status.
"""
import os
import subprocess
import sys
import tempfile
import time

arguments = sys.argv[1:]
split = arguments.index("--")
options, command = arguments[:split], arguments[split + 1:]
talk = "--talk" in options
app_id = options[options.index("--app-id") + 1] if "--app-id" in options else "org.example.Notes"
daemon_program = options[options.index("--daemon") + 1] if "--daemon" in options else None
portal = "--document-portal" in options
# What the sandbox has at /app: this folder (the test's clients), or another.
app_folder = options[options.index("--app-folder") + 1] if "--app-folder" in options else None
here = app_folder or os.path.dirname(os.path.abspath(__file__))
uid = os.getuid()
runtime = os.environ["XDG_RUNTIME_DIR"]
home = os.environ["HOME"]
address = os.environ["DBUS_SESSION_BUS_ADDRESS"]
processes = []


def wait_owned(name, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        answer = subprocess.run(
            ["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
             "org.freedesktop.DBus.NameHasOwner", f"string:{name}"], capture_output=True, text=True).stdout
        if "boolean true" in answer:
            return
        time.sleep(0.05)
    raise SystemExit(f"flatpak_sandbox: {name} did not appear on the bus")


status = 1
try:
    if portal:
        # Flatpak starts the document portal (its FUSE file system is /run/flatpak/doc): a call
        # activates it, on this bus.
        subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.portal.Documents",
                        "--object-path", "/org/freedesktop/portal/documents",
                        "--method", "org.freedesktop.portal.Documents.GetMountPoint"],
                       check=True, capture_output=True, timeout=30)
    if daemon_program:
        processes.append(subprocess.Popen([daemon_program, "daemon", "--idle-timeout", "0"]))
        wait_owned("org.xdgshare.Share")

    work = tempfile.mkdtemp(prefix="flatpak-", dir=runtime)
    info = os.path.join(work, "flatpak-info")
    with open(info, "w") as written:
        written.write(f"[Application]\nname={app_id}\nruntime=runtime/org.example.Platform/x86_64/1\n\n"
                      f"[Instance]\ninstance-id=4242\nsession-bus-proxy=true\n")
    os.chmod(info, 0o600)

    # The proxy's socket, where Flatpak makes it: $XDG_RUNTIME_DIR/.dbus-proxy/session-bus-proxy-XXXXXX.
    proxy_folder = os.path.join(runtime, ".dbus-proxy")
    os.makedirs(proxy_folder, exist_ok=True)
    descriptor, socket = tempfile.mkstemp(prefix="session-bus-proxy-", dir=proxy_folder)
    os.close(descriptor)
    rules = [address, socket, "--filter", f"--own={app_id}.*", f"--own=org.mpris.MediaPlayer2.{app_id}.*"]
    if talk:
        rules.append("--talk=org.xdgshare.Share")
    rules += ["--call=org.freedesktop.portal.*=*", "--broadcast=org.freedesktop.portal.*=@/org/freedesktop/portal/*"]
    sync_read, sync_write = os.pipe()
    info_for_proxy = os.open(info, os.O_RDONLY)
    wrapper = ["bwrap"]
    for entry in sorted(os.listdir("/")):
        path = "/" + entry
        if entry == ".flatpak-info":
            continue
        if os.path.islink(path):
            wrapper += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            wrapper += ["--bind" if entry in ("tmp", "var", "run") else "--ro-bind", path, path]
    wrapper += ["--bind", proxy_folder, proxy_folder, "--bind", runtime, runtime, "--die-with-parent",
                "--perms", "0600", "--file", str(info_for_proxy), "/.flatpak-info", "--"]
    proxy = subprocess.Popen(wrapper + ["xdg-dbus-proxy", f"--fd={sync_write}"] + rules,
                             pass_fds=(sync_write, info_for_proxy))
    processes.append(proxy)
    os.close(sync_write)
    os.close(info_for_proxy)
    if os.read(sync_read, 1) != b"x":
        raise SystemExit("flatpak_sandbox: xdg-dbus-proxy did not start")

    app_data = os.path.join(home, ".var", "app", app_id)
    os.makedirs(app_data, exist_ok=True)
    run = f"/run/user/{uid}"
    first_info = os.open(info, os.O_RDONLY)
    second_info = os.open(info, os.O_RDONLY)
    sandbox = [
        "bwrap", "--unshare-user", "--disable-userns", "--unshare-ipc", "--unshare-net", "--unshare-pid",
        "--unshare-uts", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
        "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
        "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin", "--ro-bind", "/etc", "/etc",
        "--ro-bind", here, "/app", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--dir", "/var/tmp",
        "--tmpfs", home, "--bind", app_data, app_data,
        "--perms", "0700", "--dir", run, "--setenv", "XDG_RUNTIME_DIR", run,
        "--ro-bind", socket, "/run/flatpak/bus", "--symlink", "../../flatpak/bus", f"{run}/bus",
        "--setenv", "DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/flatpak/bus", "--setenv", "container", "flatpak",
        "--setenv", "HOME", home, "--setenv", "FLATPAK_ID", app_id,
        "--perms", "0600", "--file", str(first_info), "/.flatpak-info", "--ro-bind-data", str(second_info),
        "/.flatpak-info", "--symlink", "../../../.flatpak-info", f"{run}/flatpak-info",
        "--sync-fd", str(sync_read), "--chdir", home, "--",
    ] + command
    status = subprocess.call(sandbox, pass_fds=(first_info, second_info, sync_read))
    os.close(sync_read)
finally:
    for process in reversed(processes):
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
sys.exit(status)
