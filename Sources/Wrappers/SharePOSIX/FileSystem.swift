import Glibc

/// What `stat(2)` says about a file, as much as the share services need.
public struct FileStatus: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    case regular
    case directory
    case other
  }

  public var kind: Kind
  /// The size in bytes.
  public var size: UInt64
  /// The permission bits (`0o7777`).
  public var permissions: UInt32

  init(_ status: stat) {
    switch status.st_mode & S_IFMT {
    case S_IFREG: kind = .regular
    case S_IFDIR: kind = .directory
    default: kind = .other
    }
    size = UInt64(max(0, status.st_size))
    permissions = UInt32(status.st_mode & 0o7777)
  }
}

extension FileDescriptor {
  /// Opens `path` (any bytes) for reading.
  public static func openForReading(_ path: [UInt8]) throws(SystemError) -> FileDescriptor {
    let raw = try withCString(path) { cPath throws(SystemError) in
      try check("open", subject: String(decoding: path, as: UTF8.self)) { open(cPath, O_RDONLY | O_CLOEXEC) }
    }
    return FileDescriptor(raw: raw)
  }

  /// Creates `path` for writing, failing with `EEXIST` when anything (even a dangling symbolic
  /// link) is already there (`O_CREAT | O_EXCL`): a file is never overwritten.
  public static func createNew(_ path: [UInt8], mode: UInt32 = 0o644) throws(SystemError) -> FileDescriptor {
    let raw = try withCString(path) { cPath throws(SystemError) in
      try check("open", subject: String(decoding: path, as: UTF8.self)) {
        open(cPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
      }
    }
    return FileDescriptor(raw: raw)
  }

  /// The open file's status (`fstat`).
  public func status() throws(SystemError) -> FileStatus {
    var result = stat()
    let fd = rawValue
    try check("fstat") { fstat(fd, &result) }
    return FileStatus(result)
  }

  /// Writes the file's data to the disk before returning (`fsync`).
  public func synchronize() throws(SystemError) {
    let fd = rawValue
    try check("fsync") { fsync(fd) }
  }
}

/// Path operations on byte paths, for names that are not UTF-8.
public enum FileSystem {
  /// The status of the file `path` names, following symbolic links (`stat`).
  public static func status(_ path: [UInt8]) throws(SystemError) -> FileStatus {
    var result = stat()
    try withCString(path) { cPath throws(SystemError) in
      _ = try check("stat", subject: String(decoding: path, as: UTF8.self)) { stat(cPath, &result) }
    }
    return FileStatus(result)
  }

  /// Gives the file `existing` the second name `new`, failing with `EEXIST` when `new` exists
  /// (`link`): the way to put a finished file in place without ever replacing another.
  public static func link(_ existing: [UInt8], as new: [UInt8]) throws(SystemError) {
    try withCString(existing) { from throws(SystemError) in
      try withCString(new) { to throws(SystemError) in
        _ = try check("link", subject: String(decoding: new, as: UTF8.self)) { Glibc.link(from, to) }
      }
    }
  }

  /// Moves `source` to `destination`, replacing it (`rename`).
  public static func rename(_ source: [UInt8], to destination: [UInt8]) throws(SystemError) {
    try withCString(source) { from throws(SystemError) in
      try withCString(destination) { to throws(SystemError) in
        _ = try check("rename", subject: String(decoding: destination, as: UTF8.self)) {
          Glibc.rename(from, to)
        }
      }
    }
  }

  /// Removes the name `path` (`unlink`).
  public static func remove(_ path: [UInt8]) throws(SystemError) {
    try withCString(path) { cPath throws(SystemError) in
      _ = try check("unlink", subject: String(decoding: path, as: UTF8.self)) { unlink(cPath) }
    }
  }
}

extension SystemError {
  /// Whether the error is "file exists" (`EEXIST`).
  public var isAlreadyExists: Bool { errno == EEXIST }

  /// Whether the file system cannot do what was asked (hard links on FAT, some network file
  /// systems), so that another way must be tried.
  public var isUnsupported: Bool {
    [EPERM, ENOTSUP, EOPNOTSUPP, ENOSYS, EMLINK, EXDEV].contains(errno)
  }

}

extension FileSystem {
  /// Writes `bytes` to `path` through a temporary file in the same folder (`.NAME.PID.tmp`),
  /// given `mode` before its name appears, synced and renamed over `path`: a reader at any moment
  /// sees the old file or the new one. The C functions are `open`, `write`, `fchmod`, `fsync`,
  /// `rename`.
  public static func writeAtomically(_ bytes: [UInt8], to path: [UInt8], mode: UInt32) throws(SystemError) {
    let slash = path.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? path.startIndex
    let temporary = Array(path[..<slash]) + Array(".".utf8) + path[slash...] + Array(".\(getpid()).tmp".utf8)
    let subject = String(decoding: path, as: UTF8.self)
    let raw = try withCString(temporary) { cPath throws(SystemError) in
      try check("open", subject: subject) {
        open(cPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode)
      }
    }
    let file = FileDescriptor(raw: raw)
    do {
      try file.write(bytes)
      // The umask may have narrowed the mode `open` got; some readers need the x bits.
      try check("fchmod", subject: subject) { fchmod(raw, mode) }
      try check("fsync", subject: subject) { fsync(raw) }
      file.close()
      try FileSystem.rename(temporary, to: path)
    } catch {
      file.close()
      try? FileSystem.remove(temporary)
      throw error
    }
  }

  /// Runs `body` holding an exclusive `flock` on `path` (created if need be); without a lock
  /// file (a read-only folder) `body` runs unlocked.
  public static func withExclusiveLock<T>(onFile path: [UInt8], _ body: () throws -> T) rethrows -> T {
    let raw = withCString(path) { open($0, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
    guard raw >= 0 else { return try body() }
    let lock = FileDescriptor(raw: raw)
    defer { lock.close() }
    while flock(raw, LOCK_EX) != 0 && errno == EINTR {}
    return try body()
  }

  /// Creates the folder `path` with `mode` (`mkdir`); one that exists already is no failure.
  public static func makeDirectory(_ path: [UInt8], mode: UInt32 = 0o755) throws(SystemError) {
    try withCString(path) { cPath throws(SystemError) in
      guard mkdir(cPath, mode) == 0 || errno == EEXIST else {
        throw SystemError(call: "mkdir", errno: errno, subject: String(decoding: path, as: UTF8.self))
      }
    }
  }

  /// Removes the folder `path` when it is empty (`rmdir`); returns whether it did.
  @discardableResult
  public static func removeEmptyDirectory(_ path: [UInt8]) -> Bool {
    withCString(path) { rmdir($0) } == 0
  }
}
