import Foundation
import ShareDBus
import SharePOSIX
import ShareTestSupport
import Testing

/// The D-Bus service with its extensions and history in folders whose paths are not UTF-8:
/// bundles in `caf\xe9.shareext` under an `XDG_DATA_HOME` ending in the byte 0xFF.
@Suite(.serialized) struct BytePathDaemonTests {
  let desktop: TemporaryDesktop
  let bus: PrivateBus
  let dataHome: [UInt8]
  let stateHome: [UInt8]
  let extensions: [UInt8]

  static func u8(_ text: String) -> [UInt8] { Array(text.utf8) }

  init() throws {
    desktop = try TemporaryDesktop()
    bus = try desktop.startBus()
    dataHome = Self.u8("\(desktop.root)/data-") + [0xFF]
    stateHome = Self.u8("\(desktop.root)/state-") + [0xFE]
    extensions = dataHome + Self.u8("/xdg-share/extensions")
    try FileSystem.makeDirectories(extensions)
    try FileSystem.makeDirectories(stateHome)
    try install(id: "org.example.cafe", name: "Café", folder: Self.u8("caf") + [0xE9])
  }

  /// Writes a bundle whose program records `XDG_SHARE_BUNDLE_PATH` and completes, into
  /// `extensions/<folder>.shareext`, moved there whole.
  func install(id: String, name: String, folder: [UInt8]) throws {
    let seen = "\(desktop.root)/files/seen-\(id)"
    let staged = try BundleFixture(
      id: id, name: name, ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      program: """
        #!/bin/sh
        cat > /dev/null
        printf '%s' "$XDG_SHARE_BUNDLE_PATH" > '\(seen)'
        echo '{"complete": {}}'
        """, entitlements: [.unconfined]
    ).write(into: desktop.root + "/staging", folder: id)
    try FileSystem.rename(
      Self.u8(staged), to: extensions + [UInt8(ascii: "/")] + folder + Self.u8(".shareext"))
  }

  /// The service's data and state folders, whose names are not UTF-8.
  var bytePaths: [String: [UInt8]] { ["XDG_DATA_HOME": dataHome, "XDG_STATE_HOME": stateHome] }

  func ids(_ reply: DBusMessage) -> [String] {
    guard case .array(_, let services)? = reply.arguments().first else { return [] }
    return services.compactMap { service in
      service.vardictEntries?.first { $0.key == "id" }.flatMap { $0.value.stringValue }
    }
  }

  static func text(_ value: String) -> DBusValue {
    .array(elementSignature: "a{sv}", [.vardict([("text", .string(value))])])
  }

  @Test func listsQueriesAndSharesThroughABundleNotUTF8() throws {
    let daemon = try desktop.startDaemon(environmentBytes: bytePaths)
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    #expect(ids(try call(client, "ListServices", [])) == ["org.example.cafe"])
    #expect(ids(try call(client, "QueryItems", [Self.text("hello"), .vardict([])])) == ["org.example.cafe"])

    try client.addMatch("type='signal',interface='org.xdgshare.Request1'")
    let reply = try call(
      client, "Share",
      [.string("org.example.cafe"), Self.text("hello"), .vardict([("handle_token", .string("bytes"))])])
    guard case .objectPath(let handle)? = reply.arguments().first else {
      Issue.record("Share answered \(reply.arguments())")
      return
    }
    let response = client.waitForMessage(timeout: 10) { $0.member == "Response" && $0.path == handle }
    #expect(response?.arguments().first == .uint32(0))
    let seen = try #require(
      FileManager.default.contents(atPath: "\(desktop.root)/files/seen-org.example.cafe"))
    #expect(Array(seen) == extensions + Self.u8("/caf") + [0xE9] + Self.u8(".shareext"))
    // Recorded in the state folder the environment names, byte for byte.
    let records = FileSystem.entries(ofDirectory: stateHome + Self.u8("/xdg-share/history")) ?? []
    #expect(records.filter { $0.reversed().starts(with: Self.u8(".json").reversed()) }.count == 1)
  }

  @Test func aNewBundleInAFolderNotUTF8IsNoticed() throws {
    let daemon = try desktop.startDaemon(environmentBytes: bytePaths)
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    try client.addMatch("type='signal',interface='org.xdgshare.Share1',member='ServicesChanged'")
    try install(id: "org.example.late", name: "Late", folder: Self.u8("l") + [0xE4] + Self.u8("te"))
    #expect(client.waitForMessage(timeout: 3) { $0.member == "ServicesChanged" } != nil)
    #expect(ids(try call(client, "ListServices", [])) == ["org.example.cafe", "org.example.late"])
  }
}
