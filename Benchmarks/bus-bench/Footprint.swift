import Foundation
import Glibc
import ShareFixtures
import SharePOSIX

/// Issue 12's footprint figures: what `xdg-share list` costs to start against the least a program
/// with the same C libraries costs, and what `install.sh` puts on disk.
extension BusBench {
  struct ListStartup {
    /// Wall time from fork/exec to the child waited for.
    var list: Samples
    var floor: Samples
    /// User + system CPU of each run.
    var listCPU: Samples
    var floorCPU: Samples
    var services: Int
  }

  struct InstalledSize {
    var name: String
    var built: Int
    var stripped: Int
  }

  /// `xdg-share list --json FILE` with the bundled services, installed as `install.sh` does
  /// (`data/extensions` of the working folder, each bundle's `share` a link to
  /// `xdg-share-services`), against `memory-floor --guess FILE` (the same C libraries, one GIO
  /// guess, nothing else). Runs alternate, so a change in the machine's load moves both alike.
  /// `nil` when the bundled services are not at hand (the bench run from another folder).
  func measureListStartup(png: String) throws -> ListStartup? {
    let bundled = "data/extensions"
    guard
      let names = try? FileManager.default.contentsOfDirectory(atPath: bundled).filter({
        $0.hasSuffix(".shareext")
      }).sorted(), !names.isEmpty
    else {
      Self.progress("list start-up: skipped, no bundled services in ./\(bundled) (run from the repository)")
      return nil
    }
    // Removed with its deinit, after the last run.
    let desktop = try TemporaryDesktop(prefix: "xdg-share-list-bench")
    let program = BenchOptions.besideThisBinary("xdg-share-services")
    for name in names {
      let target = "\(desktop.userExtensions)/\(name)"
      try FileManager.default.createDirectory(
        atPath: desktop.userExtensions, withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: "\(bundled)/\(name)", toPath: target)
      if !FileManager.default.fileExists(atPath: "\(target)/share") {
        try FileManager.default.createSymbolicLink(atPath: "\(target)/share", withDestinationPath: program)
      }
    }
    let environment = desktop.environment(busAddress: nil)
    let list = [options.binary, "list", "--json", png]
    let floor = [BenchOptions.besideThisBinary("memory-floor"), "--guess", png]
    // The listing must be a real one: every bundled service loaded, the PNG's accepted.
    let listed = try CapturedRun.run(list.map { Array($0.utf8) }, environment: environment)
    guard listed.status == 0, String(decoding: listed.standardOutput, as: UTF8.self).contains("\"id\"") else {
      throw BenchError(
        "`xdg-share list --json` failed in the bench's tree: "
          + String(decoding: listed.standardError, as: UTF8.self))
    }
    var samples: [[Double]] = [[], [], [], []]
    for run in 0..<42 {
      for (index, argv) in [list, floor].enumerated() {
        let (wall, cpu) = try timeChild(argv, environment: environment)
        // The first round warms the page cache for both.
        if run > 0 {
          samples[index].append(wall)
          samples[index + 2].append(cpu)
        }
      }
    }
    return ListStartup(
      list: Samples(samples[0]), floor: Samples(samples[1]), listCPU: Samples(samples[2]),
      floorCPU: Samples(samples[3]), services: names.count)
  }

  /// Runs `argv` to its end with its output discarded: its wall time and its CPU time, read from
  /// the children's resource usage around the wait (nothing else of this bench ends meanwhile).
  private func timeChild(_ argv: [String], environment: [String: String]) throws -> (Double, Double) {
    var before = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &before)
    let start = MonotonicClock.now
    let child = try ChildProcess.spawn(
      argv.map { Array($0.utf8) }, environment: environment, standardInput: .null, standardOutput: .null,
      standardError: .inherit)
    guard child.wait() == .exited(0) else { throw BenchError("\(argv.joined(separator: " ")) failed") }
    let wall = MonotonicClock.now - start
    var after = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &after)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    let cpu =
      seconds(after.ru_utime) + seconds(after.ru_stime) - seconds(before.ru_utime) - seconds(before.ru_stime)
    return (wall, cpu)
  }

  /// The programs `install.sh` installs without a display (`xdg-share`, `xdg-share-services`), as
  /// built and as installed: `strip` of a copy, as `install -s` does.
  func measureInstalledSizes(scratch: String) throws -> [InstalledSize] {
    try ["xdg-share", "xdg-share-services"].map { name in
      let built = BenchOptions.besideThisBinary(name)
      let copy = "\(scratch)/\(name).stripped"
      let stripped = try CapturedRun.run(
        ["strip", "-o", copy, built].map { Array($0.utf8) },
        environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
      guard stripped.status == 0 else {
        throw BenchError("strip \(built) failed: " + String(decoding: stripped.standardError, as: UTF8.self))
      }
      return InstalledSize(name: name, built: try Self.fileSize(built), stripped: try Self.fileSize(copy))
    }
  }

  private static func fileSize(_ path: String) throws -> Int {
    var status = stat()
    guard stat(path, &status) == 0 else { throw BenchError("cannot stat \(path)") }
    return Int(status.st_size)
  }
}
