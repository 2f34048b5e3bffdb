// sandbox-bench: what the sandbox of issue 31 adds to a share, against its floors timed in the
// same run, as an unprivileged user (docs/benchmarks.md, "The sandbox's cost").
//
//   swift build -c release && .build/release/sandbox-bench [--binary PATH] [--runs N]
//
// Run as root, it runs everything as `nobody` (setpriv) on a desktop `nobody` owns: the sandbox
// is what an ordinary user gets (user namespaces, no capabilities).
//
// - extra wall time, no bus: a share to a service entitled to nothing, less the same share to
//   the same program declared `org.xdgshare.unconfined`, against `bwrap --unshare-all /bin/true`
//   (target ≤ 1.5×);
// - extra wall time, a filtered bus: a share to a service entitled to one name on the session
//   bus, less the unconfined share, against that bwrap plus an `xdg-dbus-proxy --filter` started
//   until it listens (target ≤ 1.5×).
// Samples of the cases and of the floors alternate, so that the machine's load moves them alike;
// the figures are medians.
import Foundation
import ShareFixtures
import SharePOSIX

var binary = SandboxBench.besideThisBinary()
var runs = 30
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--binary": binary = arguments.popFirst() ?? binary
  case "--runs": runs = Int(arguments.popFirst() ?? "") ?? runs
  default:
    FileHandle.standardError.write(
      Data("usage: sandbox-bench [--binary PATH-TO-xdg-share] [--runs N]\n".utf8))
    exit(2)
  }
}
do {
  try SandboxBench(binary: binary, runs: max(5, runs)).run()
} catch {
  FileHandle.standardError.write(Data("sandbox-bench: \(error)\n".utf8))
  exit(1)
}
