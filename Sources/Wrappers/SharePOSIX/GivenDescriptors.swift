internal import ShareSyscalls

/// Files another process hands over as descriptors (a sandboxed app, over D-Bus): what they are,
/// read without moving their offset (which is shared with the sender), copied without holding
/// them in memory.
extension FileDescriptor {
  /// Why a descriptor cannot be shared.
  public enum SharingProblem: Error, Equatable, Sendable {
    /// Not a regular file: a folder, a socket, a FIFO, a device.
    case notARegularFile(FileStatus.Node)
    /// Open for writing only: the sender did not let it be read.
    case writeOnly
    /// An `O_PATH` descriptor opened without following a link (a link itself).
    case aLink
    /// It cannot be looked at or read (the system's words).
    case unreadable(String)
  }

  /// A descriptor to read the file from, and its status, when it is a regular file open for
  /// reading. An `O_PATH` descriptor (which names a file without opening it) is opened for
  /// reading through `/proc/self/fd`, as xdg-desktop-portal does; any other is read as it is.
  public func openedForSharing() throws(SharingProblem) -> (descriptor: FileDescriptor, status: FileStatus) {
    let fd = rawValue
    let flags = system_fcntl(fd, _F_GETFL)
    guard flags >= 0 else { throw .unreadable(Errno.current.description) }
    let status: FileStatus
    do {
      status = try self.status()
    } catch {
      throw .unreadable(error.reason)
    }
    guard status.node == .regular else { throw .notARegularFile(status.node) }
    if flags & _O_PATH == _O_PATH {
      guard flags & _O_NOFOLLOW == 0 else { throw .aLink }
      let reopened: Int32
      do {
        reopened = try withCString(Array("/proc/self/fd/\(fd)".utf8)) { path throws(SystemError) in
          try check("open") { system_open(path, _O_RDONLY | _O_CLOEXEC | _O_NOCTTY) }
        }
      } catch {
        throw .unreadable(error.reason)
      }
      return (FileDescriptor(raw: reopened), status)
    }
    guard flags & _O_ACCMODE != _O_WRONLY else { throw .writeOnly }
    return (self, status)
  }

  /// Up to `count` bytes from `offset`, fewer at the end (`pread`): the descriptor's own offset,
  /// which its sender shares, stays where it is.
  public func read(at offset: UInt64, upTo count: Int) throws(SystemError) -> [UInt8] {
    let fd = rawValue
    var buffer = [UInt8](repeating: 0, count: count)
    let read = try check("pread") {
      buffer.withUnsafeMutableBytes { system_pread(fd, $0.baseAddress, count, Int64(offset)) }
    }
    buffer.removeSubrange(read...)
    return buffer
  }

  /// Copies the file's first `size` bytes into `destination` a megabyte at a time, never the
  /// whole of it in memory; `shouldStop` is asked between pieces (a cancelled request).
  ///
  /// - Returns: whether all of it was copied (false: stopped, or the file was shorter).
  public func copy(to destination: FileDescriptor, size: UInt64, shouldStop: () -> Bool = { false })
    throws(SystemError) -> Bool
  {
    var offset: UInt64 = 0
    while offset < size {
      if shouldStop() { return false }
      let piece = try read(at: offset, upTo: Int(min(size - offset, 1 << 20)))
      if piece.isEmpty { return false }
      try destination.write(piece)
      offset += UInt64(piece.count)
    }
    return true
  }

  /// The path the kernel names the descriptor's file by, as its sender sees it (inside a
  /// sandbox, a path that means something else here): for a name, never for opening.
  public var linkTarget: [UInt8]? {
    FileSystem.linkDestination(Array("/proc/self/fd/\(rawValue)".utf8))
  }

  /// `/proc/self/fd/N`: a path this process alone can open the descriptor's file by, whatever
  /// namespace its sender is in, while the descriptor is open.
  public var processPath: [UInt8] { Array("/proc/self/fd/\(rawValue)".utf8) }
}

extension ProcessStatus {
  /// The file `name` in the root folder of the process `pid` (`/proc/PID/root/NAME`), when it is
  /// a regular file of at most `maximumSize` bytes, read through descriptors only: the folder is
  /// opened, the file opened in it, and the process asked to still be there afterwards through
  /// its pidfd, so that a pid reused meanwhile cannot answer for another process. How
  /// xdg-desktop-portal reads a Flatpak app's `/.flatpak-info`.
  ///
  /// - Returns: nil when the file is not there (the process is no sandboxed app), or cannot be
  ///   read; the process gone is nil too.
  public static func rootFile(_ name: String, of pid: Int32, maximumSize: Int = 64 << 10) -> [UInt8]? {
    guard pid > 0, case .success(let pidfd) = valueOrErrno({ system_pidfd_open(pid, 0) }) else { return nil }
    let process = FileDescriptor(raw: pidfd)
    let root = withCString(Array("/proc/\(pid)/root".utf8)) {
      system_open($0, _O_RDONLY | _O_DIRECTORY | _O_CLOEXEC | _O_NOCTTY | _O_NONBLOCK)
    }
    guard root >= 0 else { return nil }
    let rootFolder = FileDescriptor(raw: root)
    let file = withCString(Array(name.utf8)) {
      system_openat(rootFolder.rawValue, $0, _O_RDONLY | _O_CLOEXEC | _O_NOCTTY | _O_NONBLOCK | _O_NOFOLLOW)
    }
    guard file >= 0 else { return nil }
    let opened = FileDescriptor(raw: file)
    guard let status = try? opened.status(), status.node == .regular, status.size <= UInt64(maximumSize),
      let contents = try? opened.read(at: 0, upTo: Int(status.size))
    else { return nil }
    // A pidfd becomes readable when its process ends: then the pid may already name another.
    guard (try? process.waitReadable(timeout: 0)) == false else { return nil }
    return contents
  }
}
