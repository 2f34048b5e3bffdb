import Glibc

/// A failed system call: which call, on what, and `errno`'s meaning.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The C function that failed, e.g. `posix_spawn`.
  public var call: String
  public var errno: Int32
  /// What the call was about (a path or program), for the message.
  public var subject: String?

  public init(call: String, errno: Int32, subject: String? = nil) {
    self.call = call
    self.errno = errno
    self.subject = subject
  }

  /// `strerror(errno)`.
  public var reason: String { String(cString: strerror(errno)) }

  public var description: String {
    (subject.map { "\($0): " } ?? "") + reason
  }

  /// A file that is there but is not read: not a regular file, or larger than its reader allows
  /// (`EFBIG`, "File too large", the more common of the two for a settings file).
  public static func notReadable(_ subject: String) -> SystemError {
    SystemError(call: "read", errno: EFBIG, subject: subject)
  }

  /// Whether the error is "no such file or directory".
  public var isNotFound: Bool { errno == ENOENT }

  /// A path that does not lead to a file: nothing there, or a file where a folder should be.
  public var isNoSuchPath: Bool { errno == ENOENT || errno == ENOTDIR }

  /// Access refused by permissions or policy.
  public var isPermissionDenied: Bool { errno == EACCES || errno == EPERM }
}

/// Calls `body` and turns a `-1` result into a ``SystemError`` carrying `errno`; retries on `EINTR`.
/// `subject` is made only for the error (the service stats a thousand paths in one call).
@discardableResult
func check<T: BinaryInteger>(
  _ call: String, subject: @autoclosure () -> String? = nil, _ body: () -> T
) throws(SystemError) -> T {
  var result = T.zero
  if let code = failure(of: { () -> T in
    result = body()
    return result
  }) {
    throw SystemError(call: call, errno: code, subject: subject())
  }
  return result
}

/// Calls `body` until it does not fail with `EINTR`: nil when it did not return `-1`, otherwise
/// `errno`. ``check(_:subject:_:)`` throws with it; a caller whose error names what the closure
/// around the call would otherwise have to hold (a path) throws for itself.
func failure<T: BinaryInteger>(of body: () -> T) -> Int32? {
  while true {
    if body() != -1 { return nil }
    let code = Glibc.errno
    if code != EINTR { return code }
  }
}

/// Calls `body` with a NUL-terminated copy of `bytes`: how a path, which is bytes, reaches a C
/// function. The one such helper; every wrapper uses it.
public func withCString<T, E: Error>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) throws(E) -> T)
  throws(E) -> T
{
  // On the stack when it is small: the service looks at a thousand paths in one call.
  let result: Result<T, E> = withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) {
    copy in
    bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(copy).copyMemory(from: $0) }
    copy[bytes.count] = 0
    return Result { () throws(E) -> T in try body(copy.baseAddress!) }
  }
  return try result.get()
}
