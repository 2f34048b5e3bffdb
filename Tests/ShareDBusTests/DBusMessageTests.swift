import ShareDBus
import Testing

/// A method call carrying `values`.
private func call(_ values: [DBusValue] = []) -> DBusMessage {
  let message = DBusMessage.methodCall(
    destination: "org.example.Test", path: "/org/example/Test", interface: "org.example.Test1", member: "Echo"
  )
  message.append(values)
  return message
}

/// Every case of `DBusValue`, alone and in the containers the service uses.
let everyValue: [DBusValue] = [
  .byte(0), .byte(255),
  .boolean(true), .boolean(false),
  .int16(.min), .uint16(.max),
  .int32(-42), .uint32(.max),
  .int64(.min), .int64(.max), .uint64(.max),
  .double(3.25), .double(-1e300), .double(.infinity),
  .string(""), .string("plain"), .string("grüße ☕ 👩\u{200D}💻 日本"), .string("two\nlines\ttab"),
  .objectPath("/"), .objectPath("/org/xdgshare/Share"),
  .signature("a{sv}"),
  .bytes([]), .bytes([0x00, 0x2F, 0xFF, 0xE9, 0x0A]),
  .array(elementSignature: "s", []), .array(elementSignature: "s", [.string("a"), .string("ü")]),
  .array(elementSignature: "u", [.uint32(1), .uint32(2)]),
  .vardict([]),
  .vardict([
    ("name", .string("Hoi")), ("size", .uint64(48213)), ("path", .bytes(Array("/tmp/a b".utf8) + [0xFF])),
    ("ok", .boolean(true)),
  ]),
  .dictionary(keySignature: "u", valueSignature: "s", [.init(.uint32(7), .string("seven"))]),
  // `aa{sv}`: a list of services, as ListServices answers.
  .array(
    elementSignature: "a{sv}",
    [.vardict([("id", .string("ch.example.hoi"))]), .vardict([]), .vardict([("n", .int32(2))])]),
  .array(elementSignature: "a{sv}", []),
  .array(elementSignature: "ay", [.bytes([1, 2]), .bytes([])]),
  .structure([.string("x"), .int32(1), .vardict([("k", .double(0.5))])]),
  .array(elementSignature: "(su)", [.structure([.string("a"), .uint32(1)])]),
  .variant(.string("inside")),
  .variant(.variant(.variant(.int64(-1)))),
  .variant(.array(elementSignature: "a{sv}", [.vardict([("deep", .variant(.bytes([9])))])])),
]

@Suite struct DBusMessageTests {
  @Test(arguments: everyValue)
  func aValueReadsBackEqual(value: DBusValue) {
    let message = call([value])
    #expect(message.arguments() == [value])
    #expect(message.signature == value.signature)
  }

  @Test func allValuesInOneMessageReadBackInOrder() {
    let message = call(everyValue)
    #expect(message.arguments() == everyValue)
    #expect(message.signature == everyValue.map(\.signature).joined())
  }

  /// `ay` is bytes, however it was built.
  @Test func anArrayOfBytesReadsBackAsBytes() {
    #expect(call([.array(elementSignature: "y", [.byte(1), .byte(2)])]).arguments() == [.bytes([1, 2])])
  }

  @Test func signaturesOfTheContainers() {
    #expect(DBusValue.vardict([]).signature == "a{sv}")
    #expect(DBusValue.array(elementSignature: "a{sv}", []).signature == "aa{sv}")
    #expect(DBusValue.structure([.string(""), .bytes([])]).signature == "(say)")
    #expect(DBusValue.variant(.int32(1)).signature == "v")
  }

  @Test func vardictEntriesUnwrapTheVariants() {
    let value = DBusValue.vardict([("a", .int32(1)), ("b", .string("two"))])
    #expect(value.vardictEntries?.map(\.key) == ["a", "b"])
    #expect(value.vardictEntries?.map(\.value) == [.int32(1), .string("two")])
    #expect(DBusValue.dictionary(keySignature: "s", valueSignature: "s", []).vardictEntries == nil)
    #expect(DBusValue.string("s").stringValue == "s")
    #expect(DBusValue.objectPath("/").stringValue == nil)
  }

  @Test func theHeaderIsKept() {
    let message = call()
    #expect(message.kind == .methodCall)
    #expect(message.destination == "org.example.Test")
    #expect(message.path == "/org/example/Test")
    #expect(message.interface == "org.example.Test1")
    #expect(message.member == "Echo")
    #expect(message.arguments() == [])
    #expect(message.signature == "")

    // Replies need a call that travelled (libdbus aborts on a serial of 0): see PrivateBusTests.

    let signal = DBusMessage.signal(path: "/a", interface: "org.example.S", member: "Changed")
    #expect(signal.kind == .signal)
    #expect(signal.destination == nil)
  }

  @Test func theMarshalledSizeGrowsWithTheContent() {
    let empty = call().marshalledSize
    let small = call([.string("x")]).marshalledSize
    let large = call([.string(String(repeating: "x", count: 1000))]).marshalledSize
    let bytes = call([.bytes([UInt8](repeating: 7, count: 4096))]).marshalledSize
    #expect(empty > 0)
    #expect(small > empty)
    #expect(large >= small + 999)
    #expect(bytes >= empty + 4096)
  }

  @Test func appendingAddsToTheArguments() {
    let message = call([.int32(1)])
    message.append([.string("two")])
    #expect(message.arguments() == [.int32(1), .string("two")])
  }
}

@Suite struct DBusCursorTests {
  @Test(arguments: everyValue)
  func aValueReadsTheSameThroughACursor(value: DBusValue) {
    let message = call([.int32(0), value])
    #expect(message.cursor(atArgument: 1).value() == value)
    #expect(message.cursor(atArgument: 1).signature == value.signature)
  }

  @Test func aCursorStepsThroughTheArgumentsToTheEnd() {
    let message = call([.string("a"), .bytes([1, 0, 2]), .objectPath("/o"), .int32(3)])
    var cursor = message.cursor(atArgument: 0)
    #expect(cursor.kind == .string && cursor.string() == "a" && cursor.bytes() == nil)
    do {
      let moved = cursor.next()
      #expect(moved)
    }
    #expect(cursor.kind == .array && cursor.bytes() == [1, 0, 2] && cursor.string() == nil)
    do {
      let moved = cursor.next()
      #expect(moved)
    }
    #expect(cursor.kind == .objectPath && cursor.string() == "/o")
    do {
      let moved = cursor.next()
      #expect(moved)
    }
    #expect(cursor.kind == .int32 && cursor.string() == nil)
    do {
      let moved = cursor.next()
      #expect(!moved)
    }
    #expect(cursor.kind == .end && cursor.value() == nil)
    #expect(message.cursor(atArgument: 9).kind == .end)
    #expect(call().cursor(atArgument: 0).kind == .end)
  }

  @Test func aCursorEntersContainers() {
    let message = call([.vardict([("path", .bytes([47, 97])), ("n", .uint32(2))])])
    let dictionary = message.cursor(atArgument: 0)
    #expect(dictionary.kind == .array)
    var entry = dictionary.contents()
    #expect(entry.kind == .dictionaryEntry)
    var pair = entry.contents()
    #expect(pair.string() == "path")
    pair.next()
    #expect(pair.kind == .variant && pair.contents().bytes() == [47, 97])
    do {
      let moved = entry.next()
      #expect(moved)
    }
    #expect(entry.contents().value() == .string("n"))
    do {
      let moved = entry.next()
      #expect(!moved)
    }
    #expect(call([.array(elementSignature: "s", [])]).cursor(atArgument: 0).contents().kind == .end)
  }
}
