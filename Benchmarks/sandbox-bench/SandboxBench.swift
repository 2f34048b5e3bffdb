import Foundation
import ShareFixtures
import SharePOSIX

/// The run: a desktop with three copies of one trivial service (entitled to nothing, to one bus
/// name, unconfined), a private bus, and the timings.
final class SandboxBench {
  let binary: String
  let runs: Int
  let desktop: TemporaryDesktop
  /// `setpriv` to `nobody` when run as root: the figures are an unprivileged user's.
  let prefix: [String]
  let item: String
  private var bus: ChildProcess?
  private var busAddress = ""

  static let plain = "org.example.bench.plain"
  static let talker = "org.example.bench.talker"
  static let unconfined = "org.example.bench.unconfined"
  static let name = "org.example.bench.Peer"
  /// What bwrap needs to run `/bin/true` at all: `/usr`, and the links into it.
  static let bareSandbox = [
    "/usr/bin/bwrap", "--unshare-all", "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib",
    "--symlink",
    "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin", "--", "/bin/true",
  ]

  init(binary: String, runs: Int) throws {
    self.binary = binary
    self.runs = runs
    desktop = try TemporaryDesktop(prefix: "xdg-share-sandbox-bench")
    prefix =
      getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] : []
    // The service answers at once: what is timed is the start around it.
    let program = """
      #!/bin/sh
      cat > /dev/null
      echo '{"complete": {"returningItems": []}}'

      """
    for (id, entitlements) in [
      (Self.plain, ""),
      (Self.talker, "<key>org.xdgshare.session-bus.talk</key><array><string>\(Self.name)</string></array>"),
      (Self.unconfined, "<key>org.xdgshare.unconfined</key><true/>"),
    ] {
      let folder = try BundleFixture(
        id: id, name: id, ruleXML: BundleFixture.predicate("TRUEPREDICATE"), program: program
      ).write(into: desktop.userExtensions)
      try """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>\(entitlements)</dict></plist>

      """.write(toFile: "\(folder)/Entitlements.plist", atomically: false, encoding: .utf8)
    }
    item = try desktop.writeFile(named: "note.txt", contents: "a note\n")
    if !prefix.isEmpty {
      let chown = try CapturedRun.run(
        ["/usr/bin/chown", "-R", "65534:65534", desktop.root].map { Array($0.utf8) },
        environment: ["PATH": "/usr/bin:/bin"])
      guard chown.status == 0 else { throw BenchError("chown \(desktop.root) failed") }
    }
  }

  struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// `name` in the folder of this executable (`/proc/self/exe`): `xdg-share` unless told.
  static func besideThisBinary(_ name: String = "xdg-share") -> String {
    guard let own = FileSystem.linkDestination(Array("/proc/self/exe".utf8)) else { return name }
    return (String(decoding: own, as: UTF8.self) as NSString).deletingLastPathComponent + "/" + name
  }

  func run() throws {
    let runtime = "\(desktop.root)/runtime"
    let daemon = try ChildProcess.spawn(
      (prefix + [
        "/usr/bin/dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=unix:path=\(runtime)/bus",
        "--print-address=1",
      ]).map { Array($0.utf8) }, environment: desktop.environment(busAddress: nil), standardOutput: .pipe,
      endsWithParent: true)
    bus = daemon
    defer {
      daemon.signal(SIGTERM)
      _ = daemon.wait()
    }
    busAddress = String(
      decoding: try daemon.standardOutput?.read(upTo: 512).prefix { $0 != UInt8(ascii: "\n") } ?? [],
      as: UTF8.self)
    guard !busAddress.isEmpty else { throw BenchError("dbus-daemon did not start") }

    // Once each first: a failing share is no figure.
    for service in [Self.plain, Self.talker, Self.unconfined] { try share(service) }

    var samples: [String: [Double]] = [:]
    for _ in 0..<runs {
      samples["bwrap", default: []].append(try time { try runChecked(Self.bareSandbox) })
      samples["unconfined", default: []].append(try time { try share(Self.unconfined) })
      samples["plain", default: []].append(try time { try share(Self.plain) })
      samples["proxy", default: []].append(try time { try startProxy() })
      samples["talker", default: []].append(try time { try share(Self.talker) })
    }
    let median = samples.mapValues { values in values.sorted()[values.count / 2] }
    let bwrap = median["bwrap"]!, unconfined = median["unconfined"]!, proxy = median["proxy"]!
    // Each sandboxed share less the unconfined one of the same round, then the median: the
    // rounds' differences, not the difference of two medians an order of magnitude larger.
    func extra(_ name: String) -> Double {
      let differences = zip(samples[name]!, samples["unconfined"]!).map { $0 - $1 }.sorted()
      return differences[differences.count / 2]
    }
    let plainExtra = extra("plain")
    let talkerExtra = extra("talker")
    func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
    func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }
    let noBus = plainExtra / bwrap
    let withBus = talkerExtra / (bwrap + proxy)
    print("sandbox-bench: \(runs) runs of each, medians, as \(prefix.isEmpty ? "this user" : "nobody")")
    print("  unconfined share                 \(ms(unconfined))")
    print("  bare bwrap --unshare-all true    \(ms(bwrap))")
    print("  xdg-dbus-proxy --filter start    \(ms(proxy))")
    print("  sandboxed share, no bus          \(ms(median["plain"]!))   extra \(ms(plainExtra))")
    print("  sandboxed share, a filtered bus  \(ms(median["talker"]!))   extra \(ms(talkerExtra))")
    print(
      "  extra, no bus / bare bwrap                    \(ratio(noBus))  target ≤ 1.5×  \(noBus <= 1.5 ? "met" : "MISSED")"
    )
    print(
      "  extra, filtered bus / (bare bwrap + proxy)    \(ratio(withBus))  target ≤ 1.5×  \(withBus <= 1.5 ? "met" : "MISSED")"
    )
  }

  private func time(_ body: () throws -> Void) throws -> Double {
    let start = MonotonicClock.now
    try body()
    return MonotonicClock.now - start
  }

  private func runChecked(_ arguments: [String], environment: [String: String]? = nil) throws {
    let run = try CapturedRun.run(
      (prefix + arguments).map { Array($0.utf8) },
      environment: environment ?? desktop.environment(busAddress: busAddress),
      workingDirectory: Array(desktop.files.utf8))
    guard run.status == 0 else {
      throw BenchError(
        "\(arguments.joined(separator: " ")): \(String(decoding: run.standardError, as: UTF8.self))")
    }
  }

  private func share(_ service: String) throws {
    try runChecked([binary, "--service", service, "--", item])
  }

  /// `xdg-dbus-proxy` as Flatpak starts it, until it listens: it writes a byte on `--fd` then.
  private func startProxy() throws {
    let socket = "\(desktop.root)/runtime/proxy-\(UInt32.random(in: 0...UInt32.max))"
    let proxy = try ChildProcess.spawn(
      (prefix + ["/usr/bin/xdg-dbus-proxy", "--fd=3", busAddress, socket, "--filter", "--talk=\(Self.name)"])
        .map {
          Array($0.utf8)
        }, environment: desktop.environment(busAddress: busAddress), descriptor3: .pipe)
    // descriptor3 is the child's writing end of a pipe; the proxy also stops when it closes.
    let ready = try proxy.descriptor3?.read(upTo: 1) ?? []
    proxy.signal(SIGTERM)
    _ = proxy.wait()
    guard ready == [UInt8(ascii: "x")] else { throw BenchError("xdg-dbus-proxy did not start") }
  }
}
