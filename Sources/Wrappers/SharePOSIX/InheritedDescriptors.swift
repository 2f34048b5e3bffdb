internal import ShareSyscalls

extension FileDescriptor {
  /// A descriptor this process inherited open from its parent (`--result-fd 3`): `nil` when
  /// `number` is not open. The returned object closes it when it goes.
  public static func inherited(_ number: Int32) -> FileDescriptor? {
    guard number >= 0, system_fcntl(number, _F_GETFD) != -1 else { return nil }
    // Never handed on to the programs this process starts.
    _ = system_fcntl(number, _F_SETFD, _FD_CLOEXEC)
    return FileDescriptor(raw: number)
  }
}
