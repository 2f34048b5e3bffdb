import FoundationEssentials
internal import Glibc
internal import ShareSyscalls

/// The few system calls ShareKit makes, all in this file and ByteSystemCalls.swift.
///
/// ShareKit is linked into plugins built in their own packages, so it depends on ShareProtocol,
/// ShareCore and ShareSyscalls only, and not on SharePOSIX (whose C module a plugin's package
/// would have to build too). FoundationEssentials has no file locks, no `rename(2)` that replaces
/// a file atomically, no way to move a standard descriptor and no `FileHandle`, so these few
/// calls go through ShareSyscalls' trampolines, the seam SharePOSIX uses too.
enum SystemCalls {
  /// Keeps the event stream away from `print`: returns a new close-on-exec descriptor for the
  /// original standard output and points descriptor 1 at standard error, so that whatever the
  /// extension (or a program it starts) prints lands in the log instead of between two events.
  ///
  /// Returns 1 when the descriptors cannot be moved; events then share standard output. The
  /// corresponding C functions are `fcntl(F_DUPFD_CLOEXEC)` and `dup2`.
  static func divertStandardOutput() -> Int32 {
    let events = system_fcntl(1, _F_DUPFD_CLOEXEC, 3)
    guard events >= 0 else { return 1 }
    guard system_dup2(2, 1) >= 0 else {
      _ = system_close(events)
      return 1
    }
    return events
  }

  /// Reads descriptor 0 to its end. The corresponding C function is `read`.
  ///
  /// - Throws: `CocoaError(.fileReadUnknown)` over a `POSIXError` with `read`'s `errno`, as
  ///   Foundation's `FileHandle` did.
  static func readStandardInput() throws(CocoaError) -> [UInt8] {
    switch DescriptorIO.readToEnd(0) {
    case .success(let bytes):
      return bytes
    case .failure(let error):
      let underlying = POSIXError(error.code ?? .EIO)
      throw CocoaError(.fileReadUnknown, userInfo: ["NSUnderlyingError": underlying])
    }
  }

  /// Writes all of `bytes` to `descriptor`; returns whether it could. The corresponding C
  /// function is `write`.
  @discardableResult
  static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    guard case .success = DescriptorIO.writeAll(bytes, to: descriptor) else { return false }
    return true
  }

  /// Ends the process with `status`. The corresponding C function is `exit`.
  static func exitProcess(_ status: Int32) -> Never {
    system_exit(status)
  }

  /// What the C library says the error number `code` means. The corresponding C function is
  /// `strerror`.
  static func errorDescription(_ code: Int32) -> String {
    Errno(rawValue: code).description
  }
}
