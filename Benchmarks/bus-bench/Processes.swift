import Foundation
import Glibc
import ShareFixtures
import SharePOSIX
import Synchronization

/// Every child still running, and the private bus, so that an interrupted run stops them too.
final class Children: Sendable {
  private let running = Mutex<[Int32: ChildProcess]>([:])
  private let buses = Mutex<[PrivateBus]>([])
  private let cleanedUp = Mutex(false)

  /// Stops every child and removes `root`, once: a second caller waits until the first is done.
  func cleanUp(removing root: String) {
    cleanedUp.withLock { done in
      guard !done else { return }
      stopAll()
      try? FileManager.default.removeItem(atPath: root)
      done = true
    }
  }

  func add(_ child: ChildProcess) { running.withLock { $0[child.pid] = child } }
  func remove(_ child: ChildProcess) { _ = running.withLock { $0.removeValue(forKey: child.pid) } }
  /// A bus to stop with the children (``PrivateBus/stop()`` does it once).
  func add(_ bus: PrivateBus) { buses.withLock { $0.append(bus) } }

  /// Stops every child left: SIGTERM, then SIGKILL after a second; then the buses.
  func stopAll() {
    for child in running.withLock({ Array($0.values) }) {
      child.signal(Signal.terminate)
      if child.wait(timeout: 1) == nil {
        child.signal(Signal.kill)
        _ = child.wait()
      }
      remove(child)
    }
    for bus in buses.withLock({ Array($0) }) { bus.stop() }
  }
}

/// `xdg-share daemon --idle-timeout 0`, started directly (not by activation).
final class ServiceProcess {
  let process: ChildProcess
  private let children: Children

  /// Spawns it; returns at once.
  init(binary: String, desktop: BenchDesktop, busAddress: String, children: Children) throws {
    process = try ChildProcess.spawn(
      [binary, "daemon", "--idle-timeout", "0"].map { Array($0.utf8) },
      environment: desktop.environment(busAddress: busAddress), standardInput: .null, standardOutput: .null,
      standardError: .inherit)
    self.children = children
    children.add(process)
  }

  var pid: Int32 { process.pid }

  /// Stops it and waits for it.
  func stop() {
    process.signal(Signal.terminate)
    if process.wait(timeout: 5) == nil {
      process.signal(Signal.kill)
      _ = process.wait()
    }
    children.remove(process)
  }

  /// Whether it is still running.
  var isRunning: Bool { kill(process.pid, 0) == 0 && !isZombie }

  private var isZombie: Bool {
    ProcessMemory.readText("/proc/\(process.pid)/stat").split(separator: " ").dropFirst(2).first == "Z"
  }
}

/// What `/proc/PID/status` and `/proc/PID/smaps` say about a process's memory.
struct ProcessMemory {
  /// `VmRSS`, `RssAnon`, `RssFile`, in bytes.
  var resident: Double
  var anonymous: Double
  var fileBacked: Double
  /// `Pss` and the private pages (`Private_Clean` + `Private_Dirty`) of `smaps_rollup`.
  var proportional: Double
  var unique: Double

  init?(pid: Int32) {
    let status = Self.fields(Self.readText("/proc/\(pid)/status"))
    let rollup = Self.fields(Self.readText("/proc/\(pid)/smaps_rollup"))
    guard let rss = status["VmRSS"] else { return nil }
    resident = rss
    anonymous = status["RssAnon"] ?? 0
    fileBacked = status["RssFile"] ?? 0
    proportional = rollup["Pss"] ?? 0
    unique = (rollup["Private_Clean"] ?? 0) + (rollup["Private_Dirty"] ?? 0)
  }

  /// Resident memory by family of mapping: the binary, the Swift runtime, Foundation, GLib, the
  /// C and C++ runtimes, the heap and other anonymous memory.
  static func byFamily(pid: Int32, binary: String) -> [(name: String, bytes: Double)] {
    let binaryName = (binary as NSString).lastPathComponent
    var families: [String: Double] = [:]
    for (name, bytes) in largestMappings(pid: pid, count: .max) {
      let family: String
      if name == binaryName {
        family = "the binary"
      } else if name.hasPrefix("libFoundation") || name.hasPrefix("lib_Foundation") {
        family = "Foundation"
      } else if name.hasPrefix("libswift") || name.hasPrefix("libdispatch")
        || name.hasPrefix("libBlocksRuntime")
      {
        family = "Swift runtime"
      } else if ["libglib", "libgio", "libgobject", "libgmodule"].contains(where: name.hasPrefix) {
        family = "GLib/GIO"
      } else if ["libc.so", "libstdc++", "libm.so", "libgcc_s", "ld-linux"].contains(where: name.hasPrefix) {
        family = "C/C++ runtime"
      } else if name.hasPrefix("[") {
        family = "heap and anonymous"
      } else {
        family = "other files"
      }
      families[family, default: 0] += bytes
    }
    return families.sorted { $0.value > $1.value }.map { ($0.key, $0.value) }
  }

  /// The mappings holding the most resident memory, by file (anonymous memory as `[anon]`).
  static func largestMappings(pid: Int32, count: Int) -> [(name: String, bytes: Double)] {
    var byName: [String: Double] = [:]
    var current = "[anon]"
    for line in readText("/proc/\(pid)/smaps").split(separator: "\n") {
      let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard let first = parts.first else { continue }
      if first.contains("-") && !first.hasSuffix(":") {
        current = parts.count >= 6 ? parts[5...].joined(separator: " ") : "[anon]"
        current = current.split(separator: "/").last.map(String.init) ?? current
      } else if first == "Rss:", parts.count >= 2, let kilobytes = Double(parts[1]) {
        byName[current, default: 0] += kilobytes * 1024
      }
    }
    return byName.sorted { $0.value > $1.value }.prefix(count).map { ($0.key, $0.value) }
  }

  /// `Key:   123 kB` lines, in bytes.
  private static func fields(_ text: String) -> [String: Double] {
    var result: [String: Double] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard parts.count >= 2, parts[0].hasSuffix(":"), let value = Double(parts[1]) else { continue }
      result[String(parts[0].dropLast())] = value * (parts.count >= 3 && parts[2] == "kB" ? 1024 : 1)
    }
    return result
  }

  static func readText(_ path: String) -> String {
    guard let file = fopen(path, "r") else { return "" }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = fread(&chunk, 1, chunk.count, file)
      if count <= 0 { break }
      bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// CPU time spent so far, in seconds, from the scheduler's own accounting (nanoseconds): it does
/// not depend on what else the machine runs, unlike a round trip.
enum CPUTime {
  /// Every thread of process `pid` (`/proc/PID/task/*/schedstat`, first field).
  static func process(_ pid: Int32) -> Double {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.reduce(0) { total, task in
      let text = ProcessMemory.readText("/proc/\(pid)/task/\(task)/schedstat")
      return total + (text.split(separator: " ").first.flatMap { Double($0) } ?? 0) / 1e9
    }
  }

  /// The calling thread.
  static func thisThread() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}

/// CPU seconds per call in each process a call passes through.
struct CPUPerCall {
  var client = 0.0
  var bus = 0.0
  var service = 0.0
  var calls = 0

  var total: Double { client + bus + service }
}
