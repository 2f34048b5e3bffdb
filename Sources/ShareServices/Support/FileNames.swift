import ShareCore

/// File names as bytes: display, URLs, and the "never overwrite" numbering.
enum FileNames {
  /// The longest file name Linux file systems take (`NAME_MAX`), in bytes.
  static let maximumLength = 255

  /// The longest extension that counts as one, in bytes (`.torrent`, `.drawio`; never
  /// `.5 final notes`).
  static let maximumExtensionLength = 16

  /// The last component of `path` (`""` for `/`).
  static func lastComponent(of path: [UInt8]) -> [UInt8] {
    FilePath(bytes: path).lastComponent
  }

  /// `name` for a message, with C-style escapes (``FilePath/displayString``), so a name can never
  /// forge a second line of a notification.
  static func display(_ name: [UInt8]) -> String {
    FilePath(bytes: name).displayString
  }

  /// A `file://` URL for `path`, in the form the host sends (every name survives).
  static func fileURL(for path: [UInt8]) -> String {
    FilePath(bytes: path).fileURL
  }

  /// `bytes` percent-encoded: every byte but the unreserved `A-Z a-z 0-9 - . _ ~` (and `/` when
  /// `keepingSlashes`) becomes `%XX`.
  static func percentEncoded(_ bytes: [UInt8], keepingSlashes: Bool = false) -> String {
    var out = ""
    out.reserveCapacity(bytes.count)
    for byte in bytes {
      if isUnreserved(byte) || (keepingSlashes && byte == UInt8(ascii: "/")) {
        out.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        out += "%" + hex(byte)
      }
    }
    return out
  }

  /// The `number`th name to try for `name` in a folder: `name` itself for 1, else
  /// `stem (number).ext`.
  ///
  /// The extension is the part from the last dot, when that dot is not the first byte and what
  /// follows it is 1 to 16 bytes without spaces: `photo.png` → `photo (2).png`,
  /// `archive.tar.gz` → `archive.tar (2).gz`, `.bashrc` → `.bashrc (2)`, `notes 3.5 final` →
  /// `notes 3.5 final (2)`. A result longer than 255 bytes is shortened at the end of the stem,
  /// never inside a UTF-8 character.
  static func numbered(_ name: [UInt8], _ number: Int) -> [UInt8] {
    let (stem, suffix) = split(name)
    let marker = number > 1 ? Array(" (\(number))".utf8) : []
    var shortened = stem
    let room = maximumLength - marker.count - suffix.count
    if shortened.count > room {
      shortened = truncated(shortened, toAtMost: max(room, 1))
    }
    return shortened + marker + suffix
  }

  /// `name` split into its stem and its extension (with the dot; empty when there is none).
  static func split(_ name: [UInt8]) -> (stem: [UInt8], extension: [UInt8]) {
    guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > name.startIndex else { return (name, []) }
    let suffix = name[(dot + 1)...]
    guard !suffix.isEmpty, suffix.count <= maximumExtensionLength,
      !suffix.contains(where: { $0 == UInt8(ascii: " ") || $0 < 0x20 })
    else { return (name, []) }
    return (Array(name[..<dot]), Array(name[dot...]))
  }

  /// The first `limit` bytes of `bytes` or fewer, never cutting a UTF-8 character in two.
  static func truncated(_ bytes: [UInt8], toAtMost limit: Int) -> [UInt8] {
    guard bytes.count > limit else { return bytes }
    var end = limit
    // Back up over continuation bytes (10xxxxxx) to the start of the character cut in two.
    while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
    return Array(bytes[..<end])
  }

  static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: "~"):
      true
    default: false
    }
  }

  static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
  }
}
