import Testing

@testable import ShareCore

/// Names a file manager may hand over, as bytes.
let awkwardNames: [[UInt8]] = [
  Array("/home/u/photo one.png".utf8),
  Array("/tmp/100% sure.txt".utf8),
  Array("/tmp/%41 is not A".utf8),
  Array("/tmp/two\nlines".utf8),
  Array("/tmp/tab\tand\r".utf8),
  Array("/tmp/caf".utf8) + [0xE9, 0x2E, 0x74, 0x78, 0x74],  // Latin-1 é
  [0x2F, 0xFF, 0xFE, 0x80, 0xC3],  // nothing of it UTF-8
  Array("/tmp/grüße ☕ 日本.pdf".utf8),
  Array("/tmp/q?x=1#frag&y+z;@:".utf8),
  Array("/tmp/back\\slash \"quoted\" 'single'".utf8),
  Array("relative/name".utf8),
  Array("/".utf8),
]

@Suite struct FilePathBytesTests {
  /// Equality and the NUL check go eight bytes at a time: every length around the word, a
  /// difference (or a NUL, or a 0x01 among high bytes) at every place.
  @Test func wordAtATimeChecksAgreeWithTheBytes() {
    for length in 0...25 {
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 1) }
      #expect(FilePath(bytes: bytes) == FilePath(bytes: Array(bytes)))
      #expect(FilePath(bytes: bytes) != FilePath(bytes: bytes + [0x2F]))
      for place in 0..<length {
        var other = bytes
        other[place] ^= 0x80
        #expect(FilePath(bytes: bytes) != FilePath(bytes: other), "length \(length), byte \(place)")
        #expect(FilePath(bytes: bytes).hashValue == FilePath(bytes: Array(bytes)).hashValue)
      }
    }
    for length in 1...25 {
      for place in 0..<length {
        var bytes = [UInt8](repeating: 0x80 | UInt8(place), count: length)
        #expect(!FilePath(bytes: bytes).containsNUL)
        bytes[place] = 0
        #expect(FilePath(bytes: bytes).containsNUL, "length \(length), NUL at \(place)")
        bytes[place] = 1
        #expect(!FilePath(bytes: bytes).containsNUL, "length \(length), 0x01 at \(place)")
      }
    }
    let paths = Set(
      awkwardNames.map { FilePath(bytes: $0) } + awkwardNames.map { FilePath(bytes: Array($0)) })
    #expect(paths.count == awkwardNames.count)
  }

  @Test(arguments: awkwardNames)
  func bytesAreKept(bytes: [UInt8]) {
    let path = FilePath(bytes: bytes)
    #expect(path.bytes == bytes)
    #expect(path.string == String(validating: bytes, as: UTF8.self))
  }

  @Test(arguments: awkwardNames.filter { $0.first == UInt8(ascii: "/") })
  func aFileURLRoundTrips(bytes: [UInt8]) {
    let url = FilePath(bytes: bytes).fileURL
    #expect(url.hasPrefix("file:///"))
    // Only unreserved ASCII and escapes: no space, control or non-ASCII byte reaches the URL.
    #expect(url.utf8.allSatisfy { $0.isUnreserved || $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: ":") })
    #expect(FilePath(fileURL: url) == FilePath(bytes: bytes))
  }

  @Test func everyByteButNULRoundTrips() {
    let bytes = [UInt8(ascii: "/")] + (1...255).map { UInt8($0) }
    let path = FilePath(bytes: bytes)
    #expect(FilePath(fileURL: path.fileURL)?.bytes == bytes)
  }

  @Test func percentEncodingIsByteByByte() {
    let cases: [([UInt8], String)] = [
      (Array("/a b".utf8), "file:///a%20b"),
      (Array("/100%".utf8), "file:///100%25"),
      (Array("/x\ny".utf8), "file:///x%0Ay"),
      (Array("/caf".utf8) + [0xE9], "file:///caf%E9"),
      (Array("/é".utf8), "file:///%C3%A9"),
      (Array("/a-b.c_d~e/F9".utf8), "file:///a-b.c_d~e/F9"),
      (Array("/?#[]@!$&'()*+,;=".utf8), "file:///%3F%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D"),
    ]
    for (bytes, url) in cases {
      #expect(FilePath(bytes: bytes).fileURL == url)
    }
  }

  @Test func fileURLsOfOtherTools() {
    #expect(FilePath(fileURL: "file:///caf%e9") == FilePath(bytes: Array("/caf".utf8) + [0xE9]))
    #expect(FilePath(fileURL: "FILE:///x") == FilePath("/x"))
    #expect(FilePath(fileURL: "file:///a b") == FilePath("/a b"))
    #expect(FilePath(fileURL: "file://localhost/etc/hosts") == FilePath("/etc/hosts"))
    #expect(FilePath(fileURL: "file://example.org/etc/hosts") == nil)
    #expect(FilePath(fileURL: "file:relative") == nil)
    #expect(FilePath(fileURL: "file:///cut%4") == nil)
    #expect(FilePath(fileURL: "") == nil)
  }

  @Test func absoluteInADirectory() {
    let home = FilePath("/home/u")
    #expect(FilePath("notes.txt").absolute(in: home) == FilePath("/home/u/notes.txt"))
    #expect(FilePath("notes.txt").absolute(in: FilePath("/home/u/")) == FilePath("/home/u/notes.txt"))
    #expect(FilePath("sub/a b").absolute(in: FilePath("/")) == FilePath("/sub/a b"))
    #expect(FilePath("/etc/hosts").absolute(in: home) == FilePath("/etc/hosts"))
    let latin1 = FilePath(bytes: [0x63, 0xE9])
    #expect(latin1.absolute(in: home).bytes == Array("/home/u/".utf8) + [0x63, 0xE9])
    #expect(!latin1.isAbsolute)
    #expect(latin1.absolute(in: home).isAbsolute)
  }

  @Test func displayStringEscapes() {
    let cases: [([UInt8], String)] = [
      (Array("/tmp/two\nlines".utf8), "/tmp/two\\nlines"),
      (Array("a\rb\tc".utf8), "a\\rb\\tc"),
      (Array("back\\slash".utf8), "back\\\\slash"),
      (Array("caf".utf8) + [0xE9], "caf\\xe9"),
      ([0x1B] + Array("[31mred".utf8), "\\x1b[31mred"),
      // CSI as a C1 control, U+2029 and a first-strong isolate: escaped, as bytes.
      (Array("a\u{9B}b\u{2029}c\u{2068}d".utf8), "a\\xc2\\x9bb\\xe2\\x80\\xa9c\\xe2\\x81\\xa8d"),
      // A four-byte sequence cut short, then valid text.
      ([0xF0, 0x9F, 0x98] + Array("ok".utf8), "\\xf0\\x9f\\x98ok"),
      (Array("grüße ☕".utf8), "grüße ☕"),
    ]
    for (bytes, shown) in cases {
      let path = FilePath(bytes: bytes)
      #expect(path.displayString == shown)
      #expect(path.description == shown)
    }
  }

  @Test func componentsAndOrder() {
    #expect(FilePath("/").lastComponent == [])
    #expect(FilePath("name").lastComponent == Array("name".utf8))
    #expect(FilePath(bytes: [0x2F, 0xFF, 0x2F, 0xFE, 0x2F, 0x2F]).lastComponent == [0xFE])
    #expect(FilePath("/a").appending("b") == FilePath("/a/b"))
    #expect(FilePath("/a/").appending([0xFF]) == FilePath(bytes: [0x2F, 0x61, 0x2F, 0xFF]))
    // Byte order, not Unicode or locale order.
    #expect(FilePath("/B") < FilePath("/a"))
    #expect(FilePath("/z") < FilePath(bytes: [0x2F, 0xFF]))
    #expect(FilePath("/a") < FilePath("/a/b"))
  }
}

extension UInt8 {
  /// RFC 3986's unreserved characters, and the path separator.
  fileprivate var isUnreserved: Bool {
    switch self {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: "~"), UInt8(ascii: "/"):
      true
    default: false
    }
  }
}
