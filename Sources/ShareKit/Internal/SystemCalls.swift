import FoundationEssentials
import Glibc

/// The few system calls ShareKit makes, all in this file.
///
/// ShareKit is linked into plugins built in their own packages, so it depends on ShareProtocol and
/// ShareCore only and not on SharePOSIX (whose C module a plugin's package would have to build
/// too). FoundationEssentials has no file locks, no `rename(2)` that replaces a file atomically, no
/// way to move a standard descriptor and no `FileHandle`, so these few calls go to Glibc directly.
enum SystemCalls {
  /// Keeps the event stream away from `print`: returns a new close-on-exec descriptor for the
  /// original standard output and points descriptor 1 at standard error, so that whatever the
  /// extension (or a program it starts) prints lands in the log instead of between two events.
  ///
  /// Returns 1 when the descriptors cannot be moved; events then share standard output. The
  /// corresponding C functions are `fcntl(F_DUPFD_CLOEXEC)` and `dup2`.
  static func divertStandardOutput() -> Int32 {
    let events = fcntl(1, F_DUPFD_CLOEXEC, 3)
    guard events >= 0 else { return 1 }
    guard dup2(2, 1) >= 0 else {
      close(events)
      return 1
    }
    return events
  }

  /// Reads descriptor 0 to its end. The corresponding C function is `read`.
  ///
  /// - Throws: `CocoaError(.fileReadUnknown)` over a `POSIXError` with `read`'s `errno`, as
  ///   Foundation's `FileHandle` did.
  static func readStandardInput() throws(CocoaError) -> [UInt8] {
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if count == 0 { return result }
      if count < 0 {
        if errno == EINTR { continue }
        let underlying = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        throw CocoaError(.fileReadUnknown, userInfo: ["NSUnderlyingError": underlying])
      }
      result += chunk[..<count]
    }
  }

  /// Writes all of `bytes` to `descriptor`; returns whether it could. The corresponding C
  /// function is `write`.
  @discardableResult
  static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += written
    }
    return true
  }

  /// Ends the process with `status`. The corresponding C function is `exit`.
  static func exitProcess(_ status: Int32) -> Never {
    exit(status)
  }

  /// `strerror(code)`.
  static func errorDescription(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
