/// The content of XML `<integer>`, `<real>`, `<date>` and `<data>`, read as CoreFoundation reads
/// it, so that a file Apple's tools accept is accepted here too.
enum PropertyListScalars {
  enum IntegerResult: Equatable {
    case value(Int)
    case empty
    case outOfRange
    case invalid
  }

  /// `S*(-|+)?S*[0-9]+` or `S*(-|+)?S*0[xX][0-9a-fA-F]+`, S white space. Values that need more
  /// than 64 signed bits are out of range (CoreFoundation keeps up to 2^64 - 1; ``PropertyListValue``
  /// holds an `Int`).
  static func integer(_ bytes: [UInt8]) -> IntegerResult {
    var index = 0
    func skipSpace() { while index < bytes.count, bytes[index] <= 0x20 { index += 1 } }
    skipSpace()
    guard index < bytes.count else { return .empty }
    var negative = false
    if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
      negative = bytes[index] == UInt8(ascii: "-")
      index += 1
      skipSpace()
    }
    var radix: UInt64 = 10
    if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "0"),
      bytes[index + 1] == UInt8(ascii: "x") || bytes[index + 1] == UInt8(ascii: "X")
    {
      radix = 16
      index += 2
    }
    guard index < bytes.count else { return .invalid }
    var magnitude: UInt64 = 0
    for byte in bytes[index...] {
      guard let digit = hexDigit(byte), digit < radix else { return .invalid }
      let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: radix)
      let (sum, carry) = shifted.addingReportingOverflow(digit)
      guard !overflow, !carry else { return .outOfRange }
      magnitude = sum
    }
    if negative {
      guard magnitude <= UInt64(Int.max) + 1 else { return .outOfRange }
      return .value(magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude))
    }
    guard magnitude <= UInt64(Int.max) else { return .outOfRange }
    return .value(Int(magnitude))
  }

  /// A decimal number, or nan, inf, infinity with an optional sign, in any case.
  static func real(_ bytes: [UInt8]) -> Double? {
    let text = String(decoding: bytes, as: UTF8.self)
    switch text.lowercased() {
    case "nan": return .nan
    case "inf", "+inf", "infinity", "+infinity": return .infinity
    case "-inf", "-infinity": return -.infinity
    default: break
    }
    let trimmed = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    // `Double` alone would also take hexadecimal floats and "nan(…)"; CoreFoundation does not.
    guard !trimmed.isEmpty, trimmed.allSatisfy({ "0123456789+-.eE".contains($0) }) else { return nil }
    return Double(trimmed)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` (the year may be negative), as seconds since 2001-01-01T00:00:00Z.
  static func date(_ bytes: [UInt8]) -> Double? {
    var index = 0
    func number(_ digits: ClosedRange<Int>) -> Int? {
      var value = 0
      var count = 0
      while index < bytes.count, count < digits.upperBound, let digit = hexDigit(bytes[index]), digit < 10 {
        value = value * 10 + Int(digit)
        count += 1
        index += 1
      }
      return count >= digits.lowerBound ? value : nil
    }
    func expect(_ character: Character) -> Bool {
      guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
      index += 1
      return true
    }
    let negative = expect("-")
    guard let year = number(1...9), expect("-"), let month = number(2...2), expect("-"),
      let day = number(2...2), expect("T"), let hour = number(2...2), expect(":"),
      let minute = number(2...2), expect(":"), let second = number(2...2), expect("Z"), index == bytes.count,
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
    else { return nil }
    let days = daysFromCivil(year: negative ? -year : year, month: month, day: day)
    let reference = daysFromCivil(year: 2001, month: 1, day: 1)
    return Double(days - reference) * 86_400 + Double(hour * 3600 + minute * 60 + second)
  }

  /// Base64, decoded as CoreFoundation decodes it: characters outside the alphabet (white space
  /// among them) are skipped, `=` pads, a trailing partial group is dropped; non-ASCII is refused.
  static func base64(_ bytes: [UInt8]) -> [UInt8]? {
    var out: [UInt8] = []
    var accumulator: UInt32 = 0
    var digits = 0
    var padding = 0
    for byte in bytes {
      guard byte < 0x80 else { return nil }
      if byte == UInt8(ascii: "=") {
        padding += 1
      } else if !(byte == 0x20 || (0x09...0x0D).contains(byte)) {
        padding = 0
      }
      guard let value = base64Value(byte) else { continue }
      digits += 1
      accumulator = accumulator &<< 6 &+ value
      if digits % 4 == 0 {
        out.append(UInt8(truncatingIfNeeded: accumulator >> 16))
        if padding < 2 { out.append(UInt8(truncatingIfNeeded: accumulator >> 8)) }
        if padding < 1 { out.append(UInt8(truncatingIfNeeded: accumulator)) }
      }
    }
    return out
  }

  private static func base64Value(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(byte - UInt8(ascii: "A"))
    case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(byte - UInt8(ascii: "a")) + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0")) + 52
    case UInt8(ascii: "+"): 62
    case UInt8(ascii: "/"): 63
    case UInt8(ascii: "="): 0
    default: nil
    }
  }

  static func hexDigit(_ byte: UInt8) -> UInt64? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(byte - UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt64(byte - UInt8(ascii: "A")) + 10
    default: nil
    }
  }

  /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
