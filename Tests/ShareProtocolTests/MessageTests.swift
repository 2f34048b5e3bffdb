import Foundation
import ShareProtocol
import Testing

/// Encodes `value` and decodes it again.
private func roundTrip<T: Codable>(_ value: T) throws -> T {
  try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
}

private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
  try JSONDecoder().decode(type, from: Data(json.utf8))
}

@Suite struct PluginRequestTests {
  static let request = PluginRequest(
    requestId: "1f7a7844-6b98-4ab5-b973-9faa4dabcf40", serviceId: "org.example.upload",
    inputItems: [
      ItemPayload(
        attributedContentText: "Look at this",
        attachments: [
          AttachmentPayload(
            typeIdentifiers: ["public.png", "image/png"], url: "file:///home/u/photo%20one.png",
            path: "/home/u/photo one.png", name: "photo one.png", size: 48213),
          AttachmentPayload(typeIdentifiers: ["public.url"], url: "https://example.org/"),
          AttachmentPayload(typeIdentifiers: ["public.plain-text", "text/plain"], text: "Look at this"),
        ])
    ],
    userInfo: [
      "n": .number(2.5), "flag": .bool(false), "none": .null, "list": .array([.string("ü"), .number(1)]),
      "nested": .object(["k": .string("v")]),
    ])

  @Test func encodesAndDecodesEqual() throws {
    #expect(try roundTrip(Self.request) == Self.request)
    #expect(Self.request.version == PluginRequest.currentVersion)
    #expect(PluginRequest.currentVersion == 1)
  }

  /// The example of `docs/plugin-protocol.md`, as written there.
  @Test func decodesTheDocumentedRequest() throws {
    let json = """
      {
        "version": 1,
        "requestId": "1f7a7844-6b98-4ab5-b973-9faa4dabcf40",
        "serviceId": "org.example.upload",
        "inputItems": [
          {
            "attributedContentText": "Look at this",
            "attachments": [
              {"typeIdentifiers": ["public.png", "image/png"], "url": "file:///home/u/photo%20one.png",
               "path": "/home/u/photo one.png", "name": "photo one.png", "size": 48213},
              {"typeIdentifiers": ["public.url"], "url": "https://example.org/"},
              {"typeIdentifiers": ["public.plain-text", "text/plain"], "text": "Look at this"}
            ]
          }
        ],
        "userInfo": {}
      }
      """
    var expected = Self.request
    expected.userInfo = [:]
    #expect(try decode(PluginRequest.self, json) == expected)
  }

  /// The schema makes `userInfo` and an item's `attachments` optional; unknown fields are ignored.
  @Test func optionalMembersMayBeLeftOut() throws {
    let request = try decode(
      PluginRequest.self,
      #"{"version": 1, "requestId": "r", "serviceId": "s", "inputItems": [{}], "later": true}"#)
    #expect(
      request == PluginRequest(requestId: "r", serviceId: "s", inputItems: [ItemPayload(attachments: [])]))
  }

  @Test func aMissingRequiredMemberIsAnError() {
    #expect(throws: DecodingError.self) {
      try decode(PluginRequest.self, #"{"version": 1, "requestId": "r", "inputItems": []}"#)
    }
  }

  @Test func onlyFileURLsAreFiles() {
    #expect(AttachmentPayload(typeIdentifiers: [], url: "file:///x").isFile)
    #expect(!AttachmentPayload(typeIdentifiers: [], url: "https://x/").isFile)
    #expect(!AttachmentPayload(typeIdentifiers: [], text: "file:///x").isFile)
  }
}

@Suite struct PluginEventTests {
  static let returned = [
    ItemPayload(attachments: [
      AttachmentPayload(typeIdentifiers: ["public.url"], url: "https://cloud.example/s/x")
    ])
  ]

  @Test(arguments: [
    PluginEvent.progress(fraction: 0.42, message: "Uploading photo one.png"),
    .progress(fraction: nil, message: "working"),
    .progress(fraction: 1, message: nil),
    .complete(returningItems: PluginEventTests.returned),
    .complete(returningItems: []),
    .cancel(code: 401, message: "Not signed in"),
    .fail(code: 503, message: "cloud.example is not answering (HTTP 503)"),
    .posted,
  ])
  func encodesAndDecodesEqual(event: PluginEvent) throws {
    #expect(try roundTrip(event) == event)
  }

  /// Each line of `docs/plugin-protocol.md`'s examples.
  @Test func decodesTheDocumentedEvents() throws {
    #expect(
      try decode(PluginEvent.self, #"{"progress": 0.42, "message": "Uploading photo one.png"}"#)
        == .progress(fraction: 0.42, message: "Uploading photo one.png"))
    #expect(
      try decode(
        PluginEvent.self,
        #"{"complete": {"returningItems": [{"attachments": [{"typeIdentifiers": ["public.url"], "url": "https://cloud.example/s/x"}]}]}}"#
      ) == .complete(returningItems: Self.returned))
    #expect(
      try decode(PluginEvent.self, #"{"cancel": {"error": {"code": 401, "message": "Not signed in"}}}"#)
        == .cancel(code: 401, message: "Not signed in"))
    #expect(
      try decode(
        PluginEvent.self,
        #"{"fail": {"error": {"code": 503, "message": "cloud.example is not answering (HTTP 503)"}}}"#)
        == .fail(code: 503, message: "cloud.example is not answering (HTTP 503)"))
    #expect(try decode(PluginEvent.self, #"{"posted": {}}"#) == .posted)
  }

  @Test func shortFormsDecode() throws {
    #expect(try decode(PluginEvent.self, #"{"complete": {}}"#) == .complete(returningItems: []))
    #expect(try decode(PluginEvent.self, #"{"cancel": {}}"#) == .cancel(code: 0, message: ""))
    #expect(
      try decode(PluginEvent.self, #"{"message": "only words"}"#)
        == .progress(fraction: nil, message: "only words"))
  }

  @Test func onlyProgressAndPostedAreNotFinal() {
    #expect(!PluginEvent.progress(fraction: 0.1, message: nil).isFinal)
    #expect(!PluginEvent.posted.isFinal)
    #expect(PluginEvent.fail(code: 1, message: "").isFinal)
    #expect(PluginEvent.complete(returningItems: []).isFinal)
    #expect(PluginEvent.cancel(code: 1, message: "").isFinal)
  }

  @Test(arguments: [
    #"{"progress": 1.5}"#, #"{"progress": -0.1}"#, #"{"other": 1}"#, #"{"progress": "half"}"#,
  ])
  func invalidEventsAreRefused(json: String) {
    #expect(throws: DecodingError.self) { try decode(PluginEvent.self, json) }
  }

  @Test func theProtocolsOwnChecksAreWorded() {
    do {
      _ = try decode(PluginEvent.self, #"{"progress": 2}"#)
      Issue.record("a progress of 2 was accepted")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription == "progress must lie between 0 and 1")
      #expect(CodingPath.describe(context.codingPath) == "'progress'")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }
}

@Suite struct CodingPathTests {
  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
      self.stringValue = "Index \(intValue)"
      self.intValue = intValue
    }
  }

  @Test func keysAndIndexesAsAPersonReadsThem() {
    #expect(CodingPath.describe([]) == "the top level")
    #expect(CodingPath.describe([Key(stringValue: "progress")]) == "'progress'")
    #expect(
      CodingPath.describe([
        Key(stringValue: "inputItems"), Key(intValue: 0), Key(stringValue: "attachments"), Key(intValue: 12),
        Key(stringValue: "url"),
      ]) == "'inputItems[0].attachments[12].url'")
    #expect(CodingPath.describe([Key(intValue: 3)]) == "'[3]'")
  }

  /// The path a decoder reports for a wrong value deep in a request.
  @Test func describesADecodersPath() {
    do {
      _ = try decode(
        PluginRequest.self,
        #"{"version": 1, "requestId": "r", "serviceId": "s", "inputItems": [{"attachments": [{"typeIdentifiers": 5}]}]}"#
      )
      Issue.record("a number was taken for typeIdentifiers")
    } catch DecodingError.typeMismatch(_, let context) {
      #expect(CodingPath.describe(context.codingPath) == "'inputItems[0].attachments[0].typeIdentifiers'")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }
}

@Suite struct ApplicationGroupTests {
  @Test(arguments: ["group.ch.example.hoi", "group.a", "group.a-b.c1"])
  func validNames(name: String) {
    #expect(ApplicationGroup(name)?.identifier == name)
  }

  @Test(arguments: [
    "", "group.", "ch.example.hoi", "group..a", "group.a.", "group.a b", "group.a/b", "group.ü",
    "Group.a", "group." + String(repeating: "a", count: 250),
  ])
  func invalidNames(name: String) {
    #expect(ApplicationGroup(name) == nil)
  }

  @Test func theContainerIsUnderTheDataHome() throws {
    let group = try #require(ApplicationGroup("group.ch.example.hoi"))
    #expect(
      group.containerPath(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"])
        == "/d/xdg-share/groups/group.ch.example.hoi")
    #expect(
      group.containerPath(environment: ["HOME": "/h"])
        == "/h/.local/share/xdg-share/groups/group.ch.example.hoi")
    // A relative XDG_DATA_HOME is ignored, as the specification says.
    #expect(
      group.containerPath(environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"])
        == "/h/.local/share/xdg-share/groups/group.ch.example.hoi")
    #expect(
      group.defaultsPath(environment: ["XDG_DATA_HOME": "/d"])
        == "/d/xdg-share/groups/group.ch.example.hoi/defaults.json")
  }
}

@Suite struct JSONValueTests {
  @Test func everyKindRoundTrips() throws {
    let value = JSONValue.object([
      "null": .null, "true": .bool(true), "n": .number(-3.25), "s": .string("ß\n\"q\""),
      "a": .array([.number(0), .array([]), .object([:])]),
    ])
    #expect(try roundTrip(value) == value)
  }

  @Test func booleansStayBooleans() throws {
    #expect(
      try decode(JSONValue.self, "[true, 1, \"1\", null]")
        == .array([.bool(true), .number(1), .string("1"), .null]))
  }
}

/// The request's `compose` object, as `docs/plugin-protocol.md` and the schema give it.
@Suite struct ComposeRequestTests {
  static let request = PluginRequest(
    requestId: "r", serviceId: "org.example.micro",
    inputItems: [ItemPayload(attributedContentText: "Look at this", attachments: [])],
    compose: ComposePayload(
      contentText: "Look at this",
      configuration: ["visibility": "Followers", "server": "https://dav.example/", "password": "…"]))

  /// The object of the documentation's compose section, as written there.
  @Test func decodesTheDocumentedCompose() throws {
    let json = """
      {"version": 1, "requestId": "r", "serviceId": "org.example.micro",
       "inputItems": [{"attributedContentText": "Look at this", "attachments": []}],
       "compose": {
         "contentText": "Look at this",
         "configuration": {"visibility": "Followers", "server": "https://dav.example/", "password": "…"}
       }}
      """
    #expect(try decode(PluginRequest.self, json) == Self.request)
  }

  /// What the host writes, byte for byte with sorted keys: `compose` is a top-level member.
  @Test func encodesAsTheGoldenLine() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    #expect(
      String(decoding: try encoder.encode(Self.request), as: UTF8.self)
        == #"{"compose":{"configuration":{"password":"…","server":"https://dav.example/","visibility":"Followers"},"#
        + #""contentText":"Look at this"},"inputItems":[{"attachments":[],"attributedContentText":"Look at this"}],"#
        + #""requestId":"r","serviceId":"org.example.micro","userInfo":{},"version":1}"#)
  }

  /// Without a declared sheet there is no `compose` member at all.
  @Test func aRequestWithoutComposeHasNoMember() throws {
    var request = Self.request
    request.compose = nil
    let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(request)) as? [String: Any]
    #expect(object?["compose"] == nil)
    #expect(try roundTrip(request) == request)
  }

  /// The schema's `compose`: an object of a string and an object of strings, the members the
  /// encoder writes.
  @Test func theSchemaDescribesWhatIsWritten() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let schema = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: root.appendingPathComponent("data/plugin-protocol.schema.json")))
        as? [String: Any])
    let definitions = try #require(schema["$defs"] as? [String: Any])
    let request = try #require(definitions["request"] as? [String: Any])
    let compose = try #require((request["properties"] as? [String: Any])?["compose"] as? [String: Any])
    #expect(compose["type"] as? String == "object")
    let properties = try #require(compose["properties"] as? [String: [String: Any]])
    #expect(properties["contentText"]?["type"] as? String == "string")
    #expect(properties["configuration"]?["type"] as? String == "object")
    #expect((properties["configuration"]?["additionalProperties"] as? [String: String]) == ["type": "string"])
    #expect(!((request["required"] as? [String]) ?? []).contains("compose"))
    let written = try #require(
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.request.compose)) as? [String: Any])
    #expect(Set(written.keys) == Set(properties.keys))
  }
}
