internal import Glibc
internal import ShareSyscalls

/// Stream sockets in the file system (`AF_UNIX`): how a KDE Purpose host talks to its plugin
/// process. Every descriptor is close-on-exec, so that no program started meanwhile holds the
/// connection open after its owner is done.
public enum UnixSocket {
  /// Connects to the socket at `path` (bytes, as any path).
  ///
  /// - Throws: ``SystemError`` as `socket` or `connect` fail; a path longer than an address
  ///   holds is `ENAMETOOLONG`.
  public static func connect(to path: [UInt8]) throws(SystemError) -> FileDescriptor {
    let socket = try open()
    try withAddress(path) { address, length throws(SystemError) in
      _ = try check("connect", subject: String(decoding: path, as: UTF8.self)) {
        system_connect(socket.rawValue, address, length)
      }
    }
    return socket
  }

  /// A socket listening at `path`, which must not exist yet.
  public static func listen(at path: [UInt8]) throws(SystemError) -> Listener {
    let socket = try open()
    try withAddress(path) { address, length throws(SystemError) in
      _ = try check("bind", subject: String(decoding: path, as: UTF8.self)) {
        system_bind(socket.rawValue, address, length)
      }
    }
    _ = try check("listen") { system_listen(socket.rawValue, 4) }
    return Listener(socket: socket)
  }

  /// A listening socket.
  public final class Listener: Sendable {
    private let socket: FileDescriptor

    init(socket: FileDescriptor) {
      self.socket = socket
    }

    /// Waits at most `timeout` seconds for a connection; nil when none came.
    public func accept(timeout: Double?) throws(SystemError) -> FileDescriptor? {
      guard try socket.waitReadable(timeout: timeout) else { return nil }
      let raw = try check("accept") { system_accept(socket.rawValue) }
      _ = system_fcntl(raw, _F_SETFD, _FD_CLOEXEC)
      return FileDescriptor(raw: raw)
    }

    public func close() {
      socket.close()
    }
  }

  /// Sends `bytes` on `socket` with `descriptors` attached (`SCM_RIGHTS`): the receiver gets
  /// its own duplicates of them.
  public static func send(_ bytes: [UInt8], descriptors: [FileDescriptor] = [], on socket: FileDescriptor)
    throws(SystemError)
  {
    let raw = descriptors.map(\.rawValue)
    if case .failure(let error) = SocketMessages.send(bytes, descriptors: raw, on: socket.rawValue) {
      throw SystemError(call: "sendmsg", errno: error.rawValue)
    }
    withExtendedLifetime(descriptors) {}
  }

  /// What one read of a socket brought.
  public struct Message: Sendable {
    /// The bytes; none at the end of the stream.
    public var bytes: [UInt8]
    /// The descriptors sent with them, close-on-exec, in the order they were sent.
    public var descriptors: [FileDescriptor]
    /// The sender attached more descriptors than are taken at once (64); the rest were closed.
    public var descriptorsDropped: Bool
  }

  /// Reads at most `capacity` bytes of `socket` and the descriptors sent with them.
  public static func receive(on socket: FileDescriptor, capacity: Int = 65536) throws(SystemError) -> Message
  {
    switch SocketMessages.receive(on: socket.rawValue, capacity: capacity) {
    case .success(let received):
      return Message(
        bytes: received.bytes, descriptors: received.descriptors.map(FileDescriptor.init(raw:)),
        descriptorsDropped: received.descriptorsDropped)
    case .failure(let error):
      throw SystemError(call: "recvmsg", errno: error.rawValue)
    }
  }

  private static func open() throws(SystemError) -> FileDescriptor {
    FileDescriptor(raw: try check("socket") { system_socket(_AF_UNIX, _SOCK_STREAM | _SOCK_CLOEXEC, 0) })
  }

  /// Calls `body` with `path` as a socket address and its length.
  private static func withAddress(
    _ path: [UInt8],
    _ body: (UnsafePointer<CInterop.SocketAddress>, UInt32) throws(SystemError) -> Void
  ) throws(SystemError) {
    var address = CInterop.LocalSocketAddress()
    address.sun_family = CInterop.AddressFamily(_AF_UNIX)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard !path.isEmpty, path.count < capacity, !path.contains(0) else {
      throw SystemError(call: "connect", errno: _ENAMETOOLONG, subject: String(decoding: path, as: UTF8.self))
    }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      buffer.copyBytes(from: path)
      buffer[path.count] = 0
    }
    let length = UInt32(MemoryLayout<CInterop.AddressFamily>.size + path.count + 1)
    let result: Result<Void, SystemError> = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: CInterop.SocketAddress.self, capacity: 1) { generic in
        Result { () throws(SystemError) in try body(generic, length) }
      }
    }
    try result.get()
  }
}
