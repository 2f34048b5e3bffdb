import Glibc

/// Bytes with descriptors on a local stream socket (`SCM_RIGHTS`), for the broker a sandboxed
/// service asks the host through: SharePOSIX serves it, ShareKit calls it, and neither can use
/// the C library's `CMSG_*` macros, which Swift does not import. The control data is laid out as
/// those macros lay it out: a `struct cmsghdr`, then the descriptors, each part aligned to `size_t`.
package enum SocketMessages {
  /// The most descriptors one message carries (the kernel's `SCM_MAX_FD` is 253).
  package static let maximumDescriptors = 64

  /// `CMSG_ALIGN`.
  private static func aligned(_ length: Int) -> Int {
    let unit = MemoryLayout<Int>.size
    return (length + unit - 1) & ~(unit - 1)
  }

  private static var headerLength: Int { aligned(MemoryLayout<cmsghdr>.size) }

  /// `CMSG_SPACE` for `count` descriptors.
  private static func space(for count: Int) -> Int {
    headerLength + aligned(count * MemoryLayout<Int32>.size)
  }

  /// Sends `bytes` with `descriptors` attached to their first byte, in as many `sendmsg` as it
  /// takes (the descriptors with the first). No SIGPIPE: a peer gone is `EPIPE`. The
  /// corresponding C function is `sendmsg`.
  package static func send(_ bytes: [UInt8], descriptors: [Int32], on socket: Int32) -> Result<Void, Errno> {
    guard descriptors.count <= maximumDescriptors, !bytes.isEmpty || descriptors.isEmpty else {
      return .failure(Errno(rawValue: EINVAL))
    }
    var offset = 0
    var pending = descriptors
    while offset < bytes.count {
      let sent = sendOnce(Array(bytes[offset...]), descriptors: pending, on: socket)
      switch sent {
      case .success(let count):
        offset += count
        pending = []
      case .failure(let error): return .failure(error)
      }
    }
    return .success(())
  }

  /// One `sendmsg`: how many of `bytes` it took.
  private static func sendOnce(_ bytes: [UInt8], descriptors: [Int32], on socket: Int32) -> Result<Int, Errno>
  {
    var control = [UInt8](repeating: 0, count: descriptors.isEmpty ? 0 : space(for: descriptors.count))
    var bytes = bytes
    return control.withUnsafeMutableBytes { control in
      if !descriptors.isEmpty {
        let header = control.baseAddress!.assumingMemoryBound(to: cmsghdr.self)
        header.pointee.cmsg_len = headerLength + descriptors.count * MemoryLayout<Int32>.size
        header.pointee.cmsg_level = SOL_SOCKET
        header.pointee.cmsg_type = Int32(SCM_RIGHTS)
        descriptors.withUnsafeBytes {
          (control.baseAddress! + headerLength).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
        }
      }
      return bytes.withUnsafeMutableBytes { data in
        var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
        return withUnsafeMutablePointer(to: &vector) { vector in
          var message = msghdr()
          message.msg_iov = vector
          message.msg_iovlen = 1
          message.msg_control = descriptors.isEmpty ? nil : control.baseAddress
          message.msg_controllen = descriptors.isEmpty ? 0 : control.count
          return valueOrErrno { system_sendmsg(socket, &message, Int32(MSG_NOSIGNAL)) }
        }
      }
    }
  }

  /// What one `recvmsg` brought: its bytes (none at the end of the stream), and the descriptors
  /// that came with them, close-on-exec and now the caller's to close.
  package struct Received {
    package var bytes: [UInt8]
    package var descriptors: [Int32]
    /// The sender attached more descriptors than were taken; those were closed by the kernel.
    package var descriptorsDropped: Bool
  }

  /// Receives at most `capacity` bytes and the descriptors sent with them. The corresponding C
  /// function is `recvmsg`.
  package static func receive(on socket: Int32, capacity: Int = 65536) -> Result<Received, Errno> {
    var control = [UInt8](repeating: 0, count: space(for: maximumDescriptors))
    var buffer = [UInt8](repeating: 0, count: capacity)
    var flags: Int32 = 0
    var controlLength = 0
    let received: Result<Int, Errno> = control.withUnsafeMutableBytes { control in
      buffer.withUnsafeMutableBytes { data in
        var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
        return withUnsafeMutablePointer(to: &vector) { vector in
          var message = msghdr()
          message.msg_iov = vector
          message.msg_iovlen = 1
          message.msg_control = control.baseAddress
          message.msg_controllen = control.count
          let result = valueOrErrno { system_recvmsg(socket, &message, Int32(MSG_CMSG_CLOEXEC)) }
          flags = message.msg_flags
          controlLength = message.msg_controllen
          return result
        }
      }
    }
    let count: Int
    switch received {
    case .success(let value): count = value
    case .failure(let error): return .failure(error)
    }
    var descriptors: [Int32] = []
    var offset = 0
    // Each control message in turn (`CMSG_NXTHDR`); only `SCM_RIGHTS` is expected.
    while offset + headerLength <= controlLength {
      let (length, level, type) = control.withUnsafeBytes { raw in
        let header = raw.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self)
        return (Int(header.cmsg_len), header.cmsg_level, header.cmsg_type)
      }
      guard length >= headerLength, offset + length <= controlLength else { break }
      if level == SOL_SOCKET, type == Int32(SCM_RIGHTS) {
        let number = (length - headerLength) / MemoryLayout<Int32>.size
        for index in 0..<number {
          descriptors.append(
            control.withUnsafeBytes {
              $0.loadUnaligned(
                fromByteOffset: offset + headerLength + index * MemoryLayout<Int32>.size, as: Int32.self)
            })
        }
      }
      offset += aligned(length)
    }
    return .success(
      Received(
        bytes: Array(buffer[..<count]), descriptors: descriptors,
        descriptorsDropped: flags & Int32(MSG_CTRUNC) != 0))
  }

  /// A new close-on-exec stream socket connected to the local socket at `path`. The
  /// corresponding C functions are `socket` and `connect`.
  package static func connect(to path: [UInt8]) -> Result<Int32, Errno> {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard !path.isEmpty, path.count < capacity, !path.contains(0) else {
      return .failure(Errno(rawValue: ENAMETOOLONG))
    }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      buffer.copyBytes(from: path)
      buffer[path.count] = 0
    }
    let socket: Int32
    switch valueOrErrno({
      system_socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }) {
    case .success(let value): socket = value
    case .failure(let error): return .failure(error)
    }
    let length = UInt32(MemoryLayout<sa_family_t>.size + path.count + 1)
    let connected = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
        valueOrErrno { system_connect(socket, generic, length) }
      }
    }
    if case .failure(let error) = connected {
      _ = system_close(socket)
      return .failure(error)
    }
    return .success(socket)
  }
}
