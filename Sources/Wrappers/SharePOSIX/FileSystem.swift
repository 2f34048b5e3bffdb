internal import Glibc
internal import ShareSyscalls

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

  init(_ status: CInterop.FileStatus) {
    switch status.st_mode & _S_IFMT {
    case _S_IFREG: node = .regular
    case _S_IFDIR: node = .directory
    case _S_IFLNK: node = .symbolicLink
    case _S_IFCHR: node = .characterDevice
    case _S_IFBLK: node = .blockDevice
    case _S_IFIFO: node = .fifo
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
      try check("open", subject: String(decoding: path, as: UTF8.self)) {
        system_open(cPath, _O_RDONLY | _O_CLOEXEC)
      }
    }
    return FileDescriptor(raw: raw)
  }

  /// Creates `path` for writing, failing with `EEXIST` when anything (even a dangling symbolic
  /// link) is already there (`O_CREAT | O_EXCL`): a file is never overwritten.
  public static func createNew(_ path: [UInt8], mode: UInt32 = 0o644) throws(SystemError) -> FileDescriptor {
    let raw = try withCString(path) { cPath throws(SystemError) in
      try check("open", subject: String(decoding: path, as: UTF8.self)) {
        system_open(cPath, _O_WRONLY | _O_CREAT | _O_EXCL | _O_CLOEXEC, mode)
      }
    }
    return FileDescriptor(raw: raw)
  }

  /// The open file's status (`fstat`).
  public func status() throws(SystemError) -> FileStatus {
    var result = CInterop.FileStatus()
    let fd = rawValue
    try check("fstat") { system_fstat(fd, &result) }
    return FileStatus(result)
  }

  /// Writes the file's data to the disk before returning (`fsync`).
  public func synchronize() throws(SystemError) {
    let fd = rawValue
    try check("fsync") { system_fsync(fd) }
  }
}

/// Path operations on byte paths, for names that are not UTF-8.
public enum FileSystem {
  /// The status of the file `path` names, following symbolic links (`stat`).
  public static func status(_ path: [UInt8]) throws(SystemError) -> FileStatus {
    var result = CInterop.FileStatus()
    // The path is not taken into the call's closure: the service stats a thousand files a call,
    // and holding on to each path there cost more than the call itself.
    if let code = withCString(path, { cPath in failure { system_stat(cPath, &result) } }) {
      throw SystemError(call: "stat", errno: code, subject: String(decoding: path, as: UTF8.self))
    }
    return FileStatus(result)
  }

  /// The status of `path` itself, a symbolic link not followed (`lstat`).
  public static func linkStatus(_ path: [UInt8]) throws(SystemError) -> FileStatus {
    var status = CInterop.FileStatus()
    if let code = withCString(path, { cPath in failure { system_lstat(cPath, &status) } }) {
      throw SystemError(call: "lstat", errno: code, subject: String(decoding: path, as: UTF8.self))
    }
    return FileStatus(status)
  }

  /// Up to `count` bytes from the start of the regular file at `path`, read as GIO's local
  /// backend reads a file to guess its type: without touching its access time where that is
  /// allowed, and never waiting (a file swapped for a FIFO since it was looked at); nil when it
  /// cannot be opened or is no longer a regular file.
  public static func readPrefix(of path: [UInt8], count: Int) -> [UInt8]? {
    // O_NOATIME is refused (EPERM) for other users' files.
    let flags = _O_RDONLY | _O_NONBLOCK | _O_CLOEXEC
    let descriptor: Int32 = withCString(path) { cPath in
      switch valueOrErrno({ system_open(cPath, flags | _O_NOATIME) }) {
      case .success(let descriptor): return descriptor
      case .failure(let error) where error.rawValue == _EPERM: return system_open(cPath, flags)
      case .failure: return -1
      }
    }
    guard descriptor >= 0 else { return nil }
    defer { _ = system_close(descriptor) }
    var opened = CInterop.FileStatus()
    guard system_fstat(descriptor, &opened) == 0, opened.st_mode & _S_IFMT == _S_IFREG else { return nil }
    var failed = false
    // Not zeroed first: the reads fill what is kept (64 KiB of `mime.cache` for every `list`).
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
      filled = 0
      // A read of a regular file stops short only at its end or for a signal.
      while filled < count {
        let start = filled
        switch valueOrErrno({ system_read(descriptor, buffer.baseAddress! + start, count - start) }) {
        case .success(0): return
        case .success(let read): filled += read
        case .failure:
          failed = true
          return
        }
      }
    }
    return failed ? nil : bytes
  }

  /// Gives the file `existing` the second name `new`, failing with `EEXIST` when `new` exists
  /// (`link`): the way to put a finished file in place without ever replacing another.
  public static func link(_ existing: [UInt8], as new: [UInt8]) throws(SystemError) {
    try withCString(existing) { from throws(SystemError) in
      try withCString(new) { to throws(SystemError) in
        _ = try check("link", subject: String(decoding: new, as: UTF8.self)) { system_link(from, to) }
      }
    }
  }

  /// Moves `source` to `destination`, replacing it (`rename`).
  public static func rename(_ source: [UInt8], to destination: [UInt8]) throws(SystemError) {
    try withCString(source) { from throws(SystemError) in
      try withCString(destination) { to throws(SystemError) in
        _ = try check("rename", subject: String(decoding: destination, as: UTF8.self)) {
          system_rename(from, to)
        }
      }
    }
  }

  /// Removes the name `path` (`unlink`).
  public static func remove(_ path: [UInt8]) throws(SystemError) {
    try withCString(path) { cPath throws(SystemError) in
      _ = try check("unlink", subject: String(decoding: path, as: UTF8.self)) { system_unlink(cPath) }
    }
  }
}

extension SystemError {
  /// Whether the error is "file exists" (`EEXIST`).
  public var isAlreadyExists: Bool { errno == _EEXIST }

  /// Whether the file system cannot do what was asked (hard links on FAT, some network file
  /// systems), so that another way must be tried.
  public var isUnsupported: Bool {
    [_EPERM, _ENOTSUP, _EOPNOTSUPP, _ENOSYS, _EMLINK, _EXDEV].contains(errno)
  }

}

extension FileSystem {
  /// Writes `bytes` to `path` through a temporary file in the same folder (`.NAME.PID.tmp`),
  /// given `mode` before its name appears, synced and renamed over `path`: a reader at any moment
  /// sees the old file or the new one. The C functions are `open`, `write`, `fchmod`, `fsync`,
  /// `rename`.
  public static func writeAtomically(_ bytes: [UInt8], to path: [UInt8], mode: UInt32) throws(SystemError) {
    let slash = path.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? path.startIndex
    let temporary =
      Array(path[..<slash]) + Array(".".utf8) + path[slash...] + Array(".\(system_getpid()).tmp".utf8)
    let subject = String(decoding: path, as: UTF8.self)
    let raw = try withCString(temporary) { cPath throws(SystemError) in
      try check("open", subject: subject) {
        system_open(cPath, _O_WRONLY | _O_CREAT | _O_TRUNC | _O_CLOEXEC | _O_NOFOLLOW, mode)
      }
    }
    let file = FileDescriptor(raw: raw)
    do {
      try file.write(bytes)
      // The umask may have narrowed the mode `open` got; some readers need the x bits.
      try check("fchmod", subject: subject) { system_fchmod(raw, mode) }
      try check("fsync", subject: subject) { system_fsync(raw) }
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
    let raw = withCString(path) { system_open($0, _O_RDWR | _O_CREAT | _O_CLOEXEC, 0o644) }
    guard raw >= 0 else { return try body() }
    let lock = FileDescriptor(raw: raw)
    defer { lock.close() }
    _ = valueOrErrno { system_flock(raw, _LOCK_EX) }
    return try body()
  }

  /// Creates the folder `path` with `mode` (`mkdir`); one that exists already is no failure.
  public static func makeDirectory(_ path: [UInt8], mode: UInt32 = 0o755) throws(SystemError) {
    try withCString(path) { cPath throws(SystemError) in
      if case .failure(let error) = valueOrErrno({ system_mkdir(cPath, mode) }), error.rawValue != _EEXIST {
        throw SystemError(call: "mkdir", error, subject: String(decoding: path, as: UTF8.self))
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
    withCString(path) { system_rmdir($0) } == 0
  }
}
