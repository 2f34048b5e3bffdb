/// Binary property lists, `bplist00`: a header, objects, an offset table and a 32-byte trailer.
/// Checked as CoreFoundation checks them (the trailer's sizes must add up to the file, every
/// offset must lie in the object table, every reference must name an object), and further: an
/// object that contains itself, a count larger than the file and a nesting deeper than
/// ``PropertyListReader/maximumDepth`` are errors, and objects shared many times count each
/// time, up to ``maximumValues``, so a small file cannot stand for an enormous tree.
///
/// Every object is read once (shared objects are reused), and nesting is followed with an
/// explicit stack, so a hostile file can make it neither loop, nor recurse, nor crash.
/// Duplicate keys: the first wins, as CoreFoundation reads binary dictionaries.
struct BinaryPropertyListParser {
  /// The most values a binary property list may stand for.
  static let maximumValues = 1 << 20

  private let bytes: [UInt8]
  private var offsetSize = 0
  private var referenceSize = 0
  private var tableOffset = 0
  private var offsets: [Int] = []

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// What one object is: a finished value, or a container still to be filled.
  private enum Object {
    case value(PropertyListValue)
    case container(isDictionary: Bool, references: [Int])
  }

  /// An array or dictionary being filled.
  private struct Frame {
    var object: Int
    var isDictionary: Bool
    var references: [Int]
    var values: [PropertyListValue] = []
    var weight = 1
  }

  mutating func parse() throws(PropertyListError) -> PropertyListValue {
    let top = try readTrailer()
    var cache: [Int: (value: PropertyListValue, weight: Int)] = [:]
    var onPath = Set<Int>()
    var stack: [Frame] = []
    var pending: Int? = top
    while true {
      var finished: (value: PropertyListValue, weight: Int)?
      if let object = pending {
        pending = nil
        if let known = cache[object] {
          finished = known
        } else {
          guard !onPath.contains(object) else { throw error(.cycle, at: offsets[object]) }
          switch try readObject(object) {
          case .value(let value):
            finished = (value, 1)
            cache[object] = finished
          case .container(let isDictionary, let references):
            guard stack.count < PropertyListReader.maximumDepth else {
              throw error(.tooDeep(limit: PropertyListReader.maximumDepth), at: offsets[object])
            }
            onPath.insert(object)
            stack.append(Frame(object: object, isDictionary: isDictionary, references: references))
          }
        }
      }
      // Hand finished values up, closing every container that is full, until one needs a child.
      while true {
        if let child = finished {
          finished = nil
          guard !stack.isEmpty else { return child.value }
          let last = stack.count - 1
          stack[last].values.append(child.value)
          stack[last].weight += child.weight
          guard stack[last].weight <= Self.maximumValues else {
            throw error(.tooManyValues(limit: Self.maximumValues), at: offsets[stack[last].object])
          }
        }
        guard let frame = stack.last else { throw error(.damagedTrailer, at: 0) }
        if frame.values.count < frame.references.count {
          pending = frame.references[frame.values.count]
          break
        }
        stack.removeLast()
        onPath.remove(frame.object)
        let value = try container(frame)
        cache[frame.object] = (value, frame.weight)
        finished = (value, frame.weight)
      }
    }
  }

  private func container(_ frame: Frame) throws(PropertyListError) -> PropertyListValue {
    guard frame.isDictionary else { return .array(frame.values) }
    let half = frame.values.count / 2
    var entries: [String: PropertyListValue] = [:]
    entries.reserveCapacity(half)
    for index in 0..<half {
      guard case .string(let key) = frame.values[index] else {
        throw error(.nonStringKey, at: offsets[frame.object])
      }
      if entries[key] == nil { entries[key] = frame.values[half + index] }
    }
    return .dictionary(entries)
  }

  // MARK: Trailer

  /// Checks header and trailer, reads the offset table; returns the top object.
  private mutating func readTrailer() throws(PropertyListError) -> Int {
    guard bytes.starts(with: Array("bplist00".utf8)) else { throw error(.damagedTrailer, at: 0) }
    let trailer = bytes.count - 32
    guard trailer >= 10 else { throw error(.damagedTrailer, at: max(0, trailer)) }
    offsetSize = Int(bytes[trailer + 6])
    referenceSize = Int(bytes[trailer + 7])
    let objectCount = unsigned(at: trailer + 8, size: 8)
    let top = unsigned(at: trailer + 16, size: 8)
    let table = unsigned(at: trailer + 24, size: 8)
    guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), objectCount >= 1, top < objectCount,
      table >= 9, table < UInt64(trailer),
      objectCount <= UInt64(trailer - Int(table)) / UInt64(offsetSize),
      Int(table) + Int(objectCount) * offsetSize == trailer,
      referenceSize == 8 || objectCount <= UInt64(1) << (8 * referenceSize) - 1,
      offsetSize == 8 || table <= UInt64(1) << (8 * offsetSize) - 1
    else { throw error(.damagedTrailer, at: trailer) }
    tableOffset = Int(table)
    offsets.reserveCapacity(Int(objectCount))
    for index in 0..<Int(objectCount) {
      let at = tableOffset + index * offsetSize
      let offset = unsigned(at: at, size: offsetSize)
      guard offset >= 8, offset < table else { throw error(.offsetOutOfRange(Int(clamping: offset)), at: at) }
      offsets.append(Int(offset))
    }
    return Int(top)
  }

  // MARK: Objects

  private func readObject(_ object: Int) throws(PropertyListError) -> Object {
    let start = offsets[object]
    let marker = bytes[start]
    let low = Int(marker & 0x0F)
    switch marker >> 4 {
    case 0x0 where marker == 0x08 || marker == 0x09:
      return .value(.boolean(marker == 0x09))
    case 0x1 where low <= 4:
      let size = 1 << low
      try checkExtent(start + 1, size, object: start)
      return .value(.integer(try integer(at: start + 1, size: size, object: start)))
    case 0x2 where low == 2 || low == 3:
      try checkExtent(start + 1, 1 << low, object: start)
      let pattern = unsigned(at: start + 1, size: 1 << low)
      return .value(
        .real(low == 2 ? Double(Float(bitPattern: UInt32(pattern))) : Double(bitPattern: pattern)))
    case 0x3 where marker == 0x33:
      try checkExtent(start + 1, 8, object: start)
      return .value(.date(Double(bitPattern: unsigned(at: start + 1, size: 8))))
    case 0x4, 0x5, 0x6:
      // Counts are at most the size of the object table (see `countAndContent`): no overflow.
      let (count, content) = try countAndContent(marker, at: start)
      let length = marker >> 4 == 0x6 ? count * 2 : count
      try checkExtent(content, length, object: start)
      let slice = bytes[content..<content + length]
      switch marker >> 4 {
      case 0x4: return .value(.data(Array(slice)))
      case 0x5:
        guard slice.allSatisfy({ $0 < 0x80 }) else { throw error(.invalidText(encoding: "ASCII"), at: start) }
        return .value(.string(String(decoding: slice, as: UTF8.self)))
      default:
        guard let utf8 = try? TextDecoding.utf16(slice, bigEndian: true),
          let string = String(validating: utf8, as: UTF8.self)
        else { throw error(.invalidText(encoding: "UTF-16"), at: start) }
        return .value(.string(string))
      }
    case 0xA, 0xD:
      let isDictionary = marker >> 4 == 0xD
      let (count, content) = try countAndContent(marker, at: start)
      let references = isDictionary ? count * 2 : count
      try checkExtent(content, references * referenceSize, object: start)
      var objects: [Int] = []
      objects.reserveCapacity(references)
      for index in 0..<references {
        let at = content + index * referenceSize
        let reference = unsigned(at: at, size: referenceSize)
        guard reference < UInt64(offsets.count) else {
          throw error(.referenceOutOfRange(Int(clamping: reference)), at: at)
        }
        objects.append(Int(reference))
      }
      return .container(isDictionary: isDictionary, references: objects)
    default:
      throw error(.unsupportedObject(marker: marker), at: start)
    }
  }

  /// 1, 2 and 4 bytes are unsigned, 8 signed, 16 a signed 128-bit integer that must fit in 64.
  private func integer(at start: Int, size: Int, object: Int) throws(PropertyListError) -> Int {
    switch size {
    case 1, 2, 4: return Int(unsigned(at: start, size: size))
    case 8: return Int(Int64(bitPattern: unsigned(at: start, size: 8)))
    default:
      let high = unsigned(at: start, size: 8)
      let low = unsigned(at: start + 8, size: 8)
      let fits = (high == 0 && low <= UInt64(Int.max)) || (high == UInt64.max && low > UInt64(Int.max))
      guard fits else {
        let lowDigits = String(low, radix: 16)
        let written =
          high == 0
          ? String(low)
          : "0x" + String(high, radix: 16) + String(repeating: "0", count: 16 - lowDigits.count) + lowDigits
        throw error(.integerOutOfRange(written), at: object)
      }
      return Int(Int64(bitPattern: low))
    }
  }

  /// The element count of a data, string, array or dictionary (the low nibble, or an integer
  /// object after the marker when it is 15), and where the content starts.
  private func countAndContent(_ marker: UInt8, at start: Int) throws(PropertyListError) -> (Int, Int) {
    let nibble = Int(marker & 0x0F)
    guard nibble == 0x0F else { return (nibble, start + 1) }
    try checkExtent(start + 1, 1, object: start)
    let countMarker = bytes[start + 1]
    guard countMarker >> 4 == 0x1, countMarker & 0x0F <= 3 else {
      throw error(.unsupportedObject(marker: countMarker), at: start + 1)
    }
    let size = 1 << Int(countMarker & 0x0F)
    try checkExtent(start + 2, size, object: start)
    let count = unsigned(at: start + 2, size: size)
    // No count can exceed the bytes of the object table.
    guard count <= UInt64(tableOffset) else { throw error(.countTooLarge(Int(clamping: count)), at: start) }
    return (Int(count), start + 2 + size)
  }

  /// Fails unless `length` bytes from `start` lie inside the object table.
  private func checkExtent(_ start: Int, _ length: Int, object: Int) throws(PropertyListError) {
    guard start <= tableOffset, length <= tableOffset - start else {
      throw error(.offsetOutOfRange(object), at: object)
    }
  }

  private func unsigned(at start: Int, size: Int) -> UInt64 {
    var value: UInt64 = 0
    for byte in bytes[start..<start + size] { value = value << 8 | UInt64(byte) }
    return value
  }

  private func error(_ reason: PropertyListError.Reason, at offset: Int) -> PropertyListError {
    PropertyListError(reason, at: .byte(offset))
  }
}
