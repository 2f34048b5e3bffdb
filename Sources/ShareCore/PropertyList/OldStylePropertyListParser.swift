/// Old-style (OpenStep) property lists and `.strings` files, read as CoreFoundation reads them:
/// `{ key = value; }`, `( a, b )`, `<0fbd77>`, quoted strings with C escapes and `\Uxxxx`,
/// unquoted strings of `[A-Za-z0-9_$/:.-]`, `//` and `/* */` comments. A file that is a string
/// followed by more is a strings file: dictionary entries without braces, where `"key";` stands
/// for `"key" = "key";`. Empty text is an empty dictionary. Duplicate keys: the last wins.
///
/// Stricter than CoreFoundation in two things: an unterminated `/*` comment and anything after
/// the root value are errors. Nesting is followed with an explicit stack.
struct OldStylePropertyListParser {
  private let text: [UInt8]
  private let lines: LineTable
  private var index = 0
  private var path: [String] = []
  private(set) var positions: [[String]: TextPosition] = [:]

  init(_ text: [UInt8]) {
    self.text = text
    self.lines = LineTable(text)
  }

  private struct Container {
    var isDictionary: Bool
    /// The strings file's implicit dictionary, closed by the end of the text, not by `}`.
    var isTopLevel = false
    var start: Int
    var component: String?
    var items: [PropertyListValue] = []
    var entries: [String: PropertyListValue] = [:]
    var key: String?
  }

  private enum State {
    case value
    case key
    case arrayItem
  }

  mutating func parse() throws(PropertyListError) -> PropertyListValue {
    try skipSpace()
    guard index < text.count else { return .dictionary([:]) }
    let root = try parseValue(asStringsFile: false)
    try skipSpace()
    guard index < text.count else { return root }
    guard case .string = root else { throw error(.contentAfterRoot, at: index) }
    index = 0
    positions = [:]
    return try parseValue(asStringsFile: true)
  }

  private mutating func parseValue(asStringsFile: Bool) throws(PropertyListError) -> PropertyListValue {
    var stack: [Container] = []
    var state = State.value
    if asStringsFile {
      stack.append(Container(isDictionary: true, isTopLevel: true, start: 0))
      state = .key
    }
    while true {
      var finished: PropertyListValue?
      try skipSpace()
      switch state {
      case .value:
        guard index < text.count else { throw error(.unexpectedEnd(inside: .value), at: index) }
        let start = index
        let component = stack.last.map { $0.isDictionary ? $0.key ?? "" : String($0.items.count) }
        positions[component.map { path + [$0] } ?? path] = position(start)
        switch text[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "("):
          guard stack.count < PropertyListReader.maximumDepth else {
            throw error(.tooDeep(limit: PropertyListReader.maximumDepth), at: start)
          }
          let isDictionary = text[index] == UInt8(ascii: "{")
          index += 1
          stack.append(Container(isDictionary: isDictionary, start: start, component: component))
          if let component { path.append(component) }
          state = isDictionary ? .key : .arrayItem
          continue
        case UInt8(ascii: "<"):
          finished = .data(try readHexData())
        default:
          guard let string = try readString() else { throw error(.expected(.value), at: start) }
          finished = .string(string)
        }
      case .key:
        let top = stack[stack.count - 1]
        if index == text.count, top.isTopLevel {
          finished = .dictionary(top.entries)
          stack.removeLast()
        } else if index < text.count, text[index] == UInt8(ascii: "}"), !top.isTopLevel {
          index += 1
          finished = try close(&stack)
        } else {
          let start = index
          guard let key = try readString() else {
            throw error(index == text.count ? .unexpectedEnd(inside: .value) : .expected(.key), at: start)
          }
          try skipSpace()
          if index < text.count, text[index] == UInt8(ascii: ";") {
            index += 1
            forget(key, in: stack[stack.count - 1])
            positions[path + [key]] = position(start)
            stack[stack.count - 1].entries[key] = .string(key)
            continue
          }
          guard index < text.count, text[index] == UInt8(ascii: "=") else {
            throw error(.expected(.equalsOrSemicolon), at: index)
          }
          index += 1
          forget(key, in: stack[stack.count - 1])
          stack[stack.count - 1].key = key
          state = .value
          continue
        }
      case .arrayItem:
        if index < text.count, text[index] == UInt8(ascii: ")") {
          index += 1
          finished = try close(&stack)
        } else {
          state = .value
          continue
        }
      }

      // Hand the value to its container; then what must follow it there.
      guard let value = finished else { continue }
      guard !stack.isEmpty else { return value }
      let last = stack.count - 1
      try skipSpace()
      if stack[last].isDictionary {
        stack[last].entries[stack[last].key ?? ""] = value
        stack[last].key = nil
        guard index < text.count, text[index] == UInt8(ascii: ";") else {
          throw error(.expected(.semicolon), at: index)
        }
        index += 1
        state = .key
      } else {
        stack[last].items.append(value)
        if index < text.count, text[index] == UInt8(ascii: ",") {
          index += 1
        } else if !(index < text.count && text[index] == UInt8(ascii: ")")) {
          throw error(.expected(.commaOrClosingParenthesis), at: index)
        }
        state = .arrayItem
      }
    }
  }

  /// Closes the innermost container, returning its value.
  private mutating func close(_ stack: inout [Container]) throws(PropertyListError) -> PropertyListValue {
    let top = stack.removeLast()
    if top.component != nil { path.removeLast() }
    return top.isDictionary ? .dictionary(top.entries) : .array(top.items)
  }

  /// A key given again replaces the earlier value, and the positions of what it held.
  private mutating func forget(_ key: String, in container: Container) {
    guard container.entries[key] != nil else { return }
    let prefix = path + [key]
    positions = positions.filter { !$0.key.starts(with: prefix) }
  }

  // MARK: Tokens

  /// A quoted or unquoted string at the cursor; nil when none starts there.
  private mutating func readString() throws(PropertyListError) -> String? {
    guard index < text.count else { return nil }
    let quote = text[index]
    if quote != UInt8(ascii: "\""), quote != UInt8(ascii: "'") {
      let start = index
      while index < text.count, Self.isUnquoted(text[index]) { index += 1 }
      return index > start ? String(decoding: text[start..<index], as: UTF8.self) : nil
    }
    let start = index
    index += 1
    var bytes: [UInt8] = []
    var pendingHighSurrogate: UInt32?
    while true {
      guard index < text.count else { throw error(.unexpectedEnd(inside: .quotedString), at: start) }
      let byte = text[index]
      index += 1
      if byte == quote { break }
      guard byte == UInt8(ascii: "\\") else {
        bytes.append(byte)
        continue
      }
      guard index < text.count else { throw error(.unexpectedEnd(inside: .quotedString), at: start) }
      let escaped = text[index]
      index += 1
      var scalar: UInt32
      switch escaped {
      case UInt8(ascii: "0")...UInt8(ascii: "7"):
        scalar = UInt32(escaped - UInt8(ascii: "0"))
        var digits = 1
        while digits < 3, index < text.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(text[index]) {
          scalar = scalar * 8 + UInt32(text[index] - UInt8(ascii: "0"))
          index += 1
          digits += 1
        }
        // Octal escapes are NeXTSTEP Latin; above ASCII it differs from Latin-1, so none is guessed.
        scalar = scalar & 0xFF < 0x80 ? scalar & 0xFF : 0xFFFD
      case UInt8(ascii: "U"):
        scalar = 0
        var digits = 0
        while digits < 4, index < text.count, let digit = PropertyListScalars.hexDigit(text[index]) {
          scalar = scalar << 4 | UInt32(digit)
          index += 1
          digits += 1
        }
      case UInt8(ascii: "a"): scalar = 0x07
      case UInt8(ascii: "b"): scalar = 0x08
      case UInt8(ascii: "f"): scalar = 0x0C
      case UInt8(ascii: "n"): scalar = 0x0A
      case UInt8(ascii: "r"): scalar = 0x0D
      case UInt8(ascii: "t"): scalar = 0x09
      case UInt8(ascii: "v"): scalar = 0x0B
      default:
        bytes.append(escaped)
        continue
      }
      // `\U` writes UTF-16 code units: a surrogate pair is two escapes.
      if let high = pendingHighSurrogate {
        pendingHighSurrogate = nil
        if (0xDC00...0xDFFF).contains(scalar) {
          scalar = 0x10000 + (high - 0xD800) << 10 + (scalar - 0xDC00)
        } else {
          bytes += [0xEF, 0xBF, 0xBD]
        }
      } else if (0xD800...0xDBFF).contains(scalar) {
        pendingHighSurrogate = scalar
        continue
      }
      bytes += Unicode.Scalar(scalar).flatMap { UTF8.encode($0).map(Array.init) } ?? [0xEF, 0xBF, 0xBD]
    }
    if pendingHighSurrogate != nil { bytes += [0xEF, 0xBF, 0xBD] }
    guard let string = String(validating: bytes, as: UTF8.self) else {
      throw error(.invalidText(encoding: "UTF-8"), at: start)
    }
    return string
  }

  /// `<0fbd 77>`: pairs of hex digits, white space between pairs.
  private mutating func readHexData() throws(PropertyListError) -> [UInt8] {
    let start = index
    index += 1
    var bytes: [UInt8] = []
    while true {
      guard index < text.count else { throw error(.unexpectedEnd(inside: .hexData), at: start) }
      let byte = text[index]
      if byte == UInt8(ascii: ">") {
        index += 1
        return bytes
      }
      if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
        index += 1
        continue
      }
      guard let high = PropertyListScalars.hexDigit(byte), index + 1 < text.count,
        let low = PropertyListScalars.hexDigit(text[index + 1])
      else { throw error(.invalidHexData, at: index) }
      bytes.append(UInt8(high << 4 | low))
      index += 2
    }
  }

  /// Skips white space (with U+2028 and U+2029) and comments.
  private mutating func skipSpace() throws(PropertyListError) {
    while index < text.count {
      let byte = text[index]
      if byte == 0x20 || (0x09...0x0D).contains(byte) {
        index += 1
      } else if byte == 0xE2, index + 2 < text.count, text[index + 1] == 0x80,
        text[index + 2] == 0xA8 || text[index + 2] == 0xA9
      {
        index += 3
      } else if byte == UInt8(ascii: "/"), index + 1 < text.count, text[index + 1] == UInt8(ascii: "/") {
        while index < text.count, text[index] != 0x0A, text[index] != 0x0D { index += 1 }
      } else if byte == UInt8(ascii: "/"), index + 1 < text.count, text[index + 1] == UInt8(ascii: "*") {
        let start = index
        index += 2
        while index + 1 < text.count,
          !(text[index] == UInt8(ascii: "*") && text[index + 1] == UInt8(ascii: "/"))
        {
          index += 1
        }
        guard index + 1 < text.count else { throw error(.unexpectedEnd(inside: .comment), at: start) }
        index += 2
      } else {
        return
      }
    }
  }

  private static func isUnquoted(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default:
      [
        UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."),
        UInt8(ascii: "-"),
      ].contains(byte)
    }
  }

  private func position(_ offset: Int) -> TextPosition {
    lines.position(of: offset, in: text)
  }

  private func error(_ reason: PropertyListError.Reason, at offset: Int) -> PropertyListError {
    PropertyListError(reason, at: .text(position(offset)))
  }
}
