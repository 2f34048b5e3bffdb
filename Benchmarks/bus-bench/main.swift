// bus-bench: the D-Bus service's figures of issue 4, measured end to end.
//
//   swift build -c release --scratch-path /tmp/busbench-build
//   /tmp/busbench-build/release/bus-bench [--binary PATH] [--calls N]
//
// By itself, without a shell: makes a throw-away XDG tree with generated bundles, starts its own
// dbus-daemon and `xdg-share daemon --idle-timeout 0` (next to this binary, or `--binary`, or
// `$XDG_SHARE_BINARY`) and measures them with a libdbus client of its own.

import Foundation
import Glibc
import SharePOSIX

let options = BenchOptions.parse(CommandLine.arguments)
do {
  try BusBench(options: options).run()
} catch {
  BusBench.progress("bus-bench: \(error)")
  exit(1)
}
