internal import Glibc
internal import ShareSyscalls

// Folders, files and the environment read as bytes: a name that is not UTF-8 is a valid name, and
// Foundation's `String` APIs (`contentsOfDirectory`, `ProcessInfo.environment`) repair it into a
// different one that names nothing.

extension FileSystem {
  /// The names in the folder `path`, byte for byte, without `.` and `..` (`opendir`, `readdir`);
  /// nil when the folder cannot be opened.
  public static func entries(ofDirectory path: [UInt8]) -> [[UInt8]]? {
    guard let directory = withCString(path, { system_opendir($0) }) else { return nil }
    defer { _ = system_closedir(directory) }
    var names: [[UInt8]] = []
    while let entry = system_readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
      if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
      names.append(name)
    }
    return names
  }

  /// Whether this process may execute `path` (`access(X_OK)`; a folder also answers yes).
  public static func isExecutable(_ path: [UInt8]) -> Bool {
    withCString(path) { system_access($0, _X_OK) } == 0
  }

  /// Whether this process may read `path` (`access(R_OK)`).
  public static func isReadable(_ path: [UInt8]) -> Bool {
    withCString(path) { system_access($0, _R_OK) } == 0
  }

  /// Where the symbolic link `path` leads, as its bytes (`readlink`); nil when it is no link.
  public static func linkDestination(_ path: [UInt8]) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: Int(_PATH_MAX) + 1)
    let count = withCString(path) { cPath in
      buffer.withUnsafeMutableBytes {
        system_readlink(cPath, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count)
      }
    }
    guard count >= 0, count < buffer.count else { return nil }
    return Array(buffer[..<count])
  }

  /// The whole regular file at `path` when it is at most `maximumSize` bytes, opened without
  /// waiting (a FIFO put in its place since it was looked at is refused, not waited on); nil when
  /// it cannot be opened, is not a regular file or is larger.
  public static func contents(ofRegularFile path: [UInt8], maximumSize: Int) -> [UInt8]? {
    let descriptor = withCString(path) { system_open($0, _O_RDONLY | _O_NONBLOCK | _O_CLOEXEC) }
    guard descriptor >= 0 else { return nil }
    let file = FileDescriptor(raw: descriptor)
    defer { file.close() }
    var opened = CInterop.FileStatus()
    guard system_fstat(descriptor, &opened) == 0, opened.st_mode & _S_IFMT == _S_IFREG,
      opened.st_size <= maximumSize
    else { return nil }
    var bytes: [UInt8] = []
    let expected = Int(opened.st_size)
    while bytes.count <= maximumSize {
      // A buffer the file's size and one byte more (to see it grow), not `maximumSize`: an
      // `Info.plist` of 2 KiB must not cost a zeroed MiB. A file that grows is read in pieces.
      let wanted = bytes.count <= expected ? expected + 1 - bytes.count : 64 << 10
      guard let chunk = try? file.read(upTo: min(wanted, maximumSize + 1 - bytes.count)) else { return nil }
      if chunk.isEmpty { break }
      bytes += chunk
    }
    return bytes.count <= maximumSize ? bytes : nil
  }
}

extension FileSystem {
  /// Removes `path` and, when it is a folder (not a link to one), everything in it, depth first
  /// (`lstat`, `unlink`, `rmdir`): a link is removed, never followed.
  public static func removeTree(_ path: [UInt8]) throws(SystemError) {
    if try linkStatus(path).node == .directory {
      for name in entries(ofDirectory: path) ?? [] {
        try removeTree(path + [UInt8(ascii: "/")] + name)
      }
      try withCString(path) { cPath throws(SystemError) in
        _ = try check("rmdir", subject: String(decoding: path, as: UTF8.self)) { system_rmdir(cPath) }
      }
    } else {
      try remove(path)
    }
  }
}

extension CurrentProcess {
  /// This process's environment, each value byte for byte: `ProcessInfo.environment` would
  /// repair a `HOME` or `XDG_DATA_HOME` that is not UTF-8 into a folder that does not exist.
  /// A name given twice keeps its first value, as `getenv` does. The corresponding C variable is
  /// `environ`.
  public static var environmentBytes: [String: [UInt8]] {
    ProcessEnvironment.bytes
  }

  /// `environment` as bytes: a value that is the lossy decoding of this process's own value of
  /// that name (as `ProcessInfo.environment` gives one that is not UTF-8) is taken as the bytes
  /// this process got; any other value as its UTF-8.
  public static func environmentBytes(restoring environment: [String: String]) -> [String: [UInt8]] {
    ProcessEnvironment.bytes(restoring: environment, inherited: ProcessEnvironment.bytes)
  }
}
