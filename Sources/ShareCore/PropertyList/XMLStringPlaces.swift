/// Where a byte of a `<string>`'s text, as read, is written in an XML property list: the reader
/// resolves entities (`&quot;` is one byte, `&#x1F600;` four) and CDATA sections, so an offset in
/// the string is not one in the file. Worked out again from the text, and only when asked: for
/// the one error that needs it (a predicate's mistake, placed where it is in Info.plist).
enum XMLStringPlaces {
  /// The offset in `text` of the byte at `offset` of the string whose element opens at
  /// `element` (its `<`); `offset` may be the string's length (its end: where the close tag
  /// begins). Nil for anything but a `<string>` with content, or an offset past its end.
  static func offset(of offset: Int, inElementAt element: Int, of text: [UInt8]) -> Int? {
    let open = Array("<string".utf8)
    guard element >= 0, element + open.count < text.count,
      text[element..<element + open.count].elementsEqual(open),
      let close = text[element...].firstIndex(of: UInt8(ascii: ">")), text[close - 1] != UInt8(ascii: "/")
    else { return nil }
    let cdata = Array("<![CDATA[".utf8)
    var cursor = close + 1
    var read = 0
    while cursor < text.count {
      if text[cursor] == UInt8(ascii: "&") {
        // A reference is one unit: an offset inside what it stands for is the reference's.
        guard let end = text[cursor...].prefix(14).firstIndex(of: UInt8(ascii: ";")) else { return nil }
        let length = expansionLength(text[(cursor + 1)..<end])
        if offset < read + length { return cursor }
        read += length
        cursor = end + 1
      } else if text[cursor...].starts(with: cdata) {
        let start = cursor + cdata.count
        guard let end = find(Array("]]>".utf8), in: text, from: start) else { return nil }
        if offset < read + (end - start) { return start + (offset - read) }
        read += end - start
        cursor = end + 3
      } else if text[cursor] == UInt8(ascii: "<") {
        break
      } else {
        if offset == read { return cursor }
        read += 1
        cursor += 1
      }
    }
    return offset == read ? cursor : nil
  }

  /// How many UTF-8 bytes the reference named `name` (between `&` and `;`) stands for.
  private static func expansionLength(_ name: ArraySlice<UInt8>) -> Int {
    guard name.first == UInt8(ascii: "#") else { return 1 }
    let digits = String(decoding: name.dropFirst(), as: UTF8.self)
    let hex = digits.hasPrefix("x")
    guard let value = UInt32(hex ? String(digits.dropFirst()) : digits, radix: hex ? 16 : 10),
      let scalar = Unicode.Scalar(value)
    else { return 1 }
    return UTF8.width(scalar)
  }

  private static func find(_ needle: [UInt8], in text: [UInt8], from start: Int) -> Int? {
    var cursor = start
    while cursor + needle.count <= text.count {
      if text[cursor..<cursor + needle.count].elementsEqual(needle) { return cursor }
      cursor += 1
    }
    return nil
  }
}
