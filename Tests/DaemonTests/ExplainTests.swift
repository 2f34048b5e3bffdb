import Foundation
import ShareDBus
import SharePOSIX
import ShareTestSupport
import Testing

/// `Explain` on a private bus: the same verdict and the same trace as `xdg-share why --json`,
/// and the words of `NotAccepted` from the same trace.
@Suite(.serialized) struct ExplainTests {
  let desktop: TemporaryDesktop
  let bus: PrivateBus

  init() throws {
    desktop = try TemporaryDesktop()
    bus = try desktop.startBus()
    try BundleFixture(
      id: "com.example.myshare", name: "MyShare",
      ruleXML: BundleFixture.activationDictionary([("SupportsImageWithMaxCount", "<integer>2</integer>")])
    ).write(into: desktop.userExtensions)
  }

  func explain(_ client: BusConnection, _ id: String, _ items: [[(String, DBusValue)]]) throws -> DBusMessage
  {
    try call(
      client, "Explain",
      [.string(id), .array(elementSignature: "a{sv}", items.map { .vardict($0) }), .vardict([])])
  }

  @Test func explainAnswersAsWhyDoes() throws {
    let daemon = try desktop.startDaemon()
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    let notes = try desktop.writeFile(named: Array("notes\n.txt".utf8), contents: Array("some notes".utf8))

    let reply = try explain(
      client, "com.example.myshare", [[("path", .bytes(notes))], [("text", .string("hi"))]])
    #expect(reply.signature == "ba{sv}")
    let arguments = reply.arguments()
    #expect(arguments.first == .boolean(false))
    let trace = try #require(arguments.last.map(Self.plain) as? [String: Any])
    #expect(
      trace["message"] as? String
        == "MyShare takes up to 2 images; notes\\n.txt is a text document (public.plain-text); \"hi\" is text (public.plain-text)"
    )

    let why = try Tool.run(
      [
        Array("why".utf8), Array("--json".utf8), Array("com.example.myshare".utf8), Array("--text".utf8),
        Array("hi".utf8), Array("--".utf8), notes,
      ],
      on: desktop)
    #expect(why.status == 7)
    var fromWhy = try #require(
      JSONSerialization.jsonObject(with: Data(why.standardOutput.utf8)) as? [String: Any])
    var fromBus = trace
    // The command line names the items in the order given: the text first there.
    fromWhy["items"] = nil
    fromBus["items"] = nil
    fromWhy["message"] = nil
    fromBus["message"] = nil
    fromWhy["clauses"] = nil
    fromBus["clauses"] = nil
    #expect(Self.same(fromWhy, fromBus), "\(fromWhy)\n\(fromBus)")
    let items = try #require(trace["items"] as? [[String: Any]])
    #expect(items.map { $0["kind"] as? String } == ["file", "text"])
    #expect(items[0]["foundBy"] as? String == "name")
    #expect(
      items[0]["typeIdentifiers"] as? [String] == [
        "public.plain-text", "text/plain", "application/octet-stream",
      ])

    // Accepted: true, and no message.
    let png = try desktop.writeFile(named: Array("a.png".utf8), contents: tinyPNG)
    let accepted = try explain(client, "com.example.myshare", [[("path", .bytes(png))]])
    #expect(accepted.arguments().first == .boolean(true))
    let acceptedTrace = try #require(accepted.arguments().last.map(Self.plain) as? [String: Any])
    #expect(acceptedTrace["message"] == nil)
    #expect(acceptedTrace["accepted"] as? Bool == true)

    // Sharing the refused items fails with the same words.
    let share = shareMethod(
      "Share",
      [
        .string("com.example.myshare"),
        .array(elementSignature: "a{sv}", [.vardict([("path", .bytes(notes))])]),
        .vardict([]),
      ])
    #expect(
      throws: DBusFailure(
        name: "org.xdgshare.Share1.Error.NotAccepted",
        message:
          "com.example.myshare takes up to 2 images; notes\\n.txt is a text document (public.plain-text)")
    ) { _ = try client.call(share, timeout: 10) }
  }

  @Test func anUnknownServiceIsNoSuchService() throws {
    let daemon = try desktop.startDaemon()
    defer { daemon.signal(Signal.terminate); _ = daemon.wait() }
    let client = try BusConnection.connect(address: bus.address)
    #expect(
      throws: DBusFailure(
        name: "org.xdgshare.Share1.Error.NoSuchService", message: "no share service 'com.example.nope'")
    ) { _ = try explain(client, "com.example.nope", [[("text", .string("hi"))]]) }
    let version = DBusMessage.methodCall(
      destination: "org.xdgshare.Share", path: "/org/xdgshare/Share",
      interface: "org.freedesktop.DBus.Properties",
      member: "Get")
    version.append([.string("org.xdgshare.Share1"), .string("Version")])
    #expect(try client.call(version, timeout: 10).arguments().first == .variant(.uint32(4)))
  }

  /// A D-Bus value as the JSON parser gives the same data.
  static func plain(_ value: DBusValue) -> Any {
    switch value {
    case .boolean(let bool): bool
    case .string(let string): string
    case .int64(let integer): Int(integer)
    case .variant(let inner): plain(inner)
    case .array(_, let elements): elements.map(plain)
    case .dictionary:
      Dictionary(uniqueKeysWithValues: (value.vardictEntries ?? []).map { ($0.key, plain($0.value)) })
    default: "\(value)"
    }
  }

  static func same(_ a: Any, _ b: Any) -> Bool {
    switch (a, b) {
    case (let a as [String: Any], let b as [String: Any]):
      a.keys.sorted() == b.keys.sorted() && a.keys.allSatisfy { same(a[$0]!, b[$0]!) }
    case (let a as [Any], let b as [Any]): a.count == b.count && zip(a, b).allSatisfy(same)
    case (let a as String, let b as String): a == b
    case (let a as Bool, let b as Bool): a == b
    case (let a as Int, let b as Int): a == b
    default: false
    }
  }
}
