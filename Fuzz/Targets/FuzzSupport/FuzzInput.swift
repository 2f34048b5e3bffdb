/// Structured values taken from the front of a fuzz input, as LLVM's FuzzedDataProvider does:
/// every read succeeds, with zeros once the bytes run out.
public struct FuzzInput {
  private var bytes: ArraySlice<UInt8>

  public init(_ bytes: [UInt8]) {
    self.bytes = bytes[...]
  }

  public var isEmpty: Bool { bytes.isEmpty }

  public mutating func byte() -> UInt8 {
    bytes.popFirst() ?? 0
  }

  public mutating func bool() -> Bool {
    byte() & 1 == 1
  }

  /// A number in `range`, from one byte (ranges here are small).
  public mutating func int(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(byte()) % (range.count)
  }

  public mutating func pick<T>(_ options: [T]) -> T {
    options[int(in: 0...options.count - 1)]
  }

  /// Up to `maximum` bytes, the count taken from the input first.
  public mutating func data(maximum: Int) -> [UInt8] {
    let count = min(int(in: 0...maximum), bytes.count)
    defer { bytes = bytes.dropFirst(count) }
    return Array(bytes.prefix(count))
  }

  /// A string of up to `maximum` bytes, invalid UTF-8 repaired.
  public mutating func string(maximum: Int) -> String {
    String(decoding: data(maximum: maximum), as: UTF8.self)
  }

  /// What is left.
  public mutating func rest() -> [UInt8] {
    defer { bytes = [] }
    return Array(bytes)
  }
}
