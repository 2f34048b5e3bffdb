/// XML property lists, read as CoreFoundation reads them: a byte-order mark, the XML declaration,
/// a DOCTYPE, comments and processing instructions around the root; CDATA, the five predefined
/// entities and numeric character references in text; attributes ignored. Stricter in one thing:
/// anything after the root element other than white space, comments and processing instructions
/// is refused (CoreFoundation ignores it). Duplicate keys: the last wins, as in CoreFoundation.
///
/// Nesting is followed with an explicit stack, so no input can overflow the call stack.
struct XMLPropertyListParser {
  private let text: [UInt8]
  private var index = 0
  /// Where each value begins (see ``PropertyListDocument/positions``), in the order met.
  private var records: [ValuePositions.Record] = []

  init(_ text: [UInt8]) {
    self.text = text
  }

  /// Where the values of the text just parsed begin.
  var positions: ValuePositions { ValuePositions(text: text, records: records) }

  /// One open `<plist>`, `<array>` or `<dict>`.
  private struct Container {
    enum Kind { case plist, array, dictionary }
    var kind: Kind
    var start: Int
    /// The record of where it begins (-1 for `<plist>`, which holds the root value).
    var record: Int
    var items: [PropertyListValue] = []
    var entries: [String: PropertyListValue] = [:]
    /// A dictionary's key whose value comes next.
    var key: String?
    var plistValue: PropertyListValue?

    var name: String {
      switch kind {
      case .plist: "plist"
      case .array: "array"
      case .dictionary: "dict"
      }
    }
  }

  /// One tag, `<name …>`, `<name …/>` or `</name>`.
  private struct Tag {
    var name: String
    var isClose: Bool
    var isEmpty: Bool
    var start: Int
  }

  mutating func parse() throws(PropertyListError) -> PropertyListValue {
    try skipMisc(allowDoctype: true)
    guard index < text.count else { throw error(.empty, at: index) }
    let first = try nextOpenTag()
    let value = try parseTree(first)
    try skipMisc(allowDoctype: false)
    guard index == text.count else { throw error(.contentAfterRoot, at: index) }
    return value
  }

  // MARK: Structure

  private mutating func parseTree(_ first: Tag) throws(PropertyListError) -> PropertyListValue {
    var stack: [Container] = []
    var tag = first
    while true {
      // `tag` opens a value: its place in the tree, then the value itself or a new container.
      var component: String?
      if let top = stack.last {
        component = top.kind == .array ? String(top.items.count) : top.key
      }
      if tag.name != "plist" {
        records.append(.init(parent: stack.last?.record ?? -1, component: component, offset: tag.start))
      }
      var finished: PropertyListValue?
      switch tag.name {
      case "plist":
        guard stack.isEmpty else { throw error(.unknownElement("plist"), at: tag.start) }
        guard !tag.isEmpty else { throw error(.emptyPlist, at: tag.start) }
        stack.append(Container(kind: .plist, start: tag.start, record: -1))
      case "dict", "array":
        if tag.isEmpty {
          finished = tag.name == "dict" ? .dictionary([:]) : .array([])
        } else {
          let depth = stack.count { $0.kind != .plist }
          guard depth < PropertyListReader.maximumDepth else {
            throw error(.tooDeep(limit: PropertyListReader.maximumDepth), at: tag.start)
          }
          stack.append(
            Container(
              kind: tag.name == "dict" ? .dictionary : .array, start: tag.start, record: records.count - 1)
          )
        }
      case "string", "key":
        finished = .string(tag.isEmpty ? "" : try readText(of: tag))
      case "true", "false":
        if !tag.isEmpty { try expectCloseTag(tag.name) }
        finished = .boolean(tag.name == "true")
      case "integer", "real", "date", "data":
        guard !tag.isEmpty else { throw error(.emptyElement(tag.name), at: tag.start) }
        finished = try readScalar(of: tag)
      default:
        throw error(.unknownElement(tag.name), at: tag.start)
      }

      // Hand finished values to their containers, closing containers as their close tags come,
      // until the next value opens.
      while true {
        if let value = finished {
          guard !stack.isEmpty else { return value }
          let last = stack.count - 1
          switch stack[last].kind {
          case .plist: stack[last].plistValue = value
          case .array: stack[last].items.append(value)
          case .dictionary:
            stack[last].entries[stack[last].key ?? ""] = value
            stack[last].key = nil
          }
          finished = nil
        }
        guard let top = stack.last else { throw error(.empty, at: index) }
        try skipMisc(allowDoctype: false)
        guard index < text.count else {
          throw error(.unexpectedEnd(inside: .element(top.name)), at: top.start)
        }
        guard text[index] == UInt8(ascii: "<") else { throw error(.unexpectedText(snippet()), at: index) }
        let next = try readTag()
        if next.isClose {
          guard next.name == top.name else {
            throw error(.mismatchedCloseTag(expected: top.name, found: next.name), at: next.start)
          }
          if let key = top.key { throw error(.missingValue(key: key), at: next.start) }
          stack.removeLast()
          switch top.kind {
          case .plist:
            guard let value = top.plistValue else { throw error(.emptyPlist, at: top.start) }
            finished = value
          case .array: finished = .array(top.items)
          case .dictionary: finished = .dictionary(top.entries)
          }
          continue
        }
        if top.kind == .plist, top.plistValue != nil { throw error(.extraValueInPlist, at: next.start) }
        if top.kind == .dictionary, top.key == nil {
          guard next.name == "key" else { throw error(.expectedKey(found: next.name), at: next.start) }
          // A key given again replaces the earlier value (and its positions, in ValuePositions).
          let key = next.isEmpty ? "" : try readText(of: next)
          stack[stack.count - 1].key = key
          continue
        }
        tag = next
        break
      }
    }
  }

  /// Skips white space, comments and processing instructions (and a DOCTYPE before the root).
  private mutating func skipMisc(allowDoctype: Bool) throws(PropertyListError) {
    while true {
      while index < text.count, TextDecoding.isXMLSpace(text[index]) { index += 1 }
      let start = index
      if has("<!--") {
        guard let end = find("-->", from: index + 4) else {
          throw error(.unexpectedEnd(inside: .comment), at: start)
        }
        index = end + 3
      } else if has("<?") {
        guard let end = find("?>", from: index + 2) else {
          throw error(.unexpectedEnd(inside: .processingInstruction), at: start)
        }
        index = end + 2
      } else if allowDoctype, has("<!DOCTYPE") {
        // Up to the `>` that closes it; an internal subset `[…]` may hold `>`s of its own.
        var cursor = index + 9
        while cursor < text.count, text[cursor] != UInt8(ascii: ">"), text[cursor] != UInt8(ascii: "[") {
          cursor += 1
        }
        if cursor < text.count, text[cursor] == UInt8(ascii: "["), let close = find("]", from: cursor) {
          cursor = close + 1
          while cursor < text.count, text[cursor] != UInt8(ascii: ">") { cursor += 1 }
        }
        guard cursor < text.count, text[cursor] == UInt8(ascii: ">") else {
          throw error(.unexpectedEnd(inside: .doctype), at: start)
        }
        index = cursor + 1
      } else {
        return
      }
    }
  }

  /// The tag at the current `<`, which must open an element.
  private mutating func nextOpenTag() throws(PropertyListError) -> Tag {
    guard text[index] == UInt8(ascii: "<") else { throw error(.unexpectedText(snippet()), at: index) }
    let tag = try readTag()
    guard !tag.isClose else { throw error(.unexpectedText(snippet(from: tag.start)), at: tag.start) }
    return tag
  }

  /// Reads the tag at the current `<`. Attributes are skipped, as CoreFoundation skips them.
  private mutating func readTag() throws(PropertyListError) -> Tag {
    let start = index
    if has("<!") { throw error(.malformedTag, at: start) }
    var cursor = index + 1
    let isClose = cursor < text.count && text[cursor] == UInt8(ascii: "/")
    if isClose { cursor += 1 }
    let nameStart = cursor
    guard let end = text[cursor...].firstIndex(of: UInt8(ascii: ">")) else {
      throw error(.unexpectedEnd(inside: .tag), at: start)
    }
    var nameEnd = nameStart
    while nameEnd < end, !TextDecoding.isXMLSpace(text[nameEnd]) { nameEnd += 1 }
    let isEmpty = !isClose && end > nameStart && text[end - 1] == UInt8(ascii: "/")
    if isEmpty, nameEnd == end { nameEnd -= 1 }
    guard nameEnd > nameStart, !isClose || text[nameEnd..<end].allSatisfy(TextDecoding.isXMLSpace) else {
      throw error(.malformedTag, at: start)
    }
    index = end + 1
    return Tag(
      name: String(decoding: text[nameStart..<nameEnd], as: UTF8.self), isClose: isClose, isEmpty: isEmpty,
      start: start)
  }

  private mutating func expectCloseTag(_ name: String) throws(PropertyListError) {
    guard index < text.count else { throw error(.unexpectedEnd(inside: .element(name)), at: index) }
    let start = index
    guard has("</") else { throw error(.mismatchedCloseTag(expected: name, found: nil), at: start) }
    let tag = try readTag()
    guard tag.name == name else {
      throw error(.mismatchedCloseTag(expected: name, found: tag.name), at: start)
    }
  }

  // MARK: Content

  /// The text of a `<string>`, `<key>` or `<real>`: characters, CDATA sections and references.
  private mutating func readText(of tag: Tag) throws(PropertyListError) -> String {
    var bytes: [UInt8] = []
    let contentStart = index
    while true {
      var runEnd = index
      while runEnd < text.count, text[runEnd] != UInt8(ascii: "<"), text[runEnd] != UInt8(ascii: "&") {
        runEnd += 1
      }
      // Nearly every text is one run up to its closing tag: its string is made from the run
      // itself, without collecting the bytes first.
      if index == contentStart, runEnd < text.count, text[runEnd] == UInt8(ascii: "<"),
        !has("<![CDATA[", at: runEnd)
      {
        index = runEnd
        try expectCloseTag(tag.name)
        let string = text[contentStart..<runEnd].withUnsafeBufferPointer {
          String(validating: $0, as: UTF8.self)
        }
        guard let string else { throw error(.invalidText(encoding: "UTF-8"), at: contentStart) }
        return string
      }
      bytes += text[index..<runEnd]
      index = runEnd
      guard index < text.count else { throw error(.unexpectedEnd(inside: .element(tag.name)), at: tag.start) }
      if text[index] == UInt8(ascii: "&") {
        try readReference(into: &bytes)
      } else if has("<![CDATA[") {
        guard let end = find("]]>", from: index + 9) else {
          throw error(.unexpectedEnd(inside: .cdata), at: index)
        }
        bytes += text[(index + 9)..<end]
        index = end + 3
      } else {
        break
      }
    }
    try expectCloseTag(tag.name)
    guard let string = String(validating: bytes, as: UTF8.self) else {
      throw error(.invalidText(encoding: "UTF-8"), at: contentStart)
    }
    return string
  }

  /// `&lt;` `&gt;` `&amp;` `&apos;` `&quot;` `&#10;` `&#x41;`, appended as UTF-8.
  private mutating func readReference(into bytes: inout [UInt8]) throws(PropertyListError) {
    let start = index
    var end = index + 1
    while end < text.count, end - start <= 12, text[end] != UInt8(ascii: ";") { end += 1 }
    guard end < text.count else { throw error(.unexpectedEnd(inside: .entity), at: start) }
    let name = String(decoding: text[(start + 1)..<end], as: UTF8.self)
    guard text[end] == UInt8(ascii: ";") else { throw error(.unknownEntity(name), at: start) }
    let predefined: [String: UInt8] = ["lt": 0x3C, "gt": 0x3E, "amp": 0x26, "apos": 0x27, "quot": 0x22]
    if let byte = predefined[name] {
      bytes.append(byte)
    } else if name.hasPrefix("#") {
      let digits = name.dropFirst()
      let hex = digits.hasPrefix("x")
      guard let value = UInt32(hex ? digits.dropFirst() : digits, radix: hex ? 16 : 10),
        !(hex ? digits.dropFirst() : digits).contains(where: { $0 == "+" || $0 == "-" }),
        let scalar = Unicode.Scalar(value)
      else { throw error(.invalidCharacterReference("&\(name);"), at: start) }
      bytes += UTF8.encode(scalar).map(Array.init) ?? []
    } else {
      throw error(.unknownEntity(name), at: start)
    }
    index = end + 1
  }

  /// `<integer>`, `<real>`, `<date>`, `<data>`.
  private mutating func readScalar(of tag: Tag) throws(PropertyListError) -> PropertyListValue {
    let contentStart = index
    let content: [UInt8]
    if tag.name == "real" {
      content = Array(try readText(of: tag).utf8)
    } else {
      guard let end = text[index...].firstIndex(of: UInt8(ascii: "<")) else {
        throw error(.unexpectedEnd(inside: .element(tag.name)), at: tag.start)
      }
      content = Array(text[index..<end])
      index = end
      try expectCloseTag(tag.name)
    }
    let value: PropertyListValue?
    switch tag.name {
    case "integer":
      switch PropertyListScalars.integer(content) {
      case .value(let integer): value = .integer(integer)
      case .empty: throw error(.emptyElement(tag.name), at: tag.start)
      case .outOfRange:
        throw error(.integerOutOfRange(String(decoding: content, as: UTF8.self)), at: contentStart)
      case .invalid: value = nil
      }
    case "real": value = PropertyListScalars.real(content).map(PropertyListValue.real)
    case "date": value = PropertyListScalars.date(content).map(PropertyListValue.date)
    default: value = PropertyListScalars.base64(content).map(PropertyListValue.data)
    }
    guard let value else {
      throw error(
        .invalidContent(element: tag.name, text: String(decoding: content.prefix(40), as: UTF8.self)),
        at: contentStart)
    }
    return value
  }

  // MARK: Helpers

  /// Whether `literal` is next (or at `start`).
  private func has(_ literal: StaticString, at start: Int? = nil) -> Bool {
    let start = start ?? index
    let count = literal.utf8CodeUnitCount
    guard start + count <= text.count else { return false }
    return literal.withUTF8Buffer { text[start..<start + count].elementsEqual($0) }
  }

  private func find(_ literal: StaticString, from start: Int) -> Int? {
    literal.withUTF8Buffer { needle -> Int? in
      guard let first = needle.first, start <= text.count else { return nil }
      var cursor = start
      while cursor + needle.count <= text.count {
        if text[cursor] == first, text[cursor..<cursor + needle.count].elementsEqual(needle) { return cursor }
        cursor += 1
      }
      return nil
    }
  }

  /// A short piece of the text at `start`, for messages.
  private func snippet(from start: Int? = nil) -> String {
    let start = start ?? index
    var end = start
    while end < text.count, end - start < 24, text[end] != 0x0A, text[end] != 0x0D { end += 1 }
    return String(decoding: text[start..<end], as: UTF8.self)
  }

  /// Where `offset` is; the lines are counted only for an error.
  private func position(_ offset: Int) -> TextPosition {
    LineTable(text).position(of: offset, in: text)
  }

  private func error(_ reason: PropertyListError.Reason, at offset: Int) -> PropertyListError {
    PropertyListError(reason, at: .text(position(offset)))
  }
}
