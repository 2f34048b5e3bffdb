#!/usr/bin/python3
"""peer-bench: xdg-share's D-Bus service side by side with elementary Contractor.

    swift build -c release --product xdg-share
    /usr/bin/python3 Benchmarks/peer-bench/peer_bench.py [--binary .build/release/xdg-share] [--calls 1000]

Builds or finds Contractor with ../shared/peers/build-contractor (or $CONTRACTOR, a built binary),
makes a throw-away HOME/XDG tree holding the same 200 services twice (xdg-share bundles whose
predicates take exactly the MIME types a .contract lists; a third of those taking a PNG also take
any image, `image/*` in the .contract, by its parent in the predicate), starts one private
dbus-daemon, both
services and measures them with this one python3-dbus client: service CPU from
/proc/PID/task/*/schedstat around the calls, wall as the client's round trip (the services take
turns in ten rounds, so that the machine's load falls on each alike). Every case checks
that both answer the same set of ids. Exits 0 with a message when Contractor cannot be had.

The floors, measured in the same run: query_floor.c, compiled here with cc against libdbus-1
(pkg-config) into the throw-away tree, owns a name of its own and answers the same QueryItems
calls doing only what any service must (libdbus receives and validates the message, the items
are walked and checked, a bare stat() of each file given without a type) and replies with a copy
of the very reply we give. Its CPU is the floor of our CPU, its wall the floor of our wall (a
Ping carrying the same request and reply). A second one answers with our reply to an image
type never seen, for that case's floor. Without cc or libdbus-1's headers the floors are left
out, saying why.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

try:
    import dbus
except ImportError:
    print("peer-bench: skipped: python3-dbus is missing (use /usr/bin/python3)")
    sys.exit(0)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SERVICES = 200
MANY = 1000
POOL = ["image/png", "image/jpeg", "image/gif", "application/pdf", "video/mp4", "audio/ogg",
        "image/webp", "application/zip"]
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f80f00010101001 8dd8db40000000049454e44ae426082".replace(" ", ""))


def argument(name, default):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


def find_contractor():
    given = os.environ.get("CONTRACTOR")
    if given and os.access(given, os.X_OK):
        return given
    script = os.path.join(os.path.dirname(REPO), "shared", "peers", "build-contractor")
    if not os.access(script, os.X_OK):
        script = "/work/shared/peers/build-contractor"
    if not os.access(script, os.X_OK):
        return None
    done = subprocess.run([script], capture_output=True, text=True)
    path = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    return path if done.returncode == 0 and os.access(path, os.X_OK) else None


def types_of(index):
    """The MIME types service `index` takes: one to three of the pool, a PNG for two in three."""
    chosen = [POOL[(index * 7 + k * 3) % len(POOL)] for k in range(1 + index % 3)]
    if index % 3 != 2 and "image/png" not in chosen:
        chosen.append("image/png")
    return sorted(set(chosen))


def takes_any_image(index):
    """Whether service `index` also takes any image, by the parent: one in three, all of them
    services that take a PNG already, so that every other case's answers stay as they were. The
    predicate asks `UTI-CONFORMS-TO "image/*"` for half of them and `"public.image"` for the
    other half (a rule author writes either); the .contract lists `image/*`, which GIO's
    g_content_type_is_a gives every `image/...` subtype, known or not, as TypeSystem gives both."""
    return index % 3 == 0


def write_services(root):
    bundles = os.path.join(root, "data", "xdg-share", "extensions")
    contracts = os.path.join(root, "data", "contractor")
    os.makedirs(bundles)
    os.makedirs(contracts)
    for index in range(SERVICES):
        ident = "org.bench.peer%03d" % index
        types = types_of(index)
        alternatives = " OR ".join('ANY $a.registeredTypeIdentifiers UTI-EQUALS "%s"' % t for t in types)
        listed = types
        if takes_any_image(index):
            parent = "image/*" if index % 2 == 0 else "public.image"
            alternatives += ' OR ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "%s"' % parent
            listed = types + ["image/*"]
        rule = ("SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, %s).@count"
                " == $e.attachments.@count AND $e.attachments.@count >= 1).@count == 1") % alternatives
        rule = rule.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        folder = os.path.join(bundles, ident + ".shareext")
        os.makedirs(folder)
        with open(os.path.join(folder, "Info.plist"), "w") as f:
            f.write(f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict>
<key>CFBundleIdentifier</key><string>{ident}</string>
<key>CFBundleDisplayName</key><string>Peer {index}</string>
<key>CFBundleExecutable</key><string>run</string>
<key>XDGShareDescription</key><string>Service {index}</string>
<key>NSExtension</key><dict>
<key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string>
<key>NSExtensionAttributes</key><dict><key>NSExtensionActivationRule</key><string>{rule}</string></dict>
</dict></dict></plist>
""")
        program = os.path.join(folder, "run")
        with open(program, "w") as f:
            f.write("#!/usr/bin/python3\n")
        os.chmod(program, 0o755)
        with open(os.path.join(contracts, ident + ".contract"), "w") as f:
            f.write(f"[Contractor Entry]\nName=Peer {index}\nIcon=document-send\n"
                    f"Description=Service {index}\nMimeType={';'.join(listed)};\nExec=true %F\n")


FLOOR_NAME = "org.xdgshare.QueryFloor"
FLOOR_IMAGE_NAME = "org.xdgshare.QueryFloor.Image"


def build_floor(root):
    """The query floor compiled into `root`, or (None, why not)."""
    source = os.path.join(HERE, "query_floor.c")
    cc = shutil.which("cc")
    pkg_config = shutil.which("pkg-config")
    if not cc or not pkg_config:
        return None, "cc or pkg-config is missing"
    flags = subprocess.run([pkg_config, "--cflags", "--libs", "dbus-1"], capture_output=True, text=True)
    if flags.returncode != 0:
        return None, "libdbus-1's headers are missing (libdbus-1-dev)"
    binary = os.path.join(root, "query-floor")
    done = subprocess.run([cc, "-O2", "-o", binary, source] + flags.stdout.split(), capture_output=True, text=True)
    if done.returncode != 0:
        return None, "cc failed: " + done.stderr.strip().splitlines()[-1:][0] if done.stderr.strip() else "cc failed"
    return binary, None


def write_reply(path, dictionaries):
    """The reply file query_floor.c reads: per dictionary, KEY NUL VALUE NUL pairs, then NUL."""
    with open(path, "wb") as f:
        for dictionary in dictionaries:
            for key, value in dictionary.items():
                f.write(str(key).encode() + b"\0" + str(value).encode() + b"\0")
            f.write(b"\0")


def cpu_ns(pid):
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except OSError:
            pass
    return total


ROUNDS = 10


def measure(services, calls):
    """For each (pid, make_call) of `services`, (service CPU µs per call, median wall µs per call)
    over `calls` calls, made in ROUNDS rounds taking turns, so that the machine's load falls on
    each alike."""
    cpu = [0] * len(services)
    walls = [[] for _ in services]
    for pid, make_call in services:
        make_call(0)
    done = 0
    for round_ in range(ROUNDS):
        count = calls * (round_ + 1) // ROUNDS - done
        for index, (pid, make_call) in enumerate(services):
            before = cpu_ns(pid)
            for n in range(done, done + count):
                start = time.perf_counter()
                make_call(n + 1)
                walls[index].append(time.perf_counter() - start)
            cpu[index] += cpu_ns(pid) - before
        done += count
    result = []
    for index in range(len(services)):
        walls[index].sort()
        result.append((cpu[index] / calls / 1000, walls[index][len(walls[index]) // 2] * 1e6))
    return result


def main():
    binary = os.path.abspath(argument("--binary", os.path.join(REPO, ".build", "release", "xdg-share")))
    calls = int(argument("--calls", "1000"))
    if not os.access(binary, os.X_OK):
        print(f"peer-bench: no xdg-share at {binary}: swift build -c release --product xdg-share")
        return 2
    contractor = find_contractor()
    if contractor is None:
        print("peer-bench: skipped: Contractor could not be built or found "
              "(../shared/peers/build-contractor failed; set CONTRACTOR to a built binary)")
        return 0
    root = tempfile.mkdtemp(prefix="peer-bench.")
    children = []
    try:
        write_services(root)
        files = os.path.join(root, "files")
        os.makedirs(files)
        with open(os.path.join(files, "photo.png"), "wb") as f:
            f.write(PNG)
        many = []
        for n in range(MANY):
            path = os.path.join(files, f"p{n}.png")
            with open(path, "wb") as f:
                f.write(PNG)
            many.append(path)
        env = {"PATH": "/usr/bin:/bin", "HOME": root, "XDG_DATA_HOME": root + "/data",
               "XDG_CONFIG_HOME": root + "/config", "XDG_STATE_HOME": root + "/state",
               "XDG_CACHE_HOME": root + "/cache", "XDG_RUNTIME_DIR": root,
               "XDG_DATA_DIRS": "/usr/local/share:/usr/share", "LANG": "C.UTF-8"}
        bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                               stdout=subprocess.PIPE, env=env, text=True)
        children.append(bus)
        address = bus.stdout.readline().strip()
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        ours = subprocess.Popen([binary, "daemon", "--idle-timeout", "0"], env=env)
        peer = subprocess.Popen([contractor], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        children += [ours, peer]
        floor_binary, no_floor = build_floor(root)
        connection = dbus.bus.BusConnection(address)
        deadline = time.time() + 20
        while time.time() < deadline and not (connection.name_has_owner("org.xdgshare.Share")
                                               and connection.name_has_owner("org.elementary.Contractor")):
            time.sleep(0.02)

        def full_query(items, fields=None, name="org.xdgshare.Share"):
            options = {"fields": dbus.Array(fields, signature="s")} if fields else {}
            return connection.call_blocking(name, "/org/xdgshare/Share", "org.xdgshare.Share1",
                                            "QueryItems", "aa{sv}a{sv}", [items, options])

        def query(items, fields=None, name="org.xdgshare.Share"):
            return {str(s["id"]) for s in full_query(items, fields, name)}

        def contracts(types):
            reply = connection.call_blocking("org.elementary.Contractor", "/org/elementary/contractor",
                                             "org.elementary.Contractor", "GetContractsByMimelist", "as",
                                             [types])
            # a(ssss) in this version: id, name, description, icon.
            return {str(c["Id"] if isinstance(c, dict) else c[0]) for c in reply}

        def ping(name, path):
            connection.call_blocking(name, path, "org.freedesktop.DBus.Peer", "Ping", "", [])

        def path_item(path, mime=None):
            item = {"path": dbus.ByteArray(path.encode())}
            if mime:
                item["mime-type"] = mime
            return item

        png = os.path.join(files, "photo.png")
        one = [path_item(png)]
        many_items = [path_item(p) for p in many]
        many_typed = [path_item(p, "image/png") for p in many]
        unseen = lambda n: [path_item(f"{files}/x{n}.bin", f"application/x-peer-bench-{n}")]
        # A PNG given a subtype of image/ that no one has seen (nor shared-mime-info lists): only
        # the rules that take any image accept it. Numbers from 10**6 on, apart from the checks'.
        new_image = lambda n: f"image/x-new-{n + 10**6}"
        unseen_image = lambda n: [path_item(png, new_image(n))]
        checks = [("one PNG", query(one), contracts(["image/png"])),
                  ("1,000 PNGs", query(many_items), contracts(["image/png"] * MANY)),
                  ("1,000 PNGs typed", query(many_typed), contracts(["image/png"] * MANY)),
                  ("unseen type", query(unseen(-1)), contracts(["application/x-peer-bench--1"])),
                  ("unseen image type", query(unseen_image(-1)), contracts([new_image(-1)])),
                  ("unseen image type, again", query(unseen_image(-2)), contracts([new_image(-2)]))]
        for label, a, b in checks:
            if a != b:
                print(f"peer-bench: answers differ for {label}: ours {len(a)}, peer {len(b)}, "
                      f"only ours {sorted(a - b)[:5]}, only peer {sorted(b - a)[:5]}")
                return 1
        accepted = len(checks[0][1])
        accepted_image = len(checks[4][1])
        expected_image = {"org.bench.peer%03d" % i for i in range(SERVICES) if takes_any_image(i)}
        if checks[4][1] != expected_image or checks[3][1]:
            print(f"peer-bench: an unseen image type is accepted by {accepted_image} services, not the "
                  f"{len(expected_image)} that take any image (or an unseen type by some)")
            return 1
        floor = floor_image = None
        if floor_binary:
            reply = [dict(d) for d in full_query(one)]
            write_reply(os.path.join(root, "reply"), reply)
            floor = subprocess.Popen([floor_binary, FLOOR_NAME, os.path.join(root, "reply")], env=env)
            children.append(floor)
            deadline = time.time() + 10
            while time.time() < deadline and floor.poll() is None and not connection.name_has_owner(FLOOR_NAME):
                time.sleep(0.02)
            if not connection.name_has_owner(FLOOR_NAME):
                print("peer-bench: the query floor did not start")
                return 1
            # The same floor answering with our reply to an image type never seen.
            reply = [dict(d) for d in full_query(unseen_image(-3))]
            write_reply(os.path.join(root, "reply-image"), reply)
            floor_image = subprocess.Popen([floor_binary, FLOOR_IMAGE_NAME, os.path.join(root, "reply-image")],
                                           env=env)
            children.append(floor_image)
            deadline = time.time() + 10
            while (time.time() < deadline and floor_image.poll() is None
                   and not connection.name_has_owner(FLOOR_IMAGE_NAME)):
                time.sleep(0.02)
            if not connection.name_has_owner(FLOOR_IMAGE_NAME):
                print("peer-bench: the query floor for an unseen image type did not start")
                return 1
            for label, items, name in [("one PNG", one, FLOOR_NAME), ("1,000 PNGs", many_items, FLOOR_NAME),
                                       ("1,000 PNGs typed", many_typed, FLOOR_NAME),
                                       ("unseen image type", unseen_image(-4), FLOOR_IMAGE_NAME)]:
                if [dict(d) for d in full_query(items, name=name)] != [dict(d) for d in full_query(items)]:
                    print(f"peer-bench: the floor's reply differs from ours for {label}")
                    return 1
        big = max(50, calls // 5)
        # Each floor call with the process whose CPU it costs.
        floor_query = lambda items: (floor.pid, lambda n: query(items, name=FLOOR_NAME)) if floor else None
        rows = [
            ("Peer.Ping (floor: the transport)", calls,
             lambda n: ping("org.elementary.Contractor", "/org/elementary/contractor"),
             lambda n: ping("org.xdgshare.Share", "/org/xdgshare/Share"),
             (floor.pid, lambda n: ping(FLOOR_NAME, "/org/xdgshare/Share")) if floor else None),
            ("one PNG", calls, lambda n: contracts(["image/png"]), lambda n: query(one), floor_query(one)),
            ("one PNG, ours with fields [\"id\"]", calls, lambda n: contracts(["image/png"]),
             lambda n: query(one, ["id"]), None),
            ("a type never seen before, each call", calls,
             lambda n: contracts([f"application/x-peer-bench-{n}"]), lambda n: query(unseen(n)), None),
            # measure() makes call 0 (to warm up), then 1..calls, each once per service: no service
            # is asked about one new_image(n) twice, nor about one the checks above asked.
            ("one PNG typed image/x-new-N never seen, each call (by the parent)", calls,
             lambda n: contracts([new_image(n)]), lambda n: query(unseen_image(n)),
             (floor_image.pid, lambda n: query(unseen_image(n), name=FLOOR_IMAGE_NAME)) if floor else None),
            ("1,000 PNGs (peer given 1,000 × image/png)", big,
             lambda n: contracts(["image/png"] * MANY), lambda n: query(many_items), floor_query(many_items)),
            ("1,000 PNGs, each with its mime-type given", big,
             lambda n: contracts(["image/png"] * MANY), lambda n: query(many_typed), floor_query(many_typed)),
        ]
        load = os.getloadavg()[0]
        print(f"# peer-bench: {SERVICES} services, {accepted} accept a PNG, {accepted_image} an image type "
              "never seen; answers equal in every case")
        print(f"xdg-share: {binary}\nContractor: {contractor}\nload average at start: {load:.2f}"
              + (" (the machine was loaded)" if load >= 1 else "") + "\n")
        if not floor:
            print(f"floors: left out: {no_floor}\n")
        print("| call | calls | Contractor CPU | our CPU | ours / peer | Contractor wall | our wall "
              "| floor CPU | floor wall |")
        print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
        figures = {}
        for label, count, peer_call, our_call, floor_call in rows:
            services = [(peer.pid, peer_call), (ours.pid, our_call)] + ([floor_call] if floor_call else [])
            measured = measure(services, count)
            (peer_cpu, peer_wall), (our_cpu, our_wall) = measured[0], measured[1]
            floor_cpu, floor_wall = measured[2] if floor_call else (None, None)
            figures[label] = (peer_cpu, our_cpu, floor_cpu, peer_wall, our_wall, floor_wall)
            floors = (f"{floor_cpu:,.0f} µs | {floor_wall:,.0f} µs" if floor_call else "– | –")
            print(f"| {label} | {count} | {peer_cpu:,.0f} µs | {our_cpu:,.0f} µs | {our_cpu / peer_cpu:.2f}× "
                  f"| {peer_wall:,.0f} µs | {our_wall:,.0f} µs | {floors} |", flush=True)
        print_targets(figures, rows, floor is not None)
        return 0
    finally:
        for child in reversed(children):
            child.terminate()
            try:
                child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                child.kill()
        shutil.rmtree(root, ignore_errors=True)


def print_targets(figures, rows, with_floors):
    """Issue 12's targets, and issue 27's, as ratios of this run's figures."""
    one, unseen, unseen_image, many, typed = rows[1][0], rows[3][0], rows[4][0], rows[5][0], rows[6][0]
    targets = [
        ("service CPU, one PNG, ours / Contractor", figures[one][1] / figures[one][0], 0.1),
        ("service CPU, a type never seen, ours / Contractor", figures[unseen][1] / figures[unseen][0], 0.25),
        ("service CPU, an image type never seen (issue 27), ours / Contractor",
         figures[unseen_image][1] / figures[unseen_image][0], 0.25),
    ]
    if with_floors:
        targets += [
            ("service CPU, 1,000 items with types given, ours / floor", figures[typed][1] / figures[typed][2], 1.5),
            ("service CPU, 1,000 files detected, ours / floor (with a stat of each)",
             figures[many][1] / figures[many][2], 1.2),
            ("wall, one PNG, ours / floor", figures[one][4] / figures[one][5], 1.3),
            ("wall, 1,000 files detected, ours / floor (with a stat of each)", figures[many][4] / figures[many][5], 1.3),
        ]
    print("\n| target | this run | at most | |\n|---|--:|--:|---|")
    for label, ratio, limit in targets:
        print(f"| {label} | {ratio:.2f}× | {limit}× | {'met' if ratio <= limit else 'missed'} |")


if __name__ == "__main__":
    sys.exit(main())
