import Glibc

extension FileDescriptor {
  /// A descriptor this process inherited open from its parent (`--result-fd 3`): `nil` when
  /// `number` is not open. The returned object closes it when it goes.
  public static func inherited(_ number: Int32) -> FileDescriptor? {
    guard number >= 0, fcntl(number, F_GETFD) != -1 else { return nil }
    // Never handed on to the programs this process starts.
    _ = fcntl(number, F_SETFD, FD_CLOEXEC)
    return FileDescriptor(raw: number)
  }
}

/// The process's standard error, for programs that do without Foundation's `FileHandle`.
public enum StandardError {
  /// Writes `text` and a newline, all of it; a closed standard error is no failure.
  public static func writeLine(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }
}
