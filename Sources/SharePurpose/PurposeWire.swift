import FoundationEssentials
import ShareProtocol

/// The wire of KDE Purpose's plugin processes (`src/externalprocess/processjob.cpp`, the same
/// in KDE Frameworks 5.103 and 6): the host sends the job's input once, as its length in decimal
/// ASCII, a newline and that many bytes of CBOR (`QCborValue::fromJsonValue(…).toCbor()`), and
/// reads back JSON objects a line each (`percent`, `output`, `error`, `errorText`) until the
/// process exits.
public enum PurposeWire {
  /// The largest input read: a job's input is a few URLs and strings.
  public static let maximumInput = 16 << 20

  /// A value of the input: what JSON can hold, which is all `fromJsonValue` makes.
  public enum Value: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case bytes([UInt8])
    case array([Value])
    case map([String: Value])

    public var string: String? { if case .string(let string) = self { string } else { nil } }

    /// A string, or the strings of an array (Purpose's `urls` is an array; a hand-written host
    /// may send one string).
    public var strings: [String] {
      switch self {
      case .string(let string): [string]
      case .array(let values): values.compactMap(\.string)
      default: []
      }
    }
  }

  /// Why an input cannot be read, as data.
  public enum InputError: Error, Equatable, Sendable {
    /// The connection ended before the input was whole: how many bytes came.
    case truncated(received: Int)
    /// The first line is not a length.
    case badLength
    case tooLong(Int)
    /// The payload is neither CBOR nor JSON, or not a map: where it went wrong.
    case malformed(offset: Int)

    public var message: String {
      switch self {
      case .truncated(let received): "the job's input ended after \(received) bytes"
      case .badLength: "the job's input does not start with its length"
      case .tooLong(let length): "the job's input is \(length) bytes; at most \(PurposeWire.maximumInput)"
      case .malformed(let offset): "the job's input is not CBOR or JSON (at byte \(offset))"
      }
    }
  }

  /// Reads the input from `read`, which returns the next bytes (empty at the end): the length
  /// line, then exactly as many bytes, decoded. Nothing past them is read.
  public static func readInput(_ read: (Int) throws -> [UInt8]) throws -> [String: Value] {
    var header: [UInt8] = []
    while true {
      let byte = try read(1)
      guard let first = byte.first else { throw InputError.truncated(received: header.count) }
      if first == UInt8(ascii: "\n") { break }
      guard first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"), header.count < 12 else {
        throw InputError.badLength
      }
      header.append(first)
    }
    guard let length = Int(String(decoding: header, as: UTF8.self)) else { throw InputError.badLength }
    guard length <= maximumInput else { throw InputError.tooLong(length) }
    var payload: [UInt8] = []
    payload.reserveCapacity(length)
    while payload.count < length {
      let chunk = try read(length - payload.count)
      guard !chunk.isEmpty else { throw InputError.truncated(received: header.count + 1 + payload.count) }
      payload += chunk
    }
    return try decode(payload)
  }

  /// The input map from its payload: CBOR, as every Purpose release sends, or JSON.
  public static func decode(_ payload: [UInt8]) throws(InputError) -> [String: Value] {
    let value: Value
    if payload.first == UInt8(ascii: "{") {
      guard let json = try? JSONDecoder().decode(JSONValue.self, from: Data(payload)) else {
        throw .malformed(offset: 0)
      }
      value = Value(json)
    } else {
      var reader = CBORReader(bytes: payload)
      value = try reader.read(depth: 0)
      guard reader.offset == payload.count else { throw .malformed(offset: reader.offset) }
    }
    guard case .map(let map) = value else { throw .malformed(offset: 0) }
    return map
  }

  // MARK: Replies

  /// `{"percent":N}`: Purpose takes whole numbers only.
  public static func percent(_ fraction: Double) -> [UInt8] {
    line(Reply(percent: Int(max(0, min(1, fraction)) * 100)))
  }

  /// `{"output":{"url":"…"}}`: the job's result, which the host opens or shows.
  public static func output(url: String) -> [UInt8] {
    line(Reply(output: ["url": url]))
  }

  /// `{"error":N,"errorText":"…"}`.
  public static func error(_ code: ErrorCode, _ text: String) -> [UInt8] {
    line(Reply(error: code.rawValue, errorText: text))
  }

  /// The job errors KDE applications tell apart.
  public enum ErrorCode: Int, Sendable {
    /// `KJob::KilledJobError`, which is also `KIO::ERR_USER_CANCELED`: Dolphin, Gwenview and
    /// Spectacle show nothing for it, as for any cancel.
    case cancelled = 1
    /// `KJob::UserDefinedError`: the host shows the text.
    case failed = 100
  }

  private struct Reply: Encodable {
    var percent: Int?
    var output: [String: String]?
    var error: Int?
    var errorText: String?
  }

  /// One line: the host reads a line only once its newline has come.
  private static func line(_ reply: Reply) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Numbers and strings always encode.
    return Array((try? encoder.encode(reply)) ?? Data("{}".utf8)) + [UInt8(ascii: "\n")]
  }
}

/// RFC 8949's data items, as far as a JSON value turned into CBOR uses them, and the rest read
/// well enough to be refused or skipped: definite and indefinite lengths, tags (their content
/// kept), half, single and double floats.
struct CBORReader {
  let bytes: [UInt8]
  var offset = 0

  /// Nesting past this is refused: no real input comes near it, and a hostile one cannot
  /// exhaust the stack.
  static let maximumDepth = 64

  typealias Value = PurposeWire.Value

  mutating func read(depth: Int) throws(PurposeWire.InputError) -> Value {
    guard depth < Self.maximumDepth else { throw .malformed(offset: offset) }
    let start = offset
    let initial = try byte()
    let major = initial >> 5
    let minor = initial & 0x1F
    switch major {
    case 0: return .integer(try signed(argument(minor), start))
    case 1: return .integer(-1 - (try signed(argument(minor), start)))
    case 2, 3:
      var data: [UInt8] = []
      if minor == 31 {
        while try peek() != 0xFF {
          let chunk = try read(depth: depth + 1)
          guard let part = chunkBytes(chunk, text: major == 3) else { throw .malformed(offset: start) }
          data += part
        }
        offset += 1
      } else {
        data = try take(Int(clamping: try argument(minor)))
      }
      if major == 2 { return .bytes(data) }
      guard let text = String(validating: data, as: UTF8.self) else { throw .malformed(offset: start) }
      return .string(text)
    case 4:
      var values: [Value] = []
      if minor == 31 {
        while try peek() != 0xFF { values.append(try read(depth: depth + 1)) }
        offset += 1
      } else {
        let count = try argument(minor)
        // Each element takes a byte at least: a count past what is left is a lie.
        guard count <= UInt64(bytes.count - offset) else { throw .malformed(offset: start) }
        for _ in 0..<count { values.append(try read(depth: depth + 1)) }
      }
      return .array(values)
    case 5:
      var map: [String: Value] = [:]
      func pair(_ reader: inout CBORReader) throws(PurposeWire.InputError) {
        let keyStart = reader.offset
        guard case .string(let key) = try reader.read(depth: depth + 1) else {
          throw .malformed(offset: keyStart)
        }
        map[key] = try reader.read(depth: depth + 1)
      }
      if minor == 31 {
        while try peek() != 0xFF { try pair(&self) }
        offset += 1
      } else {
        let count = try argument(minor)
        guard count <= UInt64(bytes.count - offset) / 2 else { throw .malformed(offset: start) }
        for _ in 0..<count { try pair(&self) }
      }
      return .map(map)
    case 6:
      _ = try argument(minor)
      return try read(depth: depth + 1)
    default:
      switch minor {
      case 20: return .bool(false)
      case 21: return .bool(true)
      case 22, 23: return .null
      case 25: return .number(Double(Float16(bitPattern: UInt16(try number(2)))))
      case 26: return .number(Double(Float(bitPattern: UInt32(try number(4)))))
      case 27: return .number(Double(bitPattern: try number(8)))
      default: throw .malformed(offset: start)
      }
    }
  }

  private func chunkBytes(_ value: Value, text: Bool) -> [UInt8]? {
    switch value {
    case .bytes(let bytes) where !text: bytes
    case .string(let string) where text: Array(string.utf8)
    default: nil
    }
  }

  private func signed(_ value: UInt64, _ start: Int) throws(PurposeWire.InputError) -> Int64 {
    guard value <= UInt64(Int64.max) else { throw .malformed(offset: start) }
    return Int64(value)
  }

  private mutating func argument(_ minor: UInt8) throws(PurposeWire.InputError) -> UInt64 {
    switch minor {
    case 0..<24: UInt64(minor)
    case 24: try number(1)
    case 25: try number(2)
    case 26: try number(4)
    case 27: try number(8)
    default: throw .malformed(offset: offset - 1)
    }
  }

  private mutating func number(_ count: Int) throws(PurposeWire.InputError) -> UInt64 {
    try take(count).reduce(0) { $0 << 8 | UInt64($1) }
  }

  private mutating func byte() throws(PurposeWire.InputError) -> UInt8 {
    guard offset < bytes.count else { throw .malformed(offset: offset) }
    defer { offset += 1 }
    return bytes[offset]
  }

  private func peek() throws(PurposeWire.InputError) -> UInt8 {
    guard offset < bytes.count else { throw .malformed(offset: offset) }
    return bytes[offset]
  }

  private mutating func take(_ count: Int) throws(PurposeWire.InputError) -> [UInt8] {
    guard count >= 0, count <= bytes.count - offset else { throw .malformed(offset: offset) }
    defer { offset += count }
    return Array(bytes[offset..<offset + count])
  }
}

extension PurposeWire.Value {
  /// A JSON value as the input holds it: a whole number as an integer, as CBOR carries it.
  init(_ json: JSONValue) {
    switch json {
    case .null: self = .null
    case .bool(let bool): self = .bool(bool)
    case .number(let number): self = Int64(exactly: number).map(Self.integer) ?? .number(number)
    case .string(let string): self = .string(string)
    case .array(let values): self = .array(values.map(Self.init))
    case .object(let members): self = .map(members.mapValues(Self.init))
    }
  }
}
