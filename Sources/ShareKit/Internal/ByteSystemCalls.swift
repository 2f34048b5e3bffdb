import Glibc
internal import ShareCore

/// The system calls of App Group containers on byte paths: a `HOME` or `XDG_DATA_HOME` that is not
/// UTF-8 names a real folder, which `FileManager`'s `String` paths cannot reach.
extension SystemCalls {
  /// This process's environment, each value as bytes (`environ`).
  static var environmentBytes: [String: [UInt8]] {
    var result: [String: [UInt8]] = [:]
    var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = environ
    while let pointer = entry.pointee {
      let bytes = Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
      if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
        let name = String(decoding: bytes[..<equals], as: UTF8.self)
        if result[name] == nil { result[name] = Array(bytes[(equals + 1)...]) }
      }
      entry += 1
    }
    return result
  }

  /// `environment` as bytes: a value that is the lossy decoding of this process's own (what
  /// `ProcessInfo.environment` gives for bytes that are not UTF-8) is taken as those bytes.
  static func environmentBytes(
    restoring environment: [String: String], inherited: [String: [UInt8]] = environmentBytes
  ) -> [String: [UInt8]] {
    return Dictionary(
      uniqueKeysWithValues: environment.map { name, value in
        if let original = inherited[name], String(validating: original, as: UTF8.self) == nil,
          String(decoding: original, as: UTF8.self) == value
        {
          return (name, original)
        }
        return (name, Array(value.utf8))
      })
  }

  private static func withPath<T>(_ path: FilePath, _ body: (UnsafePointer<CChar>) -> T) -> T {
    (path.bytes + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
    }
  }

  /// The folder `path` and any missing above it, each made with `mode` (`mkdir`).
  static func makeDirectories(_ path: FilePath, mode: mode_t) throws {
    var prefixes: [FilePath] = []
    for (index, byte) in path.bytes.enumerated() where byte == UInt8(ascii: "/") && index > 0 {
      prefixes.append(FilePath(bytes: path.bytes[..<index]))
    }
    prefixes.append(path)
    for prefix in prefixes where prefix.bytes.last != UInt8(ascii: "/") {
      guard withPath(prefix, { mkdir($0, mode) }) == 0 || errno == EEXIST else {
        throw ShareError.storage(
          "cannot create the App Group folder \(path.text): \(errorDescription(errno))")
      }
    }
  }

  /// The whole file at `path`; nil when there is none; throws when it cannot be read.
  static func contents(of path: FilePath) throws -> [UInt8]? {
    let descriptor = withPath(path) { open($0, O_RDONLY | O_CLOEXEC) }
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw ShareError.storage("cannot read \(path.text)")
    }
    defer { close(descriptor) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { return result }
      if count < 0 {
        if errno == EINTR { continue }
        throw ShareError.storage("cannot read \(path.text)")
      }
      result += chunk[..<count]
    }
  }

  /// Makes the new file `path` (never one that exists) with `mode` and `bytes` in it.
  static func createFile(_ path: FilePath, contents bytes: [UInt8], mode: mode_t) -> Bool {
    let descriptor = withPath(path) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode) }
    guard descriptor >= 0 else { return false }
    let written = write(bytes, to: descriptor)
    return close(descriptor) == 0 && written
  }

  /// ``replace(_:with:)`` on byte paths.
  static func replace(_ destination: FilePath, with source: FilePath) throws {
    let renamed = withPath(source) { from in withPath(destination) { rename(from, $0) } }
    guard renamed == 0 else {
      throw ShareError.storage(
        "cannot move \(source.text) to \(destination.text): \(errorDescription(errno))")
    }
  }

  /// Removes the file `path` (`unlink`), quietly.
  static func remove(_ path: FilePath) {
    _ = withPath(path) { unlink($0) }
  }

  /// ``withExclusiveLock(onFile:_:)`` on a byte path.
  static func withExclusiveLock<Result>(onFile path: FilePath, _ body: () throws -> Result) throws -> Result {
    let descriptor = withPath(path) { open($0, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
    guard descriptor >= 0 else {
      throw ShareError.storage("cannot open the lock file \(path.text): \(errorDescription(errno))")
    }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else {
        throw ShareError.storage("cannot lock \(path.text): \(errorDescription(errno))")
      }
    }
    return try body()
  }
}
