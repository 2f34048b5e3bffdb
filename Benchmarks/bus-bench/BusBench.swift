// Longer than 400 lines on purpose: the bench's cases and their floors side by side, so that each
// figure is read next to the floor it is measured against.

import Foundation
import Glibc
import ShareDBus
import ShareFixtures
import SharePOSIX

/// The command line: where the service's binary is, how many calls to time.
struct BenchOptions {
  var binary: String
  /// Timed calls per kind for the one-file round trip.
  var calls = 4000

  static func parse(_ arguments: [String]) -> BenchOptions {
    var binary = ProcessInfo.processInfo.environment["XDG_SHARE_BINARY"] ?? besideThisBinary()
    var calls = 4000
    var rest = arguments.dropFirst()
    while let argument = rest.popFirst() {
      switch argument {
      case "--binary": binary = rest.popFirst() ?? binary
      case "--calls": calls = rest.popFirst().flatMap { Int($0) } ?? calls
      default:
        BusBench.progress("usage: bus-bench [--binary PATH-TO-xdg-share] [--calls N]")
        exit(2)
      }
    }
    return BenchOptions(binary: binary, calls: max(200, calls))
  }

  /// `name` in the folder of this executable (`/proc/self/exe`): `xdg-share` unless told.
  static func besideThisBinary(_ name: String = "xdg-share") -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return "xdg-share" }
    let own = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return (own as NSString).deletingLastPathComponent + "/" + name
  }
}

/// The whole run: the tree, the bus, the service, the figures, the table.
final class BusBench {
  static let services = 200
  static let manyServices = 1000
  static let manyFiles = 1000
  /// The figures for elementary Contractor on this kind of machine.
  static let contractorRatio = (low: 4.0, high: 7.0)
  static let contractorChangeSignal = 0.550
  static let contractorResident = 8.6e6
  static let targetRatio = 1.3

  let options: BenchOptions
  let children = Children()

  init(options: BenchOptions) {
    self.options = options
  }

  /// A line on standard error, at once: what the run is doing.
  static func progress(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  func run() throws {
    let started = MonotonicClock.now
    guard access(options.binary, X_OK) == 0 else {
      throw BenchError(
        "no executable xdg-share at \(options.binary): build it, or pass --binary or XDG_SHARE_BINARY")
    }
    let desktop = try BenchDesktop()
    let children = self.children
    let root = desktop.root
    // Ctrl-C or a failure: the children stop and the tree goes, exactly once, whichever comes first.
    SignalWatcher.watchTermination { signal in
      children.cleanUp(removing: root)
      SignalWatcher.exit(dyingOf: signal)
    }
    // Names `desktop`, so that the tree outlives every measurement.
    defer { children.cleanUp(removing: desktop.root) }

    print("# bus-bench: org.xdgshare.Share over a private bus\n")
    for (key, value) in Machine.describe() { print("\(key): \(value)") }
    print("load average at start: \(Machine.loadAverage)")
    if Machine.oneMinuteLoad >= 1 {
      print(
        "note: other work is running (load ≥ 1): it inflates the medians of short round trips most, which"
          + " flatters QueryItems/Ping; the ratio of the fastest calls is printed in the details for comparison"
      )
    }
    print("service binary: \(options.binary)")
    print("temporary tree: \(desktop.root)\n")

    Self.progress("generating \(Self.services) bundles and \(Self.manyFiles) files")
    try desktop.fillBundles(upTo: Self.services)
    let png = try desktop.writePNG(named: "photo.png")
    let mixed = try desktop.writeMixedFiles(count: Self.manyFiles)
    let bus = try desktop.desktop.startBus()
    children.add(bus)
    let client = try Client(address: bus.address)
    try client.connection.addMatch(
      "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',"
        + "arg0='\(Client.service)'")
    try client.connection.addMatch("type='signal',interface='\(Client.interface)',member='ServicesChanged'")

    // Cold starts first, while nothing else runs.
    Self.progress("cold starts")
    let floor = try processFloor(desktop: desktop)
    let coldStarts = try measureColdStarts(
      desktop: desktop, bus: bus, client: client, runs: 10, expectedServices: Self.services)
    Self.progress("xdg-share list --json against its floor; installed sizes")
    let listStartup = try measureListStartup(png: png)
    let sizes = try measureInstalledSizes(scratch: desktop.root)

    // One long-lived service for the rest.
    let service = try startService(desktop: desktop, bus: bus, client: client).service
    Self.progress("round trips: QueryItems, Ping, GetId")
    let processes = Processes(bus: bus.pid, service: service.pid)
    let oneFile = try measureOneFile(client: client, processes: processes, png: png)
    Self.progress("\(Self.manyFiles) files per call")
    let manyFiles = try measureManyFiles(client: client, processes: processes, paths: mixed)
    let memory200 = try residentMemory(of: service, label: "\(Self.services) bundles")
    let memoryFloor = try measureMemoryFloor(desktop: desktop, bus: bus, client: client, png: png)
    Self.progress("hot reload")
    let changes = try measureChangeSignal(desktop: desktop, client: client, runs: 10)
    service.stop()
    try waitForNameLost(client: client)

    // 1,000 bundles: a fresh service, warmed up, then its memory.
    Self.progress("\(Self.manyServices) bundles")
    try desktop.fillBundles(upTo: Self.manyServices)
    let coldStarts1000 = try measureColdStarts(
      desktop: desktop, bus: bus, client: client, runs: 3, expectedServices: Self.manyServices)
    let service1000 = try startService(desktop: desktop, bus: bus, client: client).service
    let processes1000 = Processes(bus: bus.pid, service: service1000.pid)
    let oneFile1000 = try measureOneFile(
      client: client, processes: processes1000, png: png, callsPerKind: 1000)
    _ = try measureManyFiles(client: client, processes: processes1000, paths: mixed, calls: 5)
    let memory1000 = try residentMemory(of: service1000, label: "\(Self.manyServices) bundles")
    let changes1000 = try measureChangeSignal(desktop: desktop, client: client, runs: 3)
    service1000.stop()

    report(
      oneFile: oneFile, manyFiles: manyFiles, memory200: memory200, memory1000: memory1000,
      memoryFloor: memoryFloor, floor: floor, listStartup: listStartup, sizes: sizes,
      coldStarts: coldStarts, changes: changes, oneFile1000: oneFile1000, coldStarts1000: coldStarts1000,
      changes1000: changes1000)
    print(
      "\ntotal run time: \(Report.fixed(MonotonicClock.now - started, 1)) s; load average at the end: \(Machine.loadAverage)"
    )
  }

  // MARK: Starting the service

  /// Spawns `xdg-share daemon` and waits for `NameOwnerChanged` (subscribed before the spawn),
  /// then for its first answer. Returns the service and both times, from just before the spawn.
  func startService(
    desktop: BenchDesktop, bus: PrivateBus, client: Client
  ) throws -> (service: ServiceProcess, owned: Double, answered: Double, services: Int) {
    client.drain()
    let start = MonotonicClock.now
    let service = try ServiceProcess(
      binary: options.binary, desktop: desktop, busAddress: bus.address, children: children)
    guard
      let (_, owned) = client.waitForSignal(
        timeout: 20,
        where: {
          $0.member == "NameOwnerChanged" && ($0.arguments().dropFirst(2).first?.stringValue ?? "") != ""
        })
    else {
      throw BenchError(
        "xdg-share daemon did not own \(Client.service) within 20 s (running: \(service.isRunning))")
    }
    let services = try client.listServices().count
    let answered = MonotonicClock.now
    return (service, owned - start, answered - start, services)
  }

  func waitForNameLost(client: Client) throws {
    if try !client.nameHasOwner(Client.service) { return }
    guard
      client.waitForSignal(
        timeout: 5,
        where: { $0.member == "NameOwnerChanged" && $0.arguments().dropFirst(2).first?.stringValue == "" })
        != nil
    else { throw BenchError("the stopped service still owns its name") }
  }

  /// The same binary's start and exit without a bus (`xdg-share --version`): the process floor
  /// (loader, Swift runtime, Foundation, GLib) under any cold start.
  func processFloor(desktop: BenchDesktop) throws -> (time: Samples, peakResident: Double) {
    var times: [Double] = []
    for run in 0..<11 {
      let start = MonotonicClock.now
      let child = try ChildProcess.spawn(
        [options.binary, "--version"].map { Array($0.utf8) },
        environment: desktop.environment(busAddress: nil),
        standardInput: .null, standardOutput: .null, standardError: .inherit)
      _ = child.wait()
      if run > 0 { times.append(MonotonicClock.now - start) }
    }
    // The largest resident size of any child waited for so far: only these runs (and
    // `dbus-daemon --version`, smaller) have ended yet.
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    return (Samples(times), Double(usage.ru_maxrss) * 1024)
  }

  struct ColdStarts {
    var owned: Samples
    var answered: Samples
  }

  func measureColdStarts(
    desktop: BenchDesktop, bus: PrivateBus, client: Client, runs: Int, expectedServices: Int
  ) throws -> ColdStarts {
    var owned: [Double] = []
    var answered: [Double] = []
    // One start more than counted: the first fills the page cache.
    for run in 0...runs {
      let started = try startService(desktop: desktop, bus: bus, client: client)
      guard started.services == expectedServices else {
        throw BenchError("ListServices gave \(started.services) services, expected \(expectedServices)")
      }
      if run > 0 {
        owned.append(started.owned)
        answered.append(started.answered)
      }
      started.service.stop()
      try waitForNameLost(client: client)
    }
    return ColdStarts(owned: Samples(owned), answered: Samples(answered))
  }

  // MARK: Round trips

  struct Interleaved {
    var samples: [String: Samples]
    var cpu: [String: CPUPerCall]
    subscript(_ name: String) -> Samples { samples[name]! }
  }

  /// The processes whose CPU time is read around each block.
  struct Processes {
    var bus: Int32
    var service: Int32
  }

  /// Times `messages` in alternating blocks (the order rotating each round) so that drift
  /// (frequency scaling, other load) falls on every kind alike. `make` builds each call before
  /// its clock starts.
  func interleave(
    client: Client, processes: Processes, kinds: [(String, () -> DBusMessage)], warmup: Int, rounds: Int,
    block: Int
  ) throws -> Interleaved {
    for (_, make) in kinds {
      for _ in 0..<warmup { _ = try client.roundTrip(make()) }
    }
    var times: [String: [Double]] = [:]
    var cpu: [String: CPUPerCall] = [:]
    for (name, _) in kinds { times[name] = []; times[name]!.reserveCapacity(rounds * block) }
    for round in 0..<rounds {
      for offset in kinds.indices {
        let (name, make) = kinds[(round + offset) % kinds.count]
        var blockTimes: [Double] = []
        blockTimes.reserveCapacity(block)
        let messages = (0..<block).map { _ in make() }
        let before = (
          CPUTime.thisThread(), CPUTime.process(processes.bus), CPUTime.process(processes.service)
        )
        for message in messages { blockTimes.append(try client.roundTrip(message)) }
        let after = (CPUTime.thisThread(), CPUTime.process(processes.bus), CPUTime.process(processes.service))
        times[name]! += blockTimes
        cpu[name, default: CPUPerCall()].client += after.0 - before.0
        cpu[name, default: CPUPerCall()].bus += after.1 - before.1
        cpu[name, default: CPUPerCall()].service += after.2 - before.2
        cpu[name, default: CPUPerCall()].calls += block
      }
    }
    return Interleaved(
      samples: times.mapValues(Samples.init),
      cpu: cpu.mapValues { total in
        let calls = Double(max(1, total.calls))
        return CPUPerCall(
          client: total.client / calls, bus: total.bus / calls, service: total.service / calls,
          calls: total.calls)
      })
  }

  struct OneFile {
    /// `ping`, `query`, `getid`, `list` (`ListServices`: a cached reply naming every service, no
    /// matching), `ping-reply` (a Ping carrying the query reply's bytes: its transport floor) and
    /// `ping-ids` (a Ping carrying only the accepted identifiers, `as`: the floor of a reply that
    /// lists identifiers alone), `query-ids` (QueryItems asking for `fields: ["id"]`) and
    /// `ping-ids-reply` (a Ping carrying that reply's bytes).
    var result: Interleaved
    var accepted: Int
    var replyBytes: Int
    var idsBytes: Int
    var idsReplyBytes: Int
    subscript(_ name: String) -> Samples { result[name] }
  }

  /// QueryItems for one PNG against Ping to the service and the bus's own GetId.
  func measureOneFile(client: Client, processes: Processes, png: String, callsPerKind: Int? = nil) throws
    -> OneFile
  {
    let reply = try client.connection.call(Client.query(paths: [png]))
    let accepted = Client.serviceIDs(reply).count
    let replyArguments = reply.arguments()
    let idArguments: [DBusValue] = [
      .array(elementSignature: "s", Client.serviceIDs(reply).map(DBusValue.string))
    ]
    let idsReplyArguments = try client.connection.call(Client.query(paths: [png], fields: ["id"])).arguments()
    let calls = callsPerKind ?? options.calls
    let block = 100
    let result = try interleave(
      client: client, processes: processes,
      kinds: [
        ("ping", { Client.ping() }), ("query", { Client.query(paths: [png]) }),
        ("getid", { Client.bus("GetId") }),
        ("list", { Client.call("ListServices") }), ("ping-reply", { Client.ping(payload: replyArguments) }),
        ("ping-ids", { Client.ping(payload: idArguments) }),
        ("query-ids", { Client.query(paths: [png], fields: ["id"]) }),
        ("ping-ids-reply", { Client.ping(payload: idsReplyArguments) }),
      ], warmup: 300, rounds: max(1, calls / block), block: block)
    return OneFile(
      result: result, accepted: accepted, replyBytes: WireSize.body(replyArguments),
      idsBytes: WireSize.body(idArguments), idsReplyBytes: WireSize.body(idsReplyArguments))
  }

  struct ManyFiles {
    var result: Interleaved
    var accepted: Int
    var messageBytes: Int
    var query: Samples { result["query"] }
    var ping: Samples { result["ping"] }
  }

  /// QueryItems for 1,000 files against a Ping carrying the same 1,000 items.
  func measureManyFiles(client: Client, processes: Processes, paths: [String], calls: Int = 40) throws
    -> ManyFiles
  {
    let accepted = try client.queryIDs(paths: paths).count
    let arguments = Client.queryArguments(paths: paths)
    let result = try interleave(
      client: client, processes: processes,
      kinds: [
        ("query", { Client.call("QueryItems", arguments) }), ("ping", { Client.ping(payload: arguments) }),
      ],
      warmup: 3, rounds: max(1, calls / 5), block: 5)
    return ManyFiles(result: result, accepted: accepted, messageBytes: WireSize.body(arguments))
  }

  // MARK: Memory

  struct Memory {
    var label: String
    var memory: ProcessMemory
    var families: [(name: String, bytes: Double)]
    var largest: [(name: String, bytes: Double)]
  }

  /// The resident memory of `memory-floor` (built beside this bench): a Swift program that owns
  /// a name with libdbus, answers Ping and has GIO guess a file's type, without Foundation or
  /// any of xdg-share's modules. Pinged as often as the service was before its memory is read.
  func measureMemoryFloor(desktop: BenchDesktop, bus: PrivateBus, client: Client, png: String) throws
    -> ProcessMemory
  {
    let name = "org.xdgshare.MemoryFloor"
    let binary = BenchOptions.besideThisBinary("memory-floor")
    let floor = try ChildProcess.spawn(
      [binary, png].map { Array($0.utf8) }, environment: desktop.environment(busAddress: bus.address),
      standardInput: .null, standardOutput: .null, standardError: .inherit)
    children.add(floor)
    defer {
      floor.signal(Signal.terminate)
      _ = floor.wait()
      children.remove(floor)
    }
    let deadline = MonotonicClock.now + 10
    while try !client.nameHasOwner(name) {
      guard MonotonicClock.now < deadline else {
        throw BenchError("\(binary) did not own \(name) within 10 s")
      }
      usleep(5_000)
    }
    for _ in 0..<1000 {
      let ping = DBusMessage.methodCall(
        destination: name, path: "/", interface: "org.freedesktop.DBus.Peer", member: "Ping")
      _ = try client.connection.call(ping, timeout: 10)
    }
    guard let memory = ProcessMemory(pid: floor.pid) else { throw BenchError("no /proc entry for \(binary)") }
    return memory
  }

  func residentMemory(of service: ServiceProcess, label: String) throws -> Memory {
    guard let memory = ProcessMemory(pid: service.pid) else {
      throw BenchError("no /proc/\(service.pid)/status")
    }
    return Memory(
      label: label, memory: memory,
      families: ProcessMemory.byFamily(pid: service.pid, binary: options.binary),
      largest: ProcessMemory.largestMappings(pid: service.pid, count: 6))
  }

  // MARK: Hot reload

  /// From an atomic rename of a complete bundle into the extensions folder to `ServicesChanged`;
  /// the new service must then be listed.
  func measureChangeSignal(desktop: BenchDesktop, client: Client, runs: Int) throws -> Samples {
    var times: [Double] = []
    let before = try client.listServices().count
    for run in 0...runs {
      let name = "late\(desktop.bundleCount)-\(run)"
      let staged = try desktop.stageBundle(named: name, index: run)
      let target = "\(desktop.extensions)/\(name).shareext"
      usleep(300_000)  // Let earlier changes settle (the service waits at most 250 ms).
      client.drain()
      let start = MonotonicClock.now
      guard rename(staged, target) == 0 else {
        throw BenchError("rename: \(String(cString: strerror(errno)))")
      }
      guard let (_, received) = client.waitForSignal(timeout: 5, where: { $0.member == "ServicesChanged" })
      else {
        throw BenchError("no ServicesChanged within 5 s of installing \(name)")
      }
      guard try client.listServices().contains("org.bench.late.\(name)") else {
        throw BenchError("ServicesChanged came, but \(name) is not listed")
      }
      if run > 0 { times.append(received - start) }
    }
    let after = try client.listServices().count
    guard after == before + runs + 1 else {
      throw BenchError("listed \(after) services, expected \(before + runs + 1)")
    }
    // Take them out again, so later phases count only generated bundles.
    for run in 0...runs {
      try FileManager.default.removeItem(
        atPath: "\(desktop.extensions)/late\(desktop.bundleCount)-\(run).shareext")
    }
    usleep(400_000)
    client.drain()
    return Samples(times)
  }
}
