// Longer than 400 lines on purpose: one serialized suite whose tests share the helpers that start
// the service on a private bus and call it; a split would need them in a second place.

import Foundation
import ShareDBus
import SharePOSIX
import ShareTestSupport
import Testing

/// `xdg-share daemon` on a private bus, through our own libdbus client and outside clients.
@Suite(.serialized) struct DaemonTests {
  let desktop: TemporaryDesktop
  let bus: PrivateBus

  init() throws {
    desktop = try TemporaryDesktop()
    bus = try desktop.startBus()
    try BundleFixture(
      id: "ch.example.hoi", name: "Hoi",
      ruleXML: BundleFixture.dictionary([
        ("NSExtensionActivationSupportsImageWithMaxCount", "<integer>1</integer>"),
        ("NSExtensionActivationSupportsWebURLWithMaxCount", "<integer>1</integer>"),
      ]), extraXML: "<key>XDGShareDescription</key><string>Send to a friend</string>",
      entitlements: [.unconfined]
    ).write(into: desktop.userExtensions)
    try BundleFixture(
      id: "com.example.echo", name: "Echo", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      program: """
        #!/usr/bin/python3
        import json, os, sys, time
        request = json.loads(sys.stdin.read())
        log = os.path.join(os.environ["XDG_STATE_HOME"], "runs")
        with open(log, "a") as f: f.write(request["requestId"] + "\\n")
        print(json.dumps({"progress": 0.5, "message": "half"}), flush=True)
        if any(a.get("text") == "slow" for a in request["inputItems"][0]["attachments"]):
            time.sleep(30)
        if any(a.get("text") == "no" for a in request["inputItems"][0]["attachments"]):
            print(json.dumps({"cancel": {"error": {"code": 1, "message": "refused"}}}), flush=True)
            sys.exit(0)
        print(json.dumps({"complete": {"returningItems": [{"attachments": [{"typeIdentifiers": ["public.url"], "url": "https://example.org/done"}]}]}}), flush=True)
        """, entitlements: [.unconfined]
    ).write(into: desktop.systemExtensions)
  }

  func ids(_ reply: DBusMessage) -> [String] {
    guard case .array(_, let services)? = reply.arguments().first else { return [] }
    return services.compactMap { service in
      service.vardictEntries?.first { $0.key == "id" }.flatMap { $0.value.stringValue }
    }
  }

  static let noOptions = DBusValue.vardict([])

  static func items(_ items: [[(String, DBusValue)]]) -> DBusValue {
    .array(elementSignature: "a{sv}", items.map { .vardict($0) })
  }

  @Test func listAndQueryAnswerLikeTheCommandLine() throws {
    let daemon = try desktop.startDaemon()
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    let listed = try call(client, "ListServices", [])
    #expect(ids(listed) == ["com.example.echo", "ch.example.hoi"])
    guard case .array(_, let services)? = listed.arguments().first else { return }
    let hoi = services[1].vardictEntries ?? []
    #expect(hoi.first { $0.key == "description" }?.value == .string("Send to a friend"))
    #expect(hoi.first { $0.key == "icon" }?.value == .string("document-send"))

    let png = try desktop.writeFile(named: [0x70, 0xE9, 0x0A, 0x2E, 0x70, 0x6E, 0x67], contents: tinyPNG)
    let text = try desktop.writeFile(named: "notes.txt", contents: "hello")
    let u8 = { (text: String) in Array(text.utf8) }
    let cases: [([[(String, DBusValue)]], [[UInt8]])] = [
      ([[("path", .bytes(png + [0]))]], [u8("--"), png]),
      ([[("path", .bytes(u8(text)))]], [u8("--"), u8(text)]),
      ([[("url", .string("https://example.org/"))]], [u8("--url"), u8("https://example.org/")]),
      ([[("text", .string("hi"))]], [u8("--text"), u8("hi")]),
      (
        [[("path", .bytes(png))], [("url", .string("https://example.org/"))]],
        [u8("--url"), u8("https://example.org/"), u8("--"), png]
      ),
    ]
    for (items, arguments) in cases {
      let overBus = ids(try call(client, "QueryItems", [Self.items(items), Self.noOptions]))
      let cli = try Tool.run([u8("list"), u8("--json")] + arguments, on: desktop)
      #expect(cli.status == 0, "\(cli.standardError)")
      let cliIDs =
        (try JSONSerialization.jsonObject(with: Data(cli.standardOutput.utf8)) as? [[String: Any]])?
        .compactMap { $0["id"] as? String }
      #expect(overBus == cliIDs, "\(items)")
    }
    #expect(
      ids(try call(client, "QueryItems", [Self.items([[("path", .bytes(png))]]), Self.noOptions])) == [
        "com.example.echo", "ch.example.hoi",
      ])
  }

  @Test func queryItemsTrustsAGivenTypeAndDetectsAgainWhenTheFileChanges() throws {
    let daemon = try desktop.startDaemon()
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    let missing = Array((desktop.root + "/no-such-photo").utf8)
    // With a type, QueryItems does not look at the file; without one it must, and cannot.
    #expect(
      ids(
        try call(
          client, "QueryItems",
          [Self.items([[("path", .bytes(missing)), ("mime-type", .string("image/png"))]]), Self.noOptions]))
        == ["com.example.echo", "ch.example.hoi"])
    #expect(throws: DBusFailure.self) {
      _ = try call(client, "QueryItems", [Self.items([[("path", .bytes(missing))]]), Self.noOptions])
    }
    // The same path given once with a type and once without is still looked at.
    #expect(throws: DBusFailure.self) {
      _ = try call(
        client, "QueryItems",
        [
          Self.items([
            [("path", .bytes(missing)), ("mime-type", .string("image/png"))], [("path", .bytes(missing))],
          ]),
          Self.noOptions,
        ])
    }
    // Share still checks every file.
    #expect(throws: DBusFailure.self) {
      _ = try call(
        client, "Share",
        [
          .string("com.example.echo"),
          Self.items([[("path", .bytes(missing)), ("mime-type", .string("image/png"))]]), Self.noOptions,
        ])
    }
    // A name that says nothing: the type comes from the content, and changes with it.
    let unnamed = try desktop.writeFile(named: Array("unnamed".utf8), contents: tinyPNG)
    let query = [Self.items([[("path", .bytes(unnamed))]]), Self.noOptions]
    #expect(ids(try call(client, "QueryItems", query)) == ["com.example.echo", "ch.example.hoi"])
    #expect(ids(try call(client, "QueryItems", query)) == ["com.example.echo", "ch.example.hoi"])
    _ = try desktop.writeFile(named: "unnamed", contents: "plain words, no picture")
    #expect(ids(try call(client, "QueryItems", query)) == ["com.example.echo"])
    try FileManager.default.removeItem(atPath: String(decoding: unnamed, as: UTF8.self))
    #expect(throws: DBusFailure.self) { _ = try call(client, "QueryItems", query) }
  }

  @Test func runsOfOneTypeAreAnsweredByTheirLength() throws {
    // Answers are kept by what rules see, runs of equal attachments counted: five images are not
    // one, and no type a caller makes up (any character but NUL) passes for a run's count.
    let daemon = try desktop.startDaemon()
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    func query(_ types: [String]) throws -> [String] {
      let items = types.enumerated().map { index, type -> [(String, DBusValue)] in
        [("path", .bytes(Array("/nowhere/\(index)".utf8))), ("mime-type", .string(type))]
      }
      return ids(try call(client, "QueryItems", [Self.items(items), Self.noOptions]))
    }
    #expect(try query(Array(repeating: "image/x-a", count: 5)) == ["com.example.echo"])
    #expect(try query(["image/x-a\u{3}5"]) == ["com.example.echo", "ch.example.hoi"])
    #expect(try query(["image/x-a"]) == ["com.example.echo", "ch.example.hoi"])
    #expect(try query(["image/x-a", "image/x-a"]) == ["com.example.echo"])
    #expect(try query(Array(repeating: "image/x-a", count: 5)) == ["com.example.echo"])
  }

  @Test func fieldsCutEachDictionaryDownToTheKeysAskedFor() throws {
    let daemon = try desktop.startDaemon()
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    let text = Self.items([[("text", .string("hi"))]])
    func keys(_ options: DBusValue) throws -> [[String]] {
      guard case .array(_, let services)? = try call(client, "QueryItems", [text, options]).arguments().first
      else { return [] }
      return services.map { ($0.vardictEntries ?? []).map(\.key) }
    }
    let full = try keys(Self.noOptions)
    #expect(!full.isEmpty && full.allSatisfy { $0.starts(with: ["id", "name", "icon"]) })
    // `id` always comes; names the service does not know are left out, not refused.
    let fields: DBusValue = .array(elementSignature: "s", [.string("name"), .string("later-key")])
    #expect(try keys(.vardict([("fields", fields)])) == Array(repeating: ["id", "name"], count: full.count))
    #expect(try keys(.vardict([("fields", .array(elementSignature: "s", []))])) == full.map { _ in ["id"] })
    // The cut replies do not leak into the full one, nor into ListServices.
    #expect(try keys(Self.noOptions) == full)
    #expect(ids(try call(client, "ListServices", [])).count >= full.count)
  }

  @Test func wrongArgumentsGetNamedErrorsAndTheServiceStillAnswers() throws {
    let daemon = try desktop.startDaemon()
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    let cases: [(String, [DBusValue], String, String)] = [
      (
        "QueryItems", [.string("x")], "org.freedesktop.DBus.Error.InvalidArgs",
        "QueryItems: expected arguments (aa{sv} items, a{sv} options), found (s)"
      ),
      (
        "QueryItems", [Self.items([[("text", .int32(3))]]), Self.noOptions],
        "org.freedesktop.DBus.Error.InvalidArgs", "items[0].text: expected type 's', found 'i'"
      ),
      (
        "QueryItems",
        [Self.items([[("text", .string("a")), ("url", .string("https://x/"))]]), Self.noOptions],
        "org.freedesktop.DBus.Error.InvalidArgs",
        "items[0]: expected exactly one of path, fd, url or text, found text and url"
      ),
      (
        "QueryItems", [Self.items([[("text", .string("a"))]]), .vardict([("fields", .string("id"))])],
        "org.freedesktop.DBus.Error.InvalidArgs", "options.fields: expected type 'as', found 's'"
      ),
      (
        "QueryItems", [Self.items([[("url", .string("not a url"))]]), Self.noOptions],
        "org.freedesktop.DBus.Error.InvalidArgs",
        "items[0].url: expected an absolute URL such as https://example.org/, found 'not a url'"
      ),
      (
        "QueryItems", [Self.items([[("bogus", .string("x"))]]), Self.noOptions],
        "org.freedesktop.DBus.Error.InvalidArgs",
        "items[0]: expected exactly one of path, fd, url or text, found none (besides 'bogus')"
      ),
      (
        "QueryItems",
        [Self.items([[("path", .bytes(Array("/nonexistent/gone.png".utf8)))]]), Self.noOptions],
        "org.xdgshare.Share1.Error.Failed", "/nonexistent/gone.png: no such file or directory"
      ),
      (
        "QueryItems", [Self.items([[]]), Self.noOptions], "org.freedesktop.DBus.Error.InvalidArgs",
        "items[0]: expected exactly one of path, fd, url or text, found none"
      ),
      (
        "QueryItems", [Self.items([[("path", .bytes(Array("relative".utf8)))]]), Self.noOptions],
        "org.freedesktop.DBus.Error.InvalidArgs", "items[0].path: expected an absolute path, found 'relative'"
      ),
      (
        "Share", [.string("com.example.nope"), Self.items([[("text", .string("a"))]]), Self.noOptions],
        "org.xdgshare.Share1.Error.NoSuchService", "no share service 'com.example.nope'"
      ),
      (
        "Share", [.string("ch.example.hoi"), Self.items([[("text", .string("a"))]]), Self.noOptions],
        "org.xdgshare.Share1.Error.NotAccepted",
        "ch.example.hoi takes one image and one link; \"a\" is text (public.plain-text)"
      ),
      (
        "Share",
        [
          .string("com.example.echo"), Self.items([[("text", .string("a"))]]),
          .vardict([("handle_token", .string("no/slash"))]),
        ], "org.freedesktop.DBus.Error.InvalidArgs",
        "options.handle_token: expected letters, digits and '_', found 'no/slash'"
      ),
      (
        "Share", [.int32(1)], "org.freedesktop.DBus.Error.InvalidArgs",
        "Share: expected arguments (s service_id, aa{sv} items, a{sv} options), found (i)"
      ),
      ("Nope", [], "org.freedesktop.DBus.Error.UnknownMethod", ""),
    ]
    for (member, arguments, name, message) in cases {
      do {
        _ = try call(client, member, arguments)
        Issue.record("\(member) \(arguments) succeeded")
      } catch let error as DBusFailure {
        #expect(error.name == name)
        if !message.isEmpty { #expect(error.message == message) }
      }
      #expect(ids(try call(client, "ListServices", [])).count == 2, "still answers after \(member)")
    }
  }

  @Test func shareRunsThePluginOnceAndRespondsOnce() throws {
    let daemon = try desktop.startDaemon()
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    let sender = client.uniqueName.dropFirst().replacingOccurrences(of: ".", with: "_")
    let handle = "/org/xdgshare/Share/request/\(sender)/first"
    try client.addMatch("type='signal',interface='org.xdgshare.Request1',path='\(handle)'")
    let reply = try call(
      client, "Share",
      [
        .string("com.example.echo"), Self.items([[("text", .string("hello"))]]),
        .vardict([("handle_token", .string("first"))]),
      ])
    #expect(reply.arguments() == [.objectPath(handle)])
    var progress: [DBusValue] = []
    var responses: [[DBusValue]] = []
    let deadline = Date().addingTimeInterval(10)
    while responses.isEmpty, Date() < deadline {
      guard let signal = client.waitForMessage(timeout: 1, where: { $0.kind == .signal && $0.path == handle })
      else { continue }
      if signal.member == "Progress" { progress = signal.arguments() }
      if signal.member == "Response" { responses.append(signal.arguments()) }
    }
    #expect(progress == [.double(0.5), .string("half")])
    #expect(responses.count == 1)
    #expect(responses.first?.first == .uint32(0))
    let results = responses.first?.last?.vardictEntries ?? []
    guard case .array(_, let returned)? = results.first(where: { $0.key == "returned-items" })?.value else {
      Issue.record("no returned-items")
      return
    }
    #expect(
      returned.first?.vardictEntries?.first { $0.key == "url" }?.value == .string("https://example.org/done"))
    #expect(client.waitForMessage(timeout: 0.5, where: { $0.member == "Response" }) == nil)
    let runs = try String(contentsOfFile: "\(desktop.root)/state/runs", encoding: .utf8)
    #expect(runs.split(separator: "\n").count == 1)
  }

  /// Starts a share whose plugin sleeps after its first progress, and waits for that progress.
  func startSlowShare(_ client: BusConnection) throws -> String {
    try client.addMatch("type='signal',interface='org.xdgshare.Request1'")
    let reply = try call(
      client, "Share",
      [.string("com.example.echo"), Self.items([[("text", .string("slow"))]]), Self.noOptions])
    guard case .objectPath(let handle)? = reply.arguments().first else {
      throw DBusFailure(name: "test", message: "Share answered \(reply.arguments())")
    }
    _ = client.waitForMessage(timeout: 5) { $0.member == "Progress" }
    return handle
  }

  @Test func cancelEndsARequestWithCodeOne() throws {
    let daemon = try desktop.startDaemon()
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    let handle = try startSlowShare(client)
    // Another caller may not cancel it.
    let stranger = try BusConnection.connect(address: bus.address)
    let strangerCancel = DBusMessage.methodCall(
      destination: "org.xdgshare.Share", path: handle, interface: "org.xdgshare.Request1", member: "Cancel")
    #expect(throws: DBusFailure.self) { try stranger.call(strangerCancel) }
    let cancel = DBusMessage.methodCall(
      destination: "org.xdgshare.Share", path: handle, interface: "org.xdgshare.Request1", member: "Cancel")
    _ = try client.call(cancel)
    let response = client.waitForMessage(timeout: 10) { $0.member == "Response" && $0.path == handle }
    #expect(response?.arguments().first == .uint32(1))
  }

  @Test func terminatingTheServiceEndsItsSharesWithAResponse() throws {
    let daemon = try desktop.startDaemon()
    let client = try BusConnection.connect(address: bus.address)
    let handle = try startSlowShare(client)
    daemon.signal(Signal.terminate)
    let response = client.waitForMessage(timeout: 10) { $0.member == "Response" && $0.path == handle }
    #expect(response?.arguments().first == .uint32(1))
    #expect(daemon.wait() == .exited(0))
  }

  @Test func killingTheServiceEndsEverythingItsPluginsStarted() throws {
    // The service killed with SIGKILL sends no Response and ends nothing itself; the guard
    // between it and the plugin ends the plugin's helpers, in whatever session or group.
    let helpers = try StubbornHelpers(records: "\(desktop.root)/helpers")
    defer { helpers.killAll() }
    try BundleFixture(
      id: "com.example.stubborn", name: "Stubborn", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      program: "#!/bin/sh\ncat > /dev/null\n" + helpers.script + "\nexec sleep 60\n",
      entitlements: [.unconfined]
    ).write(into: desktop.userExtensions)
    let daemon = try desktop.startDaemon()
    let client = try BusConnection.connect(address: bus.address)
    _ = try call(
      client, "Share",
      [.string("com.example.stubborn"), Self.items([[("text", .string("a"))]]), Self.noOptions])
    let deadline = Date().addingTimeInterval(10)
    while !helpers.areStarted, Date() < deadline { usleep(20_000) }
    #expect(try helpers.pids().allSatisfy(StubbornHelpers.isRunning))
    daemon.signal(Signal.kill)
    #expect(daemon.wait() == .signalled(Signal.kill))
    #expect(try helpers.running(after: 5) == [], "helpers outlived the service")
  }

  @Test func fiftyConcurrentSharesEachRespondOnce() throws {
    let daemon = try desktop.startDaemon()
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    try client.addMatch("type='signal',interface='org.xdgshare.Request1',member='Response'")
    var handles: Set<String> = []
    for index in 0..<50 {
      let reply = try call(
        client, "Share",
        [.string("com.example.echo"), Self.items([[("text", .string("n\(index)"))]]), Self.noOptions])
      if case .objectPath(let handle)? = reply.arguments().first { handles.insert(handle) }
    }
    #expect(handles.count == 50)
    var responded: [String: Int] = [:]
    let deadline = Date().addingTimeInterval(30)
    while responded.count < 50 || Date() < deadline.addingTimeInterval(-29), Date() < deadline {
      guard let signal = client.waitForMessage(timeout: 0.5, where: { $0.member == "Response" }) else {
        if responded.count == 50 { break }
        continue
      }
      responded[signal.path ?? "", default: 0] += 1
    }
    #expect(Set(responded.keys) == handles)
    #expect(responded.values.allSatisfy { $0 == 1 })
  }

  @Test func newBundleIsVisibleWithinASecond() throws {
    let daemon = try desktop.startDaemon()
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    try client.addMatch("type='signal',interface='org.xdgshare.Share1',member='ServicesChanged'")
    let staging = try BundleFixture(
      id: "com.example.late", name: "Late", ruleXML: BundleFixture.predicate("TRUEPREDICATE")
    )
    .write(into: desktop.root + "/staging")
    let started = Date()
    let install = try Tool.run(["install", staging], on: desktop)
    #expect(install.status == 0)
    let changed = client.waitForMessage(timeout: 2) { $0.member == "ServicesChanged" }
    #expect(changed != nil)
    // Under a sanitizer (Tests/Scripts/sanitize.sh) everything runs several times slower.
    let limit = ProcessInfo.processInfo.environment["XDG_SHARE_SANITIZER"] == nil ? 1.0 : 5.0
    #expect(Date().timeIntervalSince(started) < limit)
    #expect(ids(try call(client, "ListServices", [])).contains("com.example.late"))
    // Removing it is noticed too.
    #expect(try Tool.run(["uninstall", "com.example.late"], on: desktop).status == 0)
    #expect(client.waitForMessage(timeout: 2) { $0.member == "ServicesChanged" } != nil)
    #expect(!ids(try call(client, "ListServices", [])).contains("com.example.late"))
  }

  /// A bundle copied in file by file (the folder, then its program, then its Info.plist) is
  /// listed once complete. Each step is made to end in a reload the test can see: a marker
  /// bundle comes or goes with it, and `ServicesChanged` says the service reloaded after it.
  @Test func aBundleCopiedFileByFileIsSeenWhenComplete() throws {
    let daemon = try desktop.startDaemon()
    defer {
      daemon.signal(Signal.terminate)
      _ = daemon.wait()
    }
    let client = try BusConnection.connect(address: bus.address)
    try client.addMatch("type='signal',interface='org.xdgshare.Share1',member='ServicesChanged'")
    func reloaded() -> Bool { client.waitForMessage(timeout: 10) { $0.member == "ServicesChanged" } != nil }
    let staged = try BundleFixture(
      id: "com.example.slowcopy", name: "Slow", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      entitlements: [.unconfined]
    )
    .write(into: desktop.root + "/staging")
    let marker = BundleFixture(
      id: "com.example.marker", name: "Marker", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      entitlements: [.unconfined])
    let target = desktop.userExtensions + "/slowcopy.shareext"

    // The empty folder is seen first (the marker's arrival shows the reload ran after it)…
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    let markerPath = try marker.write(into: desktop.userExtensions)
    #expect(reloaded())
    #expect(ids(try call(client, "ListServices", [])).contains("com.example.marker"))
    // …then the folder with its program alone (the marker's going shows that reload)…
    try FileManager.default.copyItem(atPath: staged + "/share", toPath: target + "/share")
    try FileManager.default.removeItem(atPath: markerPath)
    #expect(reloaded())
    #expect(!ids(try call(client, "ListServices", [])).contains("com.example.slowcopy"))
    // …and the Info.plist written into the folder last is noticed, since the folder is watched.
    try FileManager.default.copyItem(atPath: staged + "/Info.plist", toPath: target + "/Info.plist")
    #expect(reloaded())
    #expect(ids(try call(client, "ListServices", [])).contains("com.example.slowcopy"))
  }

  @Test func idleExitAndActivationOnDemand() throws {
    let service = """
      [D-BUS Service]
      Name=org.xdgshare.Share
      Exec=\(Tool.path) daemon --idle-timeout 1

      """
    try service.write(
      toFile: "\(bus.servicesDirectory)/org.xdgshare.Share.service", atomically: true, encoding: .utf8)
    let client = try BusConnection.connect(address: bus.address)
    // The first call starts the service by activation.
    #expect(ids(try call(client, "ListServices", [])).count == 2)
    #expect(try ServiceDaemon.owned(on: client))
    // The bus says when the name is released: an idle service exits within its second.
    try client.addMatch(
      "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.xdgshare.Share'")
    let released = client.waitForMessage(timeout: 5) { message in
      message.member == "NameOwnerChanged" && message.arguments().last == .string("")
    }
    #expect(released != nil, "the service exits when idle")
    #expect(ids(try call(client, "ListServices", [])).count == 2, "and comes back on demand")
  }

  @Test func outsideClientsGdbusDbusSendAndPython() throws {
    let daemon = try desktop.startDaemon()
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let gdbus = try CapturedRun.run(
      [
        "gdbus", "call", "--session", "-d", "org.xdgshare.Share", "-o", "/org/xdgshare/Share", "-m",
        "org.xdgshare.Share1.QueryItems", "[{'url': <'https://example.org/'>}]", "{}",
      ].map { Array($0.utf8) },
      environment: desktop.environment)
    #expect(gdbus.status == 0)
    #expect(String(decoding: gdbus.standardOutput, as: UTF8.self).contains("'ch.example.hoi'"))
    let send = try CapturedRun.run(
      [
        "dbus-send", "--session", "--print-reply", "--dest=org.xdgshare.Share", "/org/xdgshare/Share",
        "org.freedesktop.DBus.Properties.Get", "string:org.xdgshare.Share1", "string:Version",
      ].map { Array($0.utf8) },
      environment: desktop.environment)
    #expect(String(decoding: send.standardOutput, as: UTF8.self).contains("uint32 4"))
    let script = """
      import dbus
      bus = dbus.SessionBus()
      share = dbus.Interface(bus.get_object("org.xdgshare.Share", "/org/xdgshare/Share"), "org.xdgshare.Share1")
      print(",".join(str(s["id"]) for s in share.QueryItems([{"text": "hi"}], {})))
      try:
          share.Share("nope", [{"text": "x"}], {})
      except dbus.DBusException as e:
          print(e.get_dbus_name())
      """
    let python = try CapturedRun.run(
      ["/usr/bin/python3", "-c", script].map { Array($0.utf8) }, environment: desktop.environment)
    #expect(
      String(decoding: python.standardOutput, as: UTF8.self)
        == "com.example.echo\norg.xdgshare.Share1.Error.NoSuchService\n",
      "\(String(decoding: python.standardError, as: UTF8.self))")
  }

  @Test func introspectionIsTheInterfaceFile() throws {
    let daemon = try desktop.startDaemon()
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    let message = DBusMessage.methodCall(
      destination: "org.xdgshare.Share", path: "/org/xdgshare/Share",
      interface: "org.freedesktop.DBus.Introspectable",
      member: "Introspect")
    let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "../../data")
    func file(_ name: String) throws -> String {
      try String(contentsOf: data.appendingPathComponent(name), encoding: .utf8)
    }
    #expect(try client.call(message).arguments().first?.stringValue == (try file("org.xdgshare.Share1.xml")))
    // A request object describes what it implements, and the service's object only its own.
    let handle = try startSlowShare(client)
    let ofRequest = DBusMessage.methodCall(
      destination: "org.xdgshare.Share", path: handle, interface: "org.freedesktop.DBus.Introspectable",
      member: "Introspect")
    #expect(
      try client.call(ofRequest).arguments().first?.stringValue == (try file("org.xdgshare.Request1.xml")))
    #expect(!(try file("org.xdgshare.Share1.xml")).contains("<interface name=\"org.xdgshare.Request1\">"))
  }
}
