internal import ShareSyscalls

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

  /// What the C library says `errno` means. The corresponding C function is `strerror`.
  public var reason: String { Errno(rawValue: errno).description }

  public var description: String {
    (subject.map { "\($0): " } ?? "") + reason
  }

  /// A file that is there but is not read: not a regular file, or larger than its reader allows
  /// (`EFBIG`, "File too large", the more common of the two for a settings file).
  public static func notReadable(_ subject: String) -> SystemError {
    SystemError(call: "read", errno: _EFBIG, subject: subject)
  }

  /// Whether the error is "no such file or directory".
  public var isNotFound: Bool { errno == _ENOENT }

  /// A path that does not lead to a file: nothing there, or a file where a folder should be.
  public var isNoSuchPath: Bool { errno == _ENOENT || errno == _ENOTDIR }

  /// Access refused by permissions or policy.
  public var isPermissionDenied: Bool { errno == _EACCES || errno == _EPERM }
}

/// Calls `body` and turns a `-1` result into a ``SystemError`` carrying `errno`; retries on `EINTR`
/// (``valueOrErrno(retryOnInterrupt:_:)``). `subject` is made only for the error (the service
/// stats a thousand paths in one call).
@discardableResult
func check<T: FixedWidthInteger>(
  _ call: String, subject: @autoclosure () -> String? = nil, _ body: () -> T
) throws(SystemError) -> T {
  switch valueOrErrno(body) {
  case .success(let value): return value
  case .failure(let error): throw SystemError(call: call, errno: error.rawValue, subject: subject())
  }
}

/// Calls `body` as ``check(_:subject:_:)`` does: nil when it did not return `-1`, otherwise
/// `errno`. For a caller whose error names what the closure around the call would otherwise have
/// to hold (a path): it throws for itself.
func failure<T: FixedWidthInteger>(of body: () -> T) -> Int32? {
  guard case .failure(let error) = valueOrErrno(body) else { return nil }
  return error.rawValue
}

extension SystemError {
  /// The error `call` met, as `valueOrErrno` returned it.
  init(call: String, _ error: Errno, subject: String? = nil) {
    self.init(call: call, errno: error.rawValue, subject: subject)
  }
}

/// Calls `body` with a NUL-terminated copy of `bytes`: how a path, which is bytes, reaches a C
/// function. The one such helper (ShareSyscalls' `withNULTerminated`, which ShareKit uses too);
/// every wrapper uses it.
public func withCString<T, E: Error>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) throws(E) -> T)
  throws(E) -> T
{
  try withNULTerminated(bytes, body)
}
