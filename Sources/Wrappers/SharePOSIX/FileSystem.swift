import Glibc

/// What `stat(2)` says about a file, as much as the share services and GIO's detection need.
public struct FileStatus: Hashable, Sendable {
  /// What a service does with a file: copy a regular file, walk a directory, refuse the rest.
  public enum Kind: Hashable, Sendable {
    case regular
    case directory
    case other
  }

  /// The node's type, as `st_mode` tells it.
  public enum Node: Hashable, Sendable {
    case regular, directory, symbolicLink, characterDevice, blockDevice, fifo, socket
  }

  public var node: Node
  /// The size in bytes.
  public var size: UInt64
  /// The permission bits (`0o7777`).
  public var permissions: UInt32
  /// The device and inode: which file this is, whatever name reached it.
  public var device: UInt64
  public var inode: UInt64
  /// The last change of the content (`st_mtim`), in nanoseconds since the epoch.
  public var modified: Int64

  public var kind: Kind {
    switch node {
    case .regular: .regular
    case .directory: .directory
    default: .other
    }
  }

  init(_ status: stat) {
    switch status.st_mode & S_IFMT {
    case S_IFREG: node = .regular
    case S_IFDIR: node = .directory
    case S_IFLNK: node = .symbolicLink
    case S_IFCHR: node = .characterDevice
    case S_IFBLK: node = .blockDevice
    case S_IFIFO: node = .fifo
    default: node = .socket
    }
    size = UInt64(max(0, status.st_size))
    permissions = UInt32(status.st_mode & 0o7777)
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
    modified = Int64(status.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_mtim.tv_nsec)
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
    // The path is not taken into the call's closure: the service stats a thousand files a call,
    // and holding on to each path there cost more than the call itself.
    if let code = withCString(path, { cPath in failure { stat(cPath, &result) } }) {
      throw SystemError(call: "stat", errno: code, subject: String(decoding: path, as: UTF8.self))
    }
    return FileStatus(result)
  }

  /// The status of `path` itself, a symbolic link not followed (`lstat`).
  public static func linkStatus(_ path: [UInt8]) throws(SystemError) -> FileStatus {
    var status = stat()
    if let code = withCString(path, { cPath in failure { lstat(cPath, &status) } }) {
      throw SystemError(call: "lstat", errno: code, subject: String(decoding: path, as: UTF8.self))
    }
    return FileStatus(status)
  }

  /// Up to `count` bytes from the start of the regular file at `path`, read as GIO's local
  /// backend reads a file to guess its type: without touching its access time where that is
  /// allowed, and never waiting (a file swapped for a FIFO since it was looked at); nil when it
  /// cannot be opened or is no longer a regular file.
  public static func readPrefix(of path: [UInt8], count: Int) -> [UInt8]? {
    // O_NOATIME, which Glibc's module leaves out (it needs _GNU_SOURCE); the same on every
    // Linux architecture Swift runs on. It is refused (EPERM) for other users' files.
    let noAccessTime: Int32 = 0o1000000
    let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC
    let descriptor: Int32 = withCString(path) { cPath in
      let first = open(cPath, flags | noAccessTime)
      return first < 0 && errno == EPERM ? open(cPath, flags) : first
    }
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var opened = stat()
    guard fstat(descriptor, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG else { return nil }
    var failed = false
    // Not zeroed first: the reads fill what is kept (64 KiB of `mime.cache` for every `list`).
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
      filled = 0
      // A read of a regular file stops short only at its end or for a signal.
      while filled < count {
        let read = Glibc.read(descriptor, buffer.baseAddress! + filled, count - filled)
        if read < 0 && errno == EINTR { continue }
        guard read >= 0 else {
          failed = true
          return
        }
        if read == 0 { break }
        filled += read
      }
    }
    return failed ? nil : bytes
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

  /// Creates the folder `path` and any missing folders above it (`mkdir -p`).
  public static func makeDirectories(_ path: [UInt8], mode: UInt32 = 0o755) throws(SystemError) {
    var prefixes: [[UInt8]] = []
    for (index, byte) in path.enumerated() where byte == UInt8(ascii: "/") && index > 0 {
      prefixes.append(Array(path[..<index]))
    }
    prefixes.append(path)
    for prefix in prefixes where prefix.last != UInt8(ascii: "/") {
      try makeDirectory(prefix, mode: mode)
    }
  }

  /// Removes the folder `path` when it is empty (`rmdir`); returns whether it did.
  @discardableResult
  public static func removeEmptyDirectory(_ path: [UInt8]) -> Bool {
    withCString(path) { rmdir($0) } == 0
  }
}
