/// FNV-1a, 64 bits: a fast, stable checksum for telling contents apart (not a cryptographic hash).
public enum Checksum {
  /// The FNV-1a 64-bit hash of `bytes`, as 16 lowercase hexadecimal digits.
  public static func fnv1a64(_ bytes: some Sequence<UInt8>) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
