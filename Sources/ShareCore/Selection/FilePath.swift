/// A file system path as the bytes the kernel sees.
///
/// File managers hand over names holding newlines or bytes that are not UTF-8; a `String` would
/// repair them into different names. Everything that names a user's file carries a `FilePath`.
public struct FilePath: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The path's bytes, without a terminating NUL.
  public var bytes: [UInt8]

  public init(bytes: some Sequence<UInt8>) {
    self.bytes = Array(bytes)
  }

  /// The path of `bytes`, sharing their storage (what callers across modules would otherwise
  /// reach through the generic initializer, unspecialized).
  public init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  public init(_ string: String) {
    self.bytes = Array(string.utf8)
  }

  /// The path as a `String` when its bytes are valid UTF-8.
  public var string: String? {
    String(validating: bytes, as: UTF8.self)
  }

  /// The path as text where text is all there is (JSON, D-Bus strings, messages): the path
  /// itself when it is UTF-8, unchanged; otherwise ``displayString``, whose `\xNN` escapes mark
  /// it as a path that text cannot carry (the bytes themselves are in ``bytes``, ``fileURL``).
  public var text: String {
    string ?? displayString
  }

  /// This path without the slashes that end it ("/" stays "/").
  public var trimmingTrailingSlashes: FilePath {
    var result = bytes
    while result.count > 1, result.last == UInt8(ascii: "/") { result.removeLast() }
    return FilePath(bytes: result)
  }

  /// The path for showing to a person, with C-style escapes (like `ls -b`, in hexadecimal): `\n`,
  /// `\t`, the backslash as `\\`, and as `\xNN` each byte of other control characters, of line
  /// and paragraph separators, of bidirectional controls and of what is not UTF-8. A name can
  /// never forge a second line or reorder what a terminal shows, and no two names are shown alike.
  public var displayString: String {
    var out = ""
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let lead = bytes[index]
      let length =
        lead < 0x80 ? 1 : lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 0
      let end = index + max(length, 1)
      if length > 0, end <= bytes.endIndex,
        let scalar = String(validating: bytes[index..<end], as: UTF8.self)?.unicodeScalars.first
      {
        switch scalar {
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        case "\\": out += "\\\\"
        case _ where Self.mustEscape(scalar): for byte in bytes[index..<end] { out += Self.hexEscape(byte) }
        default: out.unicodeScalars.append(scalar)
        }
        index = end
      } else {
        out += Self.hexEscape(lead)
        index += 1
      }
    }
    return out
  }

  /// C0 and C1 controls, DEL, line and paragraph separators, and the bidirectional controls
  /// (which would let a name show its extension reversed).
  private static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  private static func hexEscape(_ byte: UInt8) -> String {
    "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
  }

  public var description: String { displayString }

  /// Whether the path starts at the root.
  public var isAbsolute: Bool { bytes.first == UInt8(ascii: "/") }

  /// The last component, as bytes ("" for "/").
  public var lastComponent: [UInt8] {
    var end = bytes.endIndex
    while end > bytes.startIndex, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
    let start = bytes[..<end].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? bytes.startIndex
    return Array(bytes[start..<end])
  }

  /// This path with `component` appended, separated by one slash.
  public func appending(_ component: some Sequence<UInt8>) -> FilePath {
    var result = bytes
    if let last = result.last, last != UInt8(ascii: "/") { result.append(UInt8(ascii: "/")) }
    result.append(contentsOf: component)
    return FilePath(bytes: result)
  }

  public func appending(_ component: String) -> FilePath {
    appending(component.utf8)
  }

  /// The path made absolute against `directory` when it is relative.
  public func absolute(in directory: FilePath) -> FilePath {
    isAbsolute ? self : directory.appending(bytes)
  }

  /// A `file://` URL whose path is percent-encoded byte by byte (RFC 8089), so every name survives.
  public var fileURL: String {
    var out = "file://"
    for byte in bytes {
      if Self.isUnreservedInPath(byte) {
        out.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        out += "%" + Self.hexDigits(byte)
      }
    }
    return out
  }

  /// Decodes a `file://` URL made by ``fileURL`` or another tool; `nil` when it is not a local file URL.
  public init?(fileURL: String) {
    var rest = Substring(fileURL)
    guard rest.lowercased().hasPrefix("file://") else { return nil }
    rest = rest.dropFirst("file://".count)
    if rest.hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
    guard rest.hasPrefix("/") else { return nil }
    var bytes: [UInt8] = []
    var utf8 = Array(rest.utf8)[...]
    while let byte = utf8.popFirst() {
      if byte == UInt8(ascii: "%") {
        guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
        else { return nil }
        bytes.append(value)
        utf8 = utf8.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    guard !bytes.contains(0) else { return nil }
    self.bytes = bytes
  }

  public static func < (lhs: FilePath, rhs: FilePath) -> Bool {
    lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
  }

  /// Whether a byte of the path is NUL, which no path the kernel takes holds (a caller's bytes
  /// are checked with it). Eight bytes at a time: the service checks a thousand paths a call.
  public var containsNUL: Bool {
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset + 8 <= raw.count {
        let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        // The has-zero-byte test: not zero exactly when a byte of the word is.
        if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { return true }
        offset += 8
      }
      while offset < raw.count {
        if raw[offset] == 0 { return true }
        offset += 1
      }
      return false
    }
  }

  /// Equal bytes, compared eight at a time: the service compares a thousand paths a call, and
  /// the arrays' own `==` goes byte by byte. (The synthesized hash stays: it agrees.)
  public static func == (lhs: FilePath, rhs: FilePath) -> Bool {
    lhs.bytes.withUnsafeBytes { left in
      rhs.bytes.withUnsafeBytes { right in
        guard left.count == right.count else { return false }
        var offset = 0
        while offset + 8 <= left.count {
          guard
            left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
              == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          else { return false }
          offset += 8
        }
        while offset < left.count {
          guard left[offset] == right[offset] else { return false }
          offset += 1
        }
        return true
      }
    }
  }

  private static func isUnreservedInPath(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
      return true
    default:
      return false
    }
  }

  private static func hexDigits(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
  }
}
