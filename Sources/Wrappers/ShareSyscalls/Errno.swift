package import Glibc

/// What a failed system call left in `errno`, as a value that can be thrown, compared and kept:
/// the one place `errno` is read.
package struct Errno: Error, Hashable, Sendable, RawRepresentable, CustomStringConvertible {
  package var rawValue: Int32

  package init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// The calling thread's `errno` now: read it before anything else may call into libc.
  package static var current: Errno { Errno(rawValue: Glibc.errno) }

  /// The call was interrupted by a signal before it did anything (`EINTR`): the one error that
  /// means "ask again".
  package static let interrupted = Errno(rawValue: EINTR)

  /// The error as Glibc's `POSIXErrorCode`, which Foundation's `POSIXError` wraps; nil for a
  /// number it does not know.
  package var code: POSIXErrorCode? { POSIXErrorCode(rawValue: rawValue) }

  /// What the C library says the error means, e.g. "No such file or directory". The
  /// corresponding C function is `strerror`.
  package var description: String {
    system_strerror(rawValue).map { String(cString: $0) } ?? "errno \(rawValue)"
  }
}

/// Calls `body`, a system call that returns `-1` and sets `errno` on failure, and returns its
/// result or the error; with `retryOnInterrupt` (the default), a call interrupted by a signal
/// (`EINTR`) is made again. The one `EINTR` loop: no other file retries a call by hand.
///
/// `body` runs again on a retry, so it must be the call alone (or what may be repeated with it).
package func valueOrErrno<T: FixedWidthInteger>(
  retryOnInterrupt: Bool = true, _ body: () -> T
) -> Result<T, Errno> {
  while true {
    let value = body()
    guard value == -1 else { return .success(value) }
    let error = Errno.current
    guard retryOnInterrupt, error == .interrupted else { return .failure(error) }
  }
}

/// ``valueOrErrno(retryOnInterrupt:_:)`` for a call whose result says nothing but success.
package func nothingOrErrno<T: FixedWidthInteger>(
  retryOnInterrupt: Bool = true, _ body: () -> T
) -> Result<Void, Errno> {
  valueOrErrno(retryOnInterrupt: retryOnInterrupt, body).map { _ in () }
}

/// A call that returns its error number rather than setting `errno` (`posix_spawn`,
/// `pthread_create`, `pthread_sigmask`, `sigwait`): `0` is success.
package func errorNumberResult(_ code: Int32) -> Result<Void, Errno> {
  code == 0 ? .success(()) : .failure(Errno(rawValue: code))
}
