/// Reads XML, binary (`bplist00`) and old-style (OpenStep, `.strings`) property lists into
/// ``PropertyListValue``, with the standard library alone. Every failure is a
/// ``PropertyListError`` carrying its position; nothing in the input can crash it or make it
/// recurse: nesting is followed with explicit stacks, bounded at ``maximumDepth``.
public enum PropertyListReader {
  /// Arrays and dictionaries nest at most this deep, as in CoreFoundation.
  public static let maximumDepth = 512

  /// Reads a property list in any of the three formats, told apart as CoreFoundation does: a
  /// `bplist` header is binary, text whose first character is `<` is XML, other text is old-style.
  public static func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListDocument {
    if bytes.starts(with: Array("bplist".utf8)) {
      var parser = BinaryPropertyListParser(bytes)
      return PropertyListDocument(value: try parser.parse(), format: .binary)
    }
    let text = try TextDecoding.utf8(bytes)
    var index = 0
    while index < text.count, TextDecoding.isXMLSpace(text[index]) { index += 1 }
    if index < text.count, text[index] == UInt8(ascii: "<") {
      var parser = XMLPropertyListParser(text)
      return PropertyListDocument(value: try parser.parse(), format: .xml, recorded: parser.positions)
    }
    var parser = OldStylePropertyListParser(text)
    return PropertyListDocument(value: try parser.parse(), format: .openStep, positions: parser.positions)
  }
}

/// Text property lists to UTF-8, as CoreFoundation guesses their encoding: a byte-order mark
/// (UTF-8, UTF-16, UTF-32), UTF-16 without one when a leading byte is zero, then the XML
/// declaration's `encoding`, UTF-8 by default.
enum TextDecoding {
  static func utf8(_ bytes: [UInt8]) throws(PropertyListError) -> [UInt8] {
    let start = PropertyListError.Location.text(TextPosition(line: 1, column: 1))
    guard !bytes.isEmpty else { throw PropertyListError(.empty, at: start) }
    if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return try utf32(bytes.dropFirst(4), bigEndian: true) }
    if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
      return try utf32(bytes.dropFirst(4), bigEndian: false)
    }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(bytes.dropFirst(3)) }
    if bytes.starts(with: [0xFE, 0xFF]) { return try utf16(bytes.dropFirst(2), bigEndian: true) }
    if bytes.starts(with: [0xFF, 0xFE]) { return try utf16(bytes.dropFirst(2), bigEndian: false) }
    if bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 {
      return try utf16(bytes[...], bigEndian: bytes[0] == 0)
    }
    guard let name = declaredEncoding(bytes) else { return bytes }
    switch name.lowercased() {
    case "utf-8", "utf8", "us-ascii", "ascii": return bytes
    case "iso-8859-1", "iso_8859-1", "latin1", "iso-latin-1":
      var out: [UInt8] = []
      out.reserveCapacity(bytes.count)
      for byte in bytes {
        if byte < 0x80 { out.append(byte) } else { out += [0xC0 | byte >> 6, 0x80 | byte & 0x3F] }
      }
      return out
    default: throw PropertyListError(.unsupportedEncoding(name), at: start)
    }
  }

  /// The `encoding="…"` of a leading `<?xml …?>`, when there is one.
  static func declaredEncoding(_ bytes: [UInt8]) -> String? {
    guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
    let end = bytes.firstIndex(of: UInt8(ascii: ">")) ?? bytes.endIndex
    let declaration = bytes[..<end]
    let key = Array("encoding=".utf8)
    var index = declaration.startIndex
    while index + key.count < declaration.endIndex {
      if declaration[index..<index + key.count].elementsEqual(key) {
        let quote = declaration[index + key.count]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        let valueStart = index + key.count + 1
        guard let valueEnd = declaration[valueStart...].firstIndex(of: quote) else { return nil }
        return String(decoding: declaration[valueStart..<valueEnd], as: UTF8.self)
      }
      index += 1
    }
    return nil
  }

  static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) throws(PropertyListError) -> [UInt8] {
    var units: [UInt16] = []
    units.reserveCapacity(bytes.count / 2)
    var index = bytes.startIndex
    while index + 1 < bytes.endIndex {
      let (high, low) = bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
      units.append(UInt16(high) << 8 | UInt16(low))
      index += 2
    }
    let text = try transcoded(units, from: UTF16.self, name: "UTF-16")
    guard index == bytes.endIndex else { throw invalid("UTF-16", after: text) }
    return text
  }

  static func utf32(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) throws(PropertyListError) -> [UInt8] {
    var units: [UInt32] = []
    var index = bytes.startIndex
    while index + 3 < bytes.endIndex {
      let group = bytes[index..<index + 4].map(UInt32.init)
      units.append(
        bigEndian
          ? group[0] << 24 | group[1] << 16 | group[2] << 8 | group[3]
          : group[3] << 24 | group[2] << 16 | group[1] << 8 | group[0])
      index += 4
    }
    let text = try transcoded(units, from: UTF32.self, name: "UTF-32")
    guard index == bytes.endIndex else { throw invalid("UTF-32", after: text) }
    return text
  }

  private static func transcoded<Codec: UnicodeCodec>(
    _ units: [Codec.CodeUnit], from codec: Codec.Type, name: String
  ) throws(PropertyListError) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(units.count)
    let failed = transcode(units.makeIterator(), from: codec, to: UTF8.self, stoppingOnError: true) {
      out.append($0)
    }
    guard !failed else { throw invalid(name, after: out) }
    return out
  }

  /// The error for bad text, placed after what could be decoded.
  private static func invalid(_ name: String, after text: [UInt8]) -> PropertyListError {
    PropertyListError(
      .invalidText(encoding: name), at: .text(LineTable(text).position(of: text.count, in: text)))
  }

  /// XML's white space.
  static func isXMLSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}

/// Line starts of a UTF-8 text, to turn byte offsets into lines and columns without counting
/// from the top each time.
struct LineTable {
  private var starts: [Int] = [0]

  init(_ text: [UInt8]) {
    var index = 0
    while index < text.count {
      let byte = text[index]
      index += 1
      if byte == 0x0D, index < text.count, text[index] == 0x0A { index += 1 }
      if byte == 0x0A || byte == 0x0D { starts.append(index) }
    }
  }

  /// The position of the byte at `offset`: its line, and its column counted in characters.
  func position(of offset: Int, in text: [UInt8]) -> TextPosition {
    var low = 0
    var high = starts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    var column = 1
    var index = starts[low]
    let end = min(offset, text.count)
    while index < end {
      if text[index] & 0xC0 != 0x80 { column += 1 }
      index += 1
    }
    return TextPosition(line: low + 1, column: column)
  }
}
