import Foundation
import ShareDBus
import SharePOSIX
import ShareTestSupport
import Testing

/// The service under a hostile client and under load, on a private bus: memory stays where it
/// was, every share ends in exactly one `Response`, and no descriptor or thread is left behind.
/// Figures and commands: docs/reliability.md.
@Suite(.serialized) struct DaemonLoadTests {
  let desktop: TemporaryDesktop
  let bus: PrivateBus

  init() throws {
    desktop = try TemporaryDesktop()
    bus = try desktop.startBus()
    // A plugin that completes at once: the cost of a share is the service's, not the plugin's.
    try BundleFixture(
      id: "org.example.fast", name: "Fast", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      program: "#!/bin/sh\ncat >/dev/null\necho '{\"complete\": {\"returningItems\": []}}'\n"
    ).write(into: desktop.systemExtensions)
  }

  // MARK: A hostile client

  /// Call number `index` of a hostile client: 1,000 items, each with a MIME type never seen
  /// before and a key the service does not know, options with unknown keys and unknown field
  /// names; three calls in four ask `QueryItems`, the fourth a `Share` that is refused (the
  /// service takes one image and one link) after the items are decoded and typed.
  func hostileCall(_ index: Int, file: [UInt8]) -> DBusMessage {
    let items = (0..<1000).map { item -> DBusValue in
      let content: (String, DBusValue) =
        item % 10 == 0 ? ("path", .bytes(file)) : ("text", .string("call \(index) item \(item)"))
      return .vardict([
        content,
        ("mime-type", .string("application/x-hostile-\(index)-\(item)")),
        ("x-later-\(index)-\(item)", .string(String(repeating: "z", count: item % 64))),
      ])
    }
    let options: DBusValue = .vardict([
      ("fields", .array(elementSignature: "s", [.string("name"), .string("later-\(index)")])),
      ("x-option-\(index)", .uint32(UInt32(index))),
    ])
    let array: DBusValue = .array(elementSignature: "a{sv}", items)
    if index % 4 == 3 { return shareMethod("Share", [.string("org.bench.service1"), array, options]) }
    return shareMethod("QueryItems", [array, options])
  }

  /// Kilobytes (KiB) resident: `VmRSS` of /proc/PID/status.
  static func residentKiB(_ pid: Int32) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }

  /// How many calls after the warm-up: `XDG_SHARE_HOSTILE_CALLS`, 200 unless given (the full
  /// check, 10,000 calls, takes minutes: docs/reliability.md).
  static var hostileCalls: Int {
    ProcessInfo.processInfo.environment["XDG_SHARE_HOSTILE_CALLS"].flatMap { Int($0) } ?? 200
  }

  /// Set by `Tests/Scripts/sanitize.sh address`. AddressSanitizer holds freed memory back on
  /// purpose (its quarantine, to catch a use after free), so resident memory grows with every
  /// allocation there and bounds on it are checked in the normal build only.
  static var underAddressSanitizer: Bool {
    ProcessInfo.processInfo.environment["XDG_SHARE_SANITIZER"] == "address"
  }

  @Test func memoryStaysPutUnderAHostileClient() throws {
    for index in 0..<200 { try BundleFixture.generated(index: index).write(into: desktop.userExtensions) }
    let daemon = try desktop.startDaemon()
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    let file = try desktop.writeFile(named: Array("photo.png".utf8), contents: tinyPNG)
    var answered = 0
    var refused = 0
    func send(_ index: Int) throws {
      do {
        _ = try client.call(hostileCall(index, file: file), timeout: 60)
        answered += 1
      } catch  where error.name == "org.xdgshare.Share1.Error.NotAccepted" {
        refused += 1
      }
    }
    let clock = ContinuousClock()
    for index in 0..<100 { try send(index) }
    let warm = Self.residentKiB(daemon.pid)
    let calls = Self.hostileCalls
    let started = clock.now
    for index in 100..<(100 + calls) { try send(index) }
    let elapsed = clock.now - started
    let after = Self.residentKiB(daemon.pid)
    print(
      "hostile client: \(calls) calls in \(elapsed), VmRSS \(warm) KiB after 100 warm-up calls, \(after) KiB after"
    )
    #expect(answered + refused == 100 + calls)
    #expect(refused == (100 + calls) / 4)
    #expect(warm > 0)
    // 2 MB.
    if !Self.underAddressSanitizer {
      #expect((after - warm) * 1024 < 2_000_000, "VmRSS \(warm) KiB → \(after) KiB")
    }
    // And it still answers as before.
    let reply = try client.call(
      shareMethod(
        "QueryItems",
        [.array(elementSignature: "a{sv}", [.vardict([("text", .string("hi"))])]), .vardict([])]))
    guard case .array(_, let services)? = reply.arguments().first else {
      Issue.record("QueryItems answered \(reply.arguments())")
      return
    }
    #expect(services.count > 1)
  }

  // MARK: Load

  /// Descriptors and threads of `pid`: the entries of /proc/PID/fd and /proc/PID/task.
  static func descriptorsAndThreads(_ pid: Int32) -> (descriptors: Int, threads: Int) {
    let files = FileManager.default
    return (
      (try? files.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count ?? -1,
      (try? files.contentsOfDirectory(atPath: "/proc/\(pid)/task"))?.count ?? -1
    )
  }

  /// `clients` connections each send `callsEach` `Share` calls at once, then all wait; returns,
  /// by request path, how many `Response` signals each request got, and the error replies.
  static func shareAtOnce(_ clients: [BusConnection], callsEach: Int, round: Int) -> (
    responses: [String: Int], handles: Set<String>, errors: [String]
  ) {
    for (number, client) in clients.enumerated() {
      for call in 0..<callsEach {
        let text: DBusValue = .vardict([("text", .string("round \(round) client \(number) call \(call)"))])
        client.send(
          shareMethod(
            "Share", [.string("org.example.fast"), .array(elementSignature: "a{sv}", [text]), .vardict([])])
        )
      }
    }
    var responses: [String: Int] = [:]
    var handles: Set<String> = []
    var errors: [String] = []
    let expected = clients.count * callsEach
    let deadline = Date().addingTimeInterval(120)
    var quietSince: Date?
    // Until every call is answered and every request has responded, then half a second more, so
    // that a second Response would be seen.
    while Date() < deadline {
      var got = false
      for client in clients {
        _ = client.readWrite(timeout: 0)
        while let message = client.popMessage() {
          got = true
          switch message.kind {
          case .methodReturn:
            if case .objectPath(let handle)? = message.arguments().first { handles.insert(handle) }
          case .error:
            errors.append("\(message.errorName ?? "")")
          case .signal where message.member == "Response":
            responses[message.path ?? "", default: 0] += 1
          default:
            break
          }
        }
      }
      let done = handles.count + errors.count == expected && responses.count == handles.count
      if !done || got {
        quietSince = nil
      } else if let since = quietSince, Date().timeIntervalSince(since) > 0.5 {
        break
      } else if quietSince == nil {
        quietSince = Date()
      }
      if !got { usleep(2000) }
    }
    return (responses, handles, errors)
  }

  @Test func fiveHundredConcurrentSharesFromFiftyClientsEachRespondOnce() throws {
    let daemon = try desktop.startDaemon()
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let clients = try (0..<50).map { _ in
      let client = try BusConnection.connect(address: bus.address)
      let sender = client.uniqueName.dropFirst().replacingOccurrences(of: ".", with: "_")
      try client.addMatch(
        "type='signal',interface='org.xdgshare.Request1',member='Response',"
          + "path_namespace='/org/xdgshare/Share/request/\(sender)'")
      return client
    }
    // A first round of one share per client: whatever the service keeps for good is there now.
    let warm = Self.shareAtOnce(clients, callsEach: 1, round: 0)
    #expect(warm.errors.isEmpty && warm.handles.count == 50 && warm.responses.count == 50)
    let before = Self.descriptorsAndThreads(daemon.pid)
    let clock = ContinuousClock()
    var resident: [Int] = [Self.residentKiB(daemon.pid)]
    for round in 1...2 {
      let started = clock.now
      let load = Self.shareAtOnce(clients, callsEach: 10, round: round)
      let elapsed = clock.now - started
      #expect(load.errors.isEmpty, "\(Set(load.errors))")
      #expect(load.handles.count == 500)
      #expect(Set(load.responses.keys) == load.handles)
      #expect(load.responses.values.allSatisfy { $0 == 1 })
      // Plugin threads end just after posting their outcome: give them a moment.
      var after = Self.descriptorsAndThreads(daemon.pid)
      let settle = Date().addingTimeInterval(5)
      while after != before, Date() < settle {
        usleep(20_000)
        after = Self.descriptorsAndThreads(daemon.pid)
      }
      #expect(
        after.descriptors == before.descriptors, "descriptors \(before.descriptors) → \(after.descriptors)")
      #expect(after.threads == before.threads, "threads \(before.threads) → \(after.threads)")
      resident.append(Self.residentKiB(daemon.pid))
      print(
        "load round \(round): 500 shares from 50 clients in \(elapsed); descriptors \(before.descriptors) → "
          + "\(after.descriptors), threads \(before.threads) → \(after.threads), VmRSS \(resident) KiB")
    }
    // The second 500 cost no more memory than the first left behind.
    if !Self.underAddressSanitizer {
      #expect((resident[2] - resident[1]) * 1024 < 2_000_000, "VmRSS \(resident) KiB")
    }
  }
}
