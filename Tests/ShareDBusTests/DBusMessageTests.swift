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

/// `DBusBodyReader` reads a body as the specification lays it out, in either byte order.
@Suite struct DBusBodyReaderTests {
  /// A method call `Q` on `/` with signature `ua{sv}` in big-endian order, written out by hand:
  /// libdbus writes this machine's order, and a peer on another machine may send the other.
  static func bigEndianCall(number: UInt32, key: String, value: String) -> [UInt8] {
    var bytes: [UInt8] = []
    func pad(_ alignment: Int) { while bytes.count % alignment != 0 { bytes.append(0) } }
    func word(_ value: UInt32) {
      pad(4)
      bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
    func string(_ text: String) {
      word(UInt32(text.utf8.count))
      bytes += Array(text.utf8) + [0]
    }
    func signature(_ text: String) { bytes += [UInt8(text.utf8.count)] + Array(text.utf8) + [0] }
    var body: [UInt8] = []
    swap(&bytes, &body)
    // The body first, to know its length; it starts 8-aligned, as it will in the message.
    word(number)
    let lengthAt = bytes.count
    word(0)
    pad(8)
    let start = bytes.count
    pad(8)
    string(key)
    signature("s")
    string(value)
    let length = UInt32(bytes.count - start)
    bytes.replaceSubrange(lengthAt..<lengthAt + 4, with: [0, 0, UInt8(length >> 8), UInt8(length & 0xFF)])
    swap(&bytes, &body)
    bytes = [UInt8(ascii: "B"), 1, 0, 1]
    word(UInt32(body.count))
    word(1)
    word(0)
    let fieldsStart = bytes.count
    for (code, type, text) in [(1, "o", "/"), (3, "s", "Q"), (8, "g", "ua{sv}")] {
      pad(8)
      bytes.append(UInt8(code))
      signature(type)
      if type == "g" { signature(text) } else { string(text) }
    }
    let fieldsLength = UInt32(bytes.count - fieldsStart)
    bytes.replaceSubrange(12..<16, with: [0, 0, UInt8(fieldsLength >> 8), UInt8(fieldsLength & 0xFF)])
    pad(8)
    return bytes + body
  }

  @Test func aBigEndianBodyReadsAsLibdbusReadsIt() throws {
    let message = try DBusMessage.demarshal(
      Self.bigEndianCall(number: 0x0102_0304, key: "mime-type", value: "image/png"))
    #expect(message.arguments() == [.uint32(0x0102_0304), .vardict([("mime-type", .string("image/png"))])])
    var body = try #require(DBusBodyReader(message))
    let number = body.uint32()
    let length = body.uint32()
    let aligned = body.align(8)
    let start = body.offset
    let key = body.string()
    let type = body.string(short: true)
    let value = body.string()
    #expect(number == 0x0102_0304 && aligned)
    #expect(key.map { Array(body.bytes[$0]) } == Array("mime-type".utf8))
    #expect(type.map { Array(body.bytes[$0]) } == Array("s".utf8))
    #expect(value.map { Array(body.bytes[$0]) } == Array("image/png".utf8))
    #expect(length.map { start + $0 } == body.offset)
  }

  @Test func aLittleEndianBodyReadsAsLibdbusReadsIt() throws {
    let message = call([.uint32(7), .string("grüße"), .bytes([1, 2, 3])])
    var body = try #require(DBusBodyReader(message))
    let number = body.uint32()
    let text = body.string()
    let count = body.uint32()
    let bytes = count.flatMap { body.take($0) }
    let past = body.take(1)
    #expect(number == 7)
    #expect(text.map { Array(body.bytes[$0]) } == Array("grüße".utf8))
    #expect(bytes.map { Array(body.bytes[$0]) } == [1, 2, 3])
    #expect(past == nil)
  }
}
