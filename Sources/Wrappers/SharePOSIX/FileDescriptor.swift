internal import Glibc
internal import ShareSyscalls
import Synchronization

/// An open file descriptor that closes itself. Raw descriptors never leave this module.
public final class FileDescriptor: Sendable {
  // Behind a mutex so that a reader thread and a canceller cannot close it twice.
  private let raw: Mutex<Int32>

  init(raw: Int32) {
    self.raw = Mutex(raw)
  }

  /// Takes charge of `raw`, a descriptor another wrapper received (libdbus hands over a
  /// duplicate of each one in a message): closed when this is.
  package convenience init(adopting raw: Int32) {
    self.init(raw: raw)
  }

  deinit {
    close()
  }

  var rawValue: Int32 { raw.withLock { $0 } }

  /// Calls `body` with the raw descriptor, for another wrapper's C library to read or duplicate
  /// it (libdbus sending it in a message); it must not keep or close it.
  package func withRawValue<T>(_ body: (Int32) -> T) -> T {
    body(rawValue)
  }

  /// Closes the descriptor now; later calls do nothing.
  public func close() {
    raw.withLock { fd in
      if fd >= 0 { _ = system_close(fd) }
      fd = -1
    }
  }

  /// Writes all of `bytes`; a reader that went away (`EPIPE`) is an error, never a signal.
  public func write(_ bytes: [UInt8]) throws(SystemError) {
    if case .failure(let error) = DescriptorIO.writeAll(bytes, to: rawValue) {
      throw SystemError(call: "write", error)
    }
  }

  /// Reads up to `limit` bytes; an empty result means end of file.
  public func read(upTo limit: Int = 65536) throws(SystemError) -> [UInt8] {
    let fd = rawValue
    var buffer = [UInt8](repeating: 0, count: limit)
    let count = try check("read") {
      buffer.withUnsafeMutableBytes { system_read(fd, $0.baseAddress!, limit) }
    }
    buffer.removeSubrange(count...)
    return buffer
  }

  /// Waits until the descriptor is readable (data or end of file), at most `timeout` seconds
  /// (`nil`: no limit). Returns whether it is.
  public func waitReadable(timeout: Double?) throws(SystemError) -> Bool {
    var descriptor = CInterop.PollDescriptor(fd: rawValue, events: _POLLIN, revents: 0)
    let milliseconds = timeout.map { Int32(max(0, min($0 * 1000, Double(Int32.max)))) } ?? -1
    let ready = try check("poll") { system_poll(&descriptor, 1, milliseconds) }
    return ready > 0
  }

  /// Waits until any of `descriptors` is readable, at most `timeout` seconds (`nil`: no limit),
  /// rounded up to the millisecond so that a wait never ends just before its limit and spins.
  /// Returns which are readable (or at their end, or failed: a read then says so).
  static func waitReadable(_ descriptors: [FileDescriptor], timeout: Double?) throws(SystemError) -> [Bool] {
    var polled = descriptors.map { CInterop.PollDescriptor(fd: $0.rawValue, events: _POLLIN, revents: 0) }
    let milliseconds = timeout.map { Int32(max(0, min(($0 * 1000).rounded(.up), Double(Int32.max)))) } ?? -1
    try check("poll") { system_poll(&polled, polled.count, milliseconds) }
    return polled.map { $0.revents != 0 }
  }

  /// Reads until end of file.
  public func readToEnd() throws(SystemError) -> [UInt8] {
    try DescriptorIO.readToEnd(rawValue).mapError { SystemError(call: "read", $0) }.get()
  }

  /// A descriptor of this process's standard input (0) or output (1): a close-on-exec duplicate,
  /// so that closing it leaves the stream itself open, and no program started meanwhile holds it.
  public static func standard(_ number: StandardDescriptor) throws(SystemError) -> FileDescriptor {
    FileDescriptor(raw: try check("fcntl") { system_fcntl(number.rawValue, _F_DUPFD_CLOEXEC, 3) })
  }

  /// A close-on-exec duplicate numbered `lowest` or above (`F_DUPFD_CLOEXEC`).
  func duplicate(atLeast lowest: Int32) throws(SystemError) -> FileDescriptor {
    FileDescriptor(raw: try check("fcntl") { system_fcntl(rawValue, _F_DUPFD_CLOEXEC, lowest) })
  }

  /// The standard streams ``standard(_:)`` duplicates.
  public enum StandardDescriptor: Int32, Sendable {
    case input = 0
    case output = 1
  }

  /// A pipe: (read end, write end), both close-on-exec.
  public static func pipe() throws(SystemError) -> (read: FileDescriptor, write: FileDescriptor) {
    var fds: [Int32] = [0, 0]
    try check("pipe2") { system_pipe2(&fds, _O_CLOEXEC) }
    return (FileDescriptor(raw: fds[0]), FileDescriptor(raw: fds[1]))
  }

  /// Opens `path` for appending, creating it with mode 0600.
  public static func openForAppending(_ path: [UInt8]) throws(SystemError) -> FileDescriptor {
    let raw = try withCString(path) { cPath throws(SystemError) in
      try check("open", subject: String(decoding: path, as: UTF8.self)) {
        system_open(cPath, _O_WRONLY | _O_CREAT | _O_APPEND | _O_CLOEXEC, 0o600)
      }
    }
    return FileDescriptor(raw: raw)
  }

  /// A file in memory holding `bytes`, positioned at its start, close-on-exec: something to hand a
  /// child as its standard input that no one has to keep writing (`memfd_create`).
  public static func inMemory(named name: String, containing bytes: [UInt8]) throws(SystemError)
    -> FileDescriptor
  {
    // MFD_CLOEXEC: the child gets it only where it is put, as its standard input.
    let raw = try check("memfd_create", subject: name) {
      name.withCString { system_memfd_create($0, _MFD_CLOEXEC) }
    }
    let file = FileDescriptor(raw: raw)
    do throws(SystemError) {
      try file.write(bytes)
      _ = try check("lseek") { system_lseek(raw, 0, _SEEK_SET) }
    } catch {
      file.close()
      throw error
    }
    return file
  }

  /// Opens `/dev/null` for reading and writing.
  public static func null() throws(SystemError) -> FileDescriptor {
    FileDescriptor(
      raw: try check("open", subject: "/dev/null") { system_open("/dev/null", _O_RDWR | _O_CLOEXEC) })
  }
}

extension FileDescriptor {
  /// Creates (or truncates) `path` for writing with `mode`.
  public static func create(_ path: [UInt8], mode: UInt32 = 0o644) throws(SystemError) -> FileDescriptor {
    let raw = try withCString(path) { cPath throws(SystemError) in
      try check("open", subject: String(decoding: path, as: UTF8.self)) {
        system_open(cPath, _O_WRONLY | _O_CREAT | _O_TRUNC | _O_CLOEXEC, mode)
      }
    }
    return FileDescriptor(raw: raw)
  }
}
