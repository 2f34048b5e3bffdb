import FuzzDBusSupport
import FuzzSupport
import ShareCore
import ShareDBus
import ShareDaemon

/// The items argument of `QueryItems` and `Share` (`aa{sv}`), built from the input as a client
/// could send it: mostly the item keys (path, url, text, mime-type) with values of any type,
/// sometimes anything at all. Decoding must give one item per dictionary or an error, the same
/// after a trip over the wire, and the same read straight from the message (``DBusCursor``) and
/// from its marshalled body (``DBusBodyReader``).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDBusItems(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  var input = FuzzInput(inputBytes(data, size))
  let value = input.int(in: 0...7) == 0 ? randomValue(&input, depth: 0) : items(&input)
  let decoded = Result { () throws(BusError) in try ItemArguments.decode(value, argument: "items") }
  if case .success(let items) = decoded, case .array(_, let dictionaries) = value {
    expect(items.count == dictionaries.count, "\(dictionaries.count) dictionaries gave \(items.count) items")
    for item in items {
      if case .file(let path) = item.item { expect(path.isAbsolute, "a relative path: \(path)") }
    }
  }
  if let again = wireRoundTrip([value]), again.count == 1 {
    expect(same(again[0], value), "items read back differently: \(value) → \(again[0])")
    let redecoded = Result { () throws(BusError) in try ItemArguments.decode(again[0], argument: "items") }
    expect(redecoded == decoded, "the items decode differently after the wire")
    // The service reads the items where they lie in the message: the same items, the same errors.
    let call = DBusMessage.methodCall(destination: nil, path: "/", interface: nil, member: "QueryItems")
    call.append([value])
    if let message = try? DBusMessage.demarshal(call.marshal()) {
      let read = Result { () throws(BusError) in
        try ItemArguments.decode(message.cursor(atArgument: 0), argument: "items")
      }
      expect(read == decoded, "items read from the message differ: \(read) against \(decoded)")
      // And from its marshalled body, where the items are as callers send them.
      let marshalled = Result { () throws(BusError) in
        try ItemArguments.decode(firstArgumentOf: message, argument: "items")
      }
      expect(marshalled == decoded, "items read from the body differ: \(marshalled) against \(decoded)")
    }
  } else {
    expect(false, "items did not come back from the wire: \(value)")
  }
  return 0
}

private let keys = ["path", "url", "text", "mime-type", "path", "url", "text", "mime-type", "x-unknown", ""]

/// `aa{sv}` of up to 8 dictionaries of up to 5 entries, `depth` levels down in a value. The depth
/// counts the array, the dictionary entry and the variant, so that nesting stays within what
/// D-Bus allows (libdbus refuses deeper messages, and the bus never delivers them).
private func items(_ input: inout FuzzInput, depth: Int = 0) -> DBusValue {
  let dictionaries = (0..<input.int(in: 0...8)).map { _ in
    DBusValue.vardict(
      (0..<input.int(in: 0...5)).map { _ in
        let key = input.int(in: 0...15) == 0 ? text(&input, 12) : input.pick(keys)
        return (key, input.bool() ? likelyValue(for: key, &input) : randomValue(&input, depth: depth + 3))
      })
  }
  return .array(elementSignature: "a{sv}", dictionaries)
}

/// The type a key expects, with values near its edge cases. Strings hold no NUL: D-Bus cannot
/// carry one.
private func likelyValue(for key: String, _ input: inout FuzzInput) -> DBusValue {
  switch key {
  case "path":
    var bytes = input.data(maximum: 40)
    if input.bool() { bytes.insert(UInt8(ascii: "/"), at: 0) }
    return .bytes(bytes)
  case "url":
    return .string(
      input.pick(["file://", "https://", "file:///tmp/", "mailto:", "", "a:"]) + text(&input, 30))
  case "mime-type":
    return .string(input.pick(["image/", "text/", "", "a/b/", " "]) + text(&input, 12))
  default:
    return .string(text(&input, 40))
  }
}

/// Any D-Bus value libdbus can send: valid strings (no NUL), valid object paths and signatures,
/// homogeneous arrays.
private func randomValue(_ input: inout FuzzInput, depth: Int) -> DBusValue {
  let kind = depth >= 4 ? input.int(in: 0...12) : input.int(in: 0...17)
  switch kind {
  case 0: return .byte(input.byte())
  case 1: return .boolean(input.bool())
  case 2: return .int16(Int16(truncatingIfNeeded: Int(input.byte()) << 8 | Int(input.byte())))
  case 3: return .uint16(UInt16(input.byte()))
  case 4: return .int32(Int32(Int8(bitPattern: input.byte())))
  case 5: return .uint32(UInt32(input.byte()))
  case 6: return .int64(Int64(Int8(bitPattern: input.byte())) << 40)
  case 7: return .uint64(UInt64(input.byte()) << 56)
  case 8:
    return .double(input.pick([0, -0.0, 1.5, .nan, .infinity, -.infinity, 1e308, .leastNonzeroMagnitude]))
  case 9, 10: return .string(text(&input, 30))
  case 11: return .objectPath(input.pick(["/", "/org/xdgshare/Share", "/a/b_c/D1"]))
  case 12: return .signature(input.pick(["", "s", "a{sv}", "(ii)ay"]))
  case 13: return .bytes(input.data(maximum: 20))
  case 14:
    // An array of one element type: the first element sets it. Bytes travel as `ay`.
    let first = randomValue(&input, depth: depth + 1)
    if case .byte = first { return .bytes(input.data(maximum: 20)) }
    let count = input.int(in: 0...3)
    let elements = [first] + (0..<count).map { _ in like(first, &input) }
    return .array(elementSignature: first.signature, input.bool() ? elements : [])
  case 15: return .structure((0..<input.int(in: 1...3)).map { _ in randomValue(&input, depth: depth + 1) })
  case 16: return .variant(randomValue(&input, depth: depth + 1))
  default: return items(&input, depth: depth)
  }
}

/// Another value of `value`'s type.
private func like(_ value: DBusValue, _ input: inout FuzzInput) -> DBusValue {
  switch value {
  case .string: .string(text(&input, 10))
  case .byte: .byte(input.byte())
  case .bytes: .bytes(input.data(maximum: 10))
  case .variant: .variant(randomValue(&input, depth: 4))
  default: value
  }
}

/// A string D-Bus can carry: no NUL.
private func text(_ input: inout FuzzInput, _ maximum: Int) -> String {
  String(String.UnicodeScalarView(input.string(maximum: maximum).unicodeScalars.filter { $0 != "\0" }))
}
