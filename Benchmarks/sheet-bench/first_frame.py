#!/usr/bin/python3
"""Start-up benchmark of xdg-share-sheet against a bare C AdwApplication window.

Usage (inside dbus-run-session, DISPLAY set, on a throw-away desktop):
  first_frame.py RUNS FLOOR-BINARY SHEET-BINARY SHEET-ARGUMENT...

Each program reports the monotonic clock at its first frame (`first-frame NS` on standard
error; the sheet also `services-shown NS`); the time is measured from just before fork/exec.
One warm-up run each, then RUNS runs, alternating; prints medians, and the peak RSS (wait4).
With SHEET_BENCH_TARGETS_STATE, the sheet is also run with that XDG_STATE_HOME (services that
published direct targets); with SHEET_BENCH_RENDERER, every program draws with that renderer.
"""
import os
import statistics
import subprocess
import sys
import time


def run(command, events, extra={}):
    environment = dict(os.environ, XDG_SHARE_SHEET_TIMING="1", **extra)
    # One renderer for every program, when asked (else each its own default).
    if os.environ.get("SHEET_BENCH_RENDERER"):
        environment["GSK_RENDERER"] = os.environ["SHEET_BENCH_RENDERER"]
    start = time.monotonic_ns()
    process = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=environment)
    seen = {}
    # A program that ends, or never says all of them, leaves its events out rather than hang.
    deadline = time.monotonic() + 20
    for line in process.stderr:
        if time.monotonic() > deadline:
            break
        parts = line.decode(errors="replace").split()
        if len(parts) == 2 and parts[0] in events:
            seen[parts[0]] = (int(parts[1]) - start) / 1e6
            if all(event in seen for event in events):
                break
    process.terminate()
    process.stderr.close()
    _, _, usage = os.wait4(process.pid, 0)
    return seen, usage.ru_maxrss / 1024


def main():
    runs = int(sys.argv[1])
    floor = [sys.argv[2]]
    sheet = sys.argv[3:]
    sheet_events = ["activate", "services-loaded", "first-frame", "services-shown"]
    programs = [("floor", floor, ["activate", "first-frame"], {}), ("sheet", sheet, sheet_events, {})]
    # The sheet where services published direct targets (run.py makes that state folder).
    targets_state = os.environ.get("SHEET_BENCH_TARGETS_STATE")
    if targets_state:
        programs.append(("sheet with targets", sheet, sheet_events, {"XDG_STATE_HOME": targets_state}))
    results = {name: [] for name, _, _, _ in programs}
    for index in range(runs + 1):
        for name, command, events, extra in programs:
            seen, rss = run(command, events, extra)
            if index > 0:
                results[name].append((seen, rss))
    for name, samples in results.items():
        for event in sorted({event for seen, _ in samples for event in seen}):
            values = [seen[event] for seen, _ in samples if event in seen]
            print(f"{name} {event}: median {statistics.median(values):.1f} ms "
                  f"(min {min(values):.1f}, max {max(values):.1f}, n={len(values)})")
        print(f"{name} peak RSS: median {statistics.median(rss for _, rss in samples):.1f} MiB")
    floor_median = statistics.median(s["first-frame"] for s, _ in results["floor"])
    sheet_median = statistics.median(s["first-frame"] for s, _ in results["sheet"])
    print(f"sheet / floor first frame: {sheet_median / floor_median:.2f}")
    if "sheet with targets" in results:
        targets_median = statistics.median(s["first-frame"] for s, _ in results["sheet with targets"])
        print(f"sheet with targets / sheet first frame: {targets_median / sheet_median:.3f}")


main()
