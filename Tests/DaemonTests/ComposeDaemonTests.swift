import Foundation
import ShareDBus
import SharePOSIX
import ShareTestSupport
import Testing

/// The D-Bus `Share` of a service declaring `XDGShareComposeSheet`: the defaults without a display,
/// the sheet program (a fake one) with one, and `Cancel` while the sheet is open.
@Suite(.serialized) struct ComposeDaemonTests {
  let desktop: TemporaryDesktop
  let bus: PrivateBus

  init() throws {
    desktop = try TemporaryDesktop()
    bus = try desktop.startBus()
    try BundleFixture(
      id: "org.example.micro", name: "Micro", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      extraXML: """
        <key>XDGShareComposeSheet</key><dict><key>ConfigurationItems</key><array>
          <dict><key>Identifier</key><string>visibility</string><key>Title</key><string>Visibility</string>
            <key>Choices</key><array><string>Public</string><string>Followers</string></array></dict>
        </array></dict>
        """,
      program: """
        #!/bin/sh
        cat > "$XDG_STATE_HOME/request.json"
        echo '{"complete": {}}'
        """, entitlements: [.unconfined]
    ).write(into: desktop.userExtensions)
  }

  /// Starts the service with `extra` in its environment and waits until it owns its name.

  /// Calls `Share` with a text and returns the handle, subscribed to its signals.
  func share(_ client: BusConnection) throws -> String {
    try client.addMatch("type='signal',interface='org.xdgshare.Request1'")
    let reply = try call(
      client, "Share",
      [
        .string("org.example.micro"),
        .array(elementSignature: "a{sv}", [.vardict([("text", .string("hi"))])]),
        .vardict([]),
      ])
    guard case .objectPath(let handle)? = reply.arguments().first else {
      throw DBusFailure(name: "test", message: "Share gave no handle")
    }
    return handle
  }

  func fakeSheet(_ body: String) throws -> [String: String] {
    let path = "\(desktop.root)/fake-sheet"
    try "#!/bin/sh\ncat > /dev/null\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    return ["XDG_SHARE_SHEET": path, "DISPLAY": ":99"]
  }

  var requestFile: String { "\(desktop.root)/state/request.json" }

  @Test func withoutADisplayTheDefaultsAreSent() throws {
    let daemon = try desktop.startDaemon()
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    let handle = try share(client)
    let response = client.waitForMessage(timeout: 10) { $0.member == "Response" && $0.path == handle }
    #expect(response?.arguments().first == .uint32(0))
    let request = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: requestFile)))
    let compose = (request as? [String: Any])?["compose"] as? [String: Any]
    #expect(compose?["contentText"] as? String == "hi")
    #expect(compose?["configuration"] as? [String: String] == ["visibility": "Public"])
  }

  @Test func thePostedValuesAreSent() throws {
    let sheet = try fakeSheet(
      #"echo '{"compose": {"contentText": "edited", "configuration": {"visibility": "Followers"}}}' >&3"#)
    let daemon = try desktop.startDaemon(environment: sheet)
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    let handle = try share(client)
    let response = client.waitForMessage(timeout: 10) { $0.member == "Response" && $0.path == handle }
    #expect(response?.arguments().first == .uint32(0))
    let request = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: requestFile)))
    let compose = (request as? [String: Any])?["compose"] as? [String: Any]
    #expect(compose?["contentText"] as? String == "edited")
    #expect(compose?["configuration"] as? [String: String] == ["visibility": "Followers"])
  }

  @Test func cancelInTheSheetOrByTheCallerEndsWithCodeOne() throws {
    let daemon = try desktop.startDaemon(environment: try fakeSheet("exit 3"))
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    let handle = try share(client)
    let response = client.waitForMessage(timeout: 10) { $0.member == "Response" && $0.path == handle }
    #expect(
      response?.arguments() == [
        .uint32(1),
        .vardict([
          ("service", .string("org.example.micro")), ("outcome", .string("cancelled")),
          ("message", .string("cancelled")),
        ]),
      ])
    #expect(!FileManager.default.fileExists(atPath: requestFile))

    // The sheet stays open until the caller cancels the request.
    let open = "\(desktop.root)/sheet-open"
    _ = try fakeSheet("touch '\(open)'\nexec sleep 30")
    let waiting = try share(client)
    let shown = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: open), Date() < shown { usleep(10_000) }
    #expect(FileManager.default.fileExists(atPath: open), "the sheet did not start")
    let cancel = DBusMessage.methodCall(
      destination: "org.xdgshare.Share", path: waiting, interface: "org.xdgshare.Request1", member: "Cancel")
    _ = try client.call(cancel)
    let cancelled = client.waitForMessage(timeout: 10) { $0.member == "Response" && $0.path == waiting }
    #expect(
      cancelled?.arguments() == [
        .uint32(1),
        .vardict([
          ("service", .string("org.example.micro")), ("outcome", .string("cancelled")),
          ("message", .string("cancelled")),
        ]),
      ])
    #expect(!FileManager.default.fileExists(atPath: requestFile))
  }
}
