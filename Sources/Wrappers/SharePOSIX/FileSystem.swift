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

  /// Whether anything, even a dangling symbolic link, has the name `path` (`lstat`).
  public static func exists(_ path: [UInt8]) -> Bool {
    var result = stat()
    return withCString(path) { lstat($0, &result) } == 0
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

  /// Whether the error is "file name too long" (`ENAMETOOLONG`).
  public var isNameTooLong: Bool { errno == ENAMETOOLONG }
}
