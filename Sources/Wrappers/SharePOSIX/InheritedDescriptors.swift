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
