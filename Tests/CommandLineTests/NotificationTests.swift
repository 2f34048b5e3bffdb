import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// Started without a terminal (as a file manager starts it), `xdg-share` tells the user through
/// org.freedesktop.Notifications: checked against a notification server of the test's own.
@Suite(.serialized) struct NotificationTests {
  let desktop: TemporaryDesktop
  let server: ChildProcess
  let log: String

  init() throws {
    desktop = try TemporaryDesktop()
    try desktop.startBus()
    log = "\(desktop.root)/notifications.jsonl"
    let script = """
      import dbus, dbus.service, json, sys
      from dbus.mainloop.glib import DBusGMainLoop
      from gi.repository import GLib
      DBusGMainLoop(set_as_default=True)
      class Server(dbus.service.Object):
          count = 0
          @dbus.service.method("org.freedesktop.Notifications", in_signature="susssasa{sv}i", out_signature="u")
          def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
              Server.count += 1
              with open(sys.argv[1], "a") as f:
                  f.write(json.dumps({"app": str(app), "replaces": int(replaces), "icon": str(icon), "summary": str(summary),
                      "body": str(body), "value": int(hints["value"]) if "value" in hints else None}) + "\\n")
              return dbus.UInt32(replaces or Server.count)
      bus = dbus.SessionBus()
      name = dbus.service.BusName("org.freedesktop.Notifications", bus)
      Server(bus, "/org/freedesktop/Notifications")
      print("ready", flush=True)
      GLib.MainLoop().run()
      """
    server = try ChildProcess.spawn(
      ["/usr/bin/python3", "-c", script, log].map { Array($0.utf8) }, environment: desktop.environment,
      standardInput: .null, standardOutput: .pipe, standardError: .inherit)
    _ = try server.standardOutput?.read()  // "ready"
  }

  func notifications() throws -> [[String: Any]] {
    guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
    return try text.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  func plugin(_ id: String, body: String) throws {
    try BundleFixture(
      id: id, name: "Upload",
      ruleXML: BundleFixture.dictionary([
        ("NSExtensionActivationSupportsFileWithMaxCount", "<integer>1</integer>")
      ]),
      program: "#!/usr/bin/python3\nimport json, sys, time\njson.loads(sys.stdin.read())\n" + body
    ).write(into: desktop.userExtensions)
  }

  @Test func refusedSelectionIsNotified() throws {
    defer { server.signal(Signal.terminate); _ = server.wait() }
    try plugin("com.example.upload", body: "print(json.dumps({'complete': {}}))")
    try desktop.writeFile(named: "a.txt", contents: "a")
    try desktop.writeFile(named: "b.txt", contents: "b")
    let result = try Tool.run(["--service", "com.example.upload", "a.txt", "b.txt"], on: desktop)
    #expect(result.status == 7)
    let sent = try notifications()
    #expect(sent.count == 1)
    #expect(sent.first?["summary"] as? String == "Cannot share")
    #expect(
      sent.first?["body"] as? String == "Upload takes one file; it was given 2: a.txt, b.txt")
    #expect(sent.first?["app"] as? String == "xdg-share")
  }

  @Test func returnedLinkAndProgressAreNotified() throws {
    defer { server.signal(Signal.terminate); _ = server.wait() }
    try plugin(
      "com.example.upload",
      body: """
        for i in range(1, 5):
            print(json.dumps({'progress': i / 4, 'message': 'Uploading a & b.txt'}), flush=True)
            time.sleep(0.4)
        print(json.dumps({'complete': {'returningItems': [{'attachments': [{'typeIdentifiers': ['public.url'], 'url': 'https://cloud.example/s/1'}]}]}}))
        """)
    try desktop.writeFile(named: "a.txt", contents: "a")
    let result = try Tool.run(["--service", "com.example.upload", "a.txt"], on: desktop)
    #expect(result.status == 0)
    #expect(result.standardOutput == "https://cloud.example/s/1\n")
    let sent = try notifications()
    let last = try #require(sent.last)
    #expect(last["summary"] as? String == "Shared with Upload")
    #expect(last["body"] as? String == "https://cloud.example/s/1")
    let progress = sent.dropLast()
    #expect(!progress.isEmpty, "long work shows its progress")
    #expect(progress.allSatisfy { ($0["body"] as? String) == "Uploading a &amp; b.txt" })
    let values = progress.compactMap { $0["value"] as? Int }
    #expect(!values.isEmpty && values.allSatisfy { (0...100).contains($0) }, "\(progress)")
    // Progress and outcome update one notification rather than piling up.
    #expect(Set(sent.dropFirst().compactMap { $0["replaces"] as? Int }).count == 1)
  }

  @Test func crashIsNotified() throws {
    defer { server.signal(Signal.terminate); _ = server.wait() }
    try plugin("com.example.upload", body: "sys.exit(3)")
    try desktop.writeFile(named: "a.txt", contents: "a")
    #expect(try Tool.run(["--service", "com.example.upload", "a.txt"], on: desktop).status == 4)
    let sent = try notifications()
    #expect(sent.last?["summary"] as? String == "Sharing with Upload failed")
    #expect(sent.last?["body"] as? String == "it exited with status 3 without finishing the request")
    #expect(sent.last?["icon"] as? String == "dialog-error")
  }
}
