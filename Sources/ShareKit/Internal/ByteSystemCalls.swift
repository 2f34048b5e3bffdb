internal import ShareCore
internal import ShareSyscalls

/// The system calls of App Group containers on byte paths: a `HOME` or `XDG_DATA_HOME` that is not
/// UTF-8 names a real folder, which `FileManager`'s `String` paths cannot reach.
extension SystemCalls {
  /// This process's environment, each value as bytes. The corresponding C variable is `environ`.
  static var environmentBytes: [String: [UInt8]] {
    ProcessEnvironment.bytes
  }

  /// `environment` as bytes: a value that is the lossy decoding of this process's own (what
  /// `ProcessInfo.environment` gives for bytes that are not UTF-8) is taken as those bytes.
  static func environmentBytes(
    restoring environment: [String: String], inherited: [String: [UInt8]] = environmentBytes
  ) -> [String: [UInt8]] {
    ProcessEnvironment.bytes(restoring: environment, inherited: inherited)
  }

  private static func withPath<T>(_ path: FilePath, _ body: (UnsafePointer<CChar>) -> T) -> T {
    withNULTerminated(path.bytes, body)
  }

  /// The folder `path` and any missing above it, each made with `mode`. The corresponding C
  /// function is `mkdir`.
  static func makeDirectories(_ path: FilePath, mode: UInt32) throws {
    var prefixes: [FilePath] = []
    for (index, byte) in path.bytes.enumerated() where byte == UInt8(ascii: "/") && index > 0 {
      prefixes.append(FilePath(bytes: path.bytes[..<index]))
    }
    prefixes.append(path)
    for prefix in prefixes where prefix.bytes.last != UInt8(ascii: "/") {
      let made = withPath(prefix) { cPath in valueOrErrno { system_mkdir(cPath, mode) } }
      if case .failure(let error) = made, error.rawValue != _EEXIST {
        throw ShareError.storage("cannot create the App Group folder \(path.text): \(error)")
      }
    }
  }

  /// The whole file at `path`; nil when there is none; throws when it cannot be read. The
  /// corresponding C functions are `open` and `read`.
  static func contents(of path: FilePath) throws -> [UInt8]? {
    let opened = withPath(path) { cPath in valueOrErrno { system_open(cPath, _O_RDONLY | _O_CLOEXEC) } }
    let descriptor: Int32
    switch opened {
    case .success(let opened): descriptor = opened
    case .failure(let error) where error.rawValue == _ENOENT: return nil
    case .failure: throw ShareError.storage("cannot read \(path.text)")
    }
    defer { _ = system_close(descriptor) }
    guard case .success(let bytes) = DescriptorIO.readToEnd(descriptor) else {
      throw ShareError.storage("cannot read \(path.text)")
    }
    return bytes
  }

  /// Makes the new file `path` (never one that exists) with `mode` and `bytes` in it. The
  /// corresponding C functions are `open`, `write` and `close`.
  static func createFile(_ path: FilePath, contents bytes: [UInt8], mode: UInt32) -> Bool {
    let descriptor = withPath(path) { system_open($0, _O_WRONLY | _O_CREAT | _O_EXCL | _O_CLOEXEC, mode) }
    guard descriptor >= 0 else { return false }
    let written = write(bytes, to: descriptor)
    return system_close(descriptor) == 0 && written
  }

  /// ``replace(_:with:)`` on byte paths. The corresponding C function is `rename`.
  static func replace(_ destination: FilePath, with source: FilePath) throws {
    let renamed = withPath(source) { from in
      withPath(destination) { to in valueOrErrno { system_rename(from, to) } }
    }
    if case .failure(let error) = renamed {
      throw ShareError.storage("cannot move \(source.text) to \(destination.text): \(error)")
    }
  }

  /// Removes the file `path`, quietly. The corresponding C function is `unlink`.
  static func remove(_ path: FilePath) {
    _ = withPath(path) { system_unlink($0) }
  }

  /// ``withExclusiveLock(onFile:_:)`` on a byte path. The corresponding C functions are `open`
  /// and `flock`.
  static func withExclusiveLock<Result>(onFile path: FilePath, _ body: () throws -> Result) throws -> Result {
    let opened = withPath(path) { cPath in
      valueOrErrno { system_open(cPath, _O_RDWR | _O_CREAT | _O_CLOEXEC, 0o600) }
    }
    let descriptor: Int32
    switch opened {
    case .success(let opened): descriptor = opened
    case .failure(let error): throw ShareError.storage("cannot open the lock file \(path.text): \(error)")
    }
    defer { _ = system_close(descriptor) }
    if case .failure(let error) = valueOrErrno({ system_flock(descriptor, _LOCK_EX) }) {
      throw ShareError.storage("cannot lock \(path.text): \(error)")
    }
    return try body()
  }
}
