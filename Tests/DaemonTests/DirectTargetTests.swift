import Foundation
import ShareDBus
import SharePOSIX
import ShareTestSupport
import Testing

/// Direct targets from the command line and over D-Bus, published by a service written in
/// Python: by the D-Bus service when it starts and when the service's signal comes, read by
/// `list`, `--target`, `QueryItems` and `Share`.
@Suite(.serialized) struct DirectTargetTests {
  let desktop: TemporaryDesktop
  let bus: PrivateBus

  static let serviceID = "com.example.notes"

  /// Publishes the contacts in `$XDG_STATE_HOME/contacts.json` (written by the test), as
  /// docs/direct-targets.md says any program may; shares by recording the target it was given.
  static let program = """
    #!/usr/bin/python3
    import json, os, sys
    state = os.environ["XDG_STATE_HOME"]
    if os.environ.get("XDG_SHARE_PUBLISH_TARGETS") == "1":
        with open(os.path.join(state, "publishes"), "a") as f: f.write("1\\n")
        contacts = json.load(open(os.path.join(state, "contacts.json")))
        folder = os.path.join(state, "xdg-share", "targets")
        os.makedirs(folder, exist_ok=True)
        temporary = os.path.join(folder, ".notes.json")
        with open(temporary, "w") as f: json.dump({"targets": contacts}, f)
        os.replace(temporary, os.path.join(folder, os.environ["XDG_SHARE_SERVICE_ID"] + ".json"))
        sys.exit(0)
    request = json.load(sys.stdin)
    with open(os.path.join(state, "runs.jsonl"), "a") as f: f.write(json.dumps(request.get("target")) + "\\n")
    print(json.dumps({"complete": {}}), flush=True)
    """

  /// The contacts the program publishes, as JSON.
  static let jana = #"{"id": "jana", "title": "Jana", "subtitle": "Signal", "icon": "avatar-default"}"#
  static let club = #"{"id": "club", "title": "Climbing club", "contentTypes": ["public.image"]}"#

  init() throws {
    desktop = try TemporaryDesktop()
    bus = try desktop.startBus()
    try writeContacts([Self.jana, Self.club])
    try BundleFixture(
      id: Self.serviceID, name: "Notes",
      ruleXML: BundleFixture.activationDictionary([
        ("SupportsFileWithMaxCount", "<integer>5</integer>"), ("SupportsText", "<true/>"),
      ]),
      extraXML: """
        <key>XDGShareTargetSignals</key>
        <array><string>type='signal',interface='com.example.Notes',member='ContactsChanged'</string></array>
        """,
      program: Self.program
    ).write(into: desktop.userExtensions)
  }

  /// The service's `XDG_STATE_HOME`: its container's, where it runs sandboxed.
  var serviceState: String { desktop.containerState(of: Self.serviceID) }

  func writeContacts(_ contacts: [String]) throws {
    try FileManager.default.createDirectory(atPath: serviceState, withIntermediateDirectories: true)
    try ("[" + contacts.joined(separator: ",") + "]").write(
      toFile: "\(serviceState)/contacts.json", atomically: true, encoding: .utf8)
  }

  var targetsFile: String { "\(desktop.root)/state/xdg-share/targets/\(Self.serviceID).json" }

  var runs: [String] {
    ((try? String(contentsOfFile: "\(serviceState)/runs.jsonl", encoding: .utf8)) ?? "")
      .split(separator: "\n").map(String.init)
  }

  /// The targets of the service in a `QueryItems` answer, by id.
  func queriedTargets(_ client: BusConnection, _ items: [[(String, DBusValue)]]) throws -> [String] {
    let reply = try call(
      client, "QueryItems", [.array(elementSignature: "a{sv}", items.map { .vardict($0) }), .vardict([])])
    guard case .array(_, let services)? = reply.arguments().first else { return [] }
    for service in services {
      let entries = service.vardictEntries ?? []
      guard entries.first(where: { $0.key == "id" })?.value == .string(Self.serviceID) else { continue }
      guard case .array(_, let targets)? = entries.first(where: { $0.key == "targets" })?.value else {
        return []
      }
      return targets.compactMap { $0.vardictEntries?.first { $0.key == "id" }?.value.stringValue }
    }
    return []
  }

  @Test func publishedAtStartListedSharedToAndRefreshedBySignal() throws {
    let daemon = try desktop.startDaemon()
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    try client.addMatch("type='signal',interface='org.xdgshare.Share1',member='ServicesChanged'")
    // The D-Bus service runs the program once at start: the targets appear, and the answers change.
    #expect(client.waitForMessage(timeout: 10) { $0.member == "ServicesChanged" } != nil)
    #expect(FileManager.default.fileExists(atPath: targetsFile))

    let png = try desktop.writeFile(named: Array("photo.png".utf8), contents: tinyPNG)
    let notes = try desktop.writeFile(named: Array("notes.txt".utf8), contents: Array("hi".utf8))
    // Filtered by what is shared: the club takes images only.
    #expect(try queriedTargets(client, [[("path", .bytes(png))]]) == ["jana", "club"])
    #expect(try queriedTargets(client, [[("path", .bytes(notes))]]) == ["jana"])
    // Types never seen: the same service takes each, but not the same targets (replies are kept
    // by what they list, and that is the targets too).
    for (type, expected) in [
      ("image/x-never-1", ["jana", "club"]), ("application/x-never-2", ["jana"]),
      ("image/x-never-3", ["jana", "club"]),
    ] {
      #expect(
        try queriedTargets(client, [[("path", .bytes(png)), ("mime-type", .string(type))]]) == expected)
    }

    // The command line lists them too, as JSON.
    let listed = try Tool.run(["list", "--json", "--", "photo.png"], on: desktop)
    let services = try #require(
      JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]])
    let notesService = try #require(services.first { $0["id"] as? String == Self.serviceID })
    let targets = try #require(notesService["targets"] as? [[String: Any]])
    #expect(targets.map { $0["id"] as? String } == ["jana", "club"])
    #expect(targets[0]["subtitle"] as? String == "Signal")
    #expect(targets[0]["icon"] as? String == "avatar-default")

    // Shared to a target: the service runs once, with it, from the command line and over D-Bus.
    #expect(
      try Tool.run(["--service", Self.serviceID, "--target", "jana", "notes.txt"], on: desktop).status == 0)
    #expect(runs == [#"{"id": "jana", "subtitle": "Signal", "title": "Jana"}"#])
    let history = try Tool.run(["history", "--json"], on: desktop).standardOutput
    #expect(history.contains(#""target" : {"#))
    // Named alone, the target finds its service.
    #expect(try Tool.run(["--target", "club", "photo.png"], on: desktop).status == 0)
    #expect(runs.last == #"{"id": "club", "title": "Climbing club"}"#)
    // A target that does not take the items, or that is not there.
    let refused = try Tool.run(["--service", Self.serviceID, "--target", "club", "notes.txt"], on: desktop)
    #expect(refused.status == 7)
    #expect(refused.standardError == "xdg-share: Climbing club (Notes) takes only public.image\n")
    let missing = try Tool.run(["--service", Self.serviceID, "--target", "jnaa", "notes.txt"], on: desktop)
    #expect(missing.status == 6)
    #expect(
      missing.standardError
        == "xdg-share: com.example.notes has no direct target 'jnaa'; did you mean 'jana'?\n")

    try client.addMatch("type='signal',interface='org.xdgshare.Request1'")
    let handle = try call(
      client, "Share",
      [
        .string(Self.serviceID), .array(elementSignature: "a{sv}", [.vardict([("path", .bytes(png))])]),
        .vardict([("target", .string("club"))]),
      ])
    guard case .objectPath(let path)? = handle.arguments().first else {
      Issue.record("no handle")
      return
    }
    #expect(client.waitForMessage(timeout: 10) { $0.member == "Response" && $0.path == path } != nil)
    #expect(runs.count == 3 && runs.last == #"{"id": "club", "title": "Climbing club"}"#)
    #expect(
      throws: DBusFailure(
        name: "org.xdgshare.Share1.Error.NoSuchService",
        message: "com.example.notes has no direct target 'nope'")
    ) {
      _ = try call(
        client, "Share",
        [
          .string(Self.serviceID), .array(elementSignature: "a{sv}", [.vardict([("path", .bytes(png))])]),
          .vardict([("target", .string("nope"))]),
        ])
    }

    // The service's signal: the program publishes again, and the answers follow.
    try writeContacts([Self.club])
    let signal = DBusMessage.signal(
      path: "/com/example/Notes", interface: "com.example.Notes", member: "ContactsChanged")
    client.send(signal)
    client.flush()
    #expect(client.waitForMessage(timeout: 10) { $0.member == "ServicesChanged" } != nil)
    #expect(try queriedTargets(client, [[("path", .bytes(png))]]) == ["club"])
    // A burst of signals is one run more (two, should one come during the run), not one each.
    func publishes() -> Int {
      ((try? String(contentsOfFile: "\(serviceState)/publishes", encoding: .utf8)) ?? "").count / 2
    }
    let clock = try installClock(daemon: daemon)
    let before = publishes()
    for _ in 0..<5 { client.send(signal) }
    client.flush()
    #expect(Self.wait { publishes() > before })
    // That no more runs come is shown by the clock, not waited out.
    #expect(clock.publishingIsOver(client: client) { publishes() })
    #expect(publishes() - before <= 2)
  }

  /// Waits, up to `seconds`, until `condition` holds; whether it does.
  static func wait(seconds: Double = 10, until condition: () -> Bool) -> Bool {
    let deadline = MonotonicClock.now + seconds
    while !condition() {
      guard MonotonicClock.now < deadline else { return false }
      usleep(10_000)
    }
    return true
  }

  /// A second publishing service, whose runs tell when the D-Bus service has started every run
  /// due before them; installed once the service runs, and returned once its first run has come.
  func installClock(daemon: ChildProcess) throws -> Clock {
    let staged = try BundleFixture(
      id: "com.example.clock", name: "Clock",
      ruleXML: BundleFixture.activationDictionary([("SupportsText", "<true/>")]),
      extraXML: """
        <key>XDGShareTargetSignals</key>
        <array><string>type='signal',interface='com.example.Clock',member='Tick'</string></array>
        """,
      program: """
        #!/usr/bin/python3
        import os
        with open(os.path.join(os.environ["XDG_STATE_HOME"], "ticks"), "a") as f: f.write("1\\n")
        """
    ).write(into: desktop.files)
    // Whole at once, as an installer moves a bundle in.
    try FileManager.default.moveItem(
      atPath: staged, toPath: "\(desktop.userExtensions)/com.example.clock.shareext")
    let clock = Clock(daemon: daemon, ticksFile: "\(desktop.containerState(of: "com.example.clock"))/ticks")
    // The service runs a new publisher once, after it has added its signal's rule to the bus.
    #expect(Self.wait { clock.ticks > 0 })
    return clock
  }

  /// The clock: a publisher of its own signal, run by the D-Bus service as every publisher is.
  ///
  /// The service runs a publisher `settle` seconds after a signal for it is noted, or after the
  /// run going on ends; runs of one service never overlap, and every run due is started in the
  /// same turn of the service's loop. So when no run of any service goes on (the service has no
  /// child: each run has ended and been reaped) and the clock's signal is sent, every run due
  /// then is due no later than the clock's, and has started by the time the clock's has. If none
  /// did, none was due, and none can come until a signal comes.
  struct Clock {
    let daemon: ChildProcess
    let ticksFile: String

    static let tick = DBusMessage.signal(
      path: "/com/example/Clock", interface: "com.example.Clock", member: "Tick")

    var ticks: Int { ((try? String(contentsOfFile: ticksFile, encoding: .utf8)) ?? "").count / 2 }

    /// Whether the runs that `count` counts (a line each run writes when it starts) are over and
    /// no more are due, found within 30 seconds: the clock's signal is sent, once no run goes
    /// on, until no run of those started between two of the clock's.
    func publishingIsOver(client: BusConnection, count: () -> Int) -> Bool {
      let deadline = MonotonicClock.now + 30
      var before: Int?
      while MonotonicClock.now < deadline {
        guard DirectTargetTests.wait(seconds: deadline - MonotonicClock.now, until: { children().isEmpty })
        else { return false }
        let now = count()
        if now == before { return true }
        before = now
        let ticked = ticks
        client.send(Self.tick)
        client.flush()
        guard DirectTargetTests.wait(seconds: deadline - MonotonicClock.now, until: { ticks > ticked }) else {
          return false
        }
      }
      return false
    }

    /// The D-Bus service's child processes, ended and not yet reaped ones among them.
    func children() -> [Int32] {
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
      return entries.compactMap(Int32.init).filter { pid in
        // `pid (name) state ppid …`; the name may hold spaces and parentheses.
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")")
        else { return false }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 && Int32(fields[1]) == daemon.pid
      }
    }
  }

  @Test func suggestionsOffLeaveThemOut() throws {
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/state/xdg-share/targets", withIntermediateDirectories: true)
    try #"{"targets": [\#(Self.jana), \#(Self.club)]}"#.write(
      toFile: targetsFile, atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/config/xdg-share", withIntermediateDirectories: true)
    try "[Services]\nSuggestions=false\n".write(
      toFile: "\(desktop.root)/config/xdg-share/settings.ini", atomically: true, encoding: .utf8)
    try desktop.writeFile(named: Array("photo.png".utf8), contents: tinyPNG)
    let listed = try Tool.run(["list", "--json", "photo.png"], on: desktop)
    #expect(listed.status == 0)
    #expect(!listed.standardOutput.contains("targets"))
  }
}
