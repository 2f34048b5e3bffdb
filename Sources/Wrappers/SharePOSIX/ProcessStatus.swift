internal import ShareSyscalls

/// Process-wide signal settings.
public enum ProcessSignals {
  /// Makes a write to a closed pipe an `EPIPE` error instead of a fatal `SIGPIPE`: a plugin that
  /// exits without reading its request must not take the host down with it.
  public static func ignoreBrokenPipes() {
    system_signal(_SIGPIPE, _SIG_IGN)
  }
}

/// Questions about processes by their id.
public enum ProcessStatus {
  /// This process's id.
  public static var currentProcess: Int32 { system_getpid() }

  /// Whether a process with this id exists (it may belong to someone else: `EPERM` counts).
  public static func isAlive(_ pid: Int32) -> Bool {
    guard pid > 0 else { return false }
    if case .failure(let error) = valueOrErrno({ system_kill(pid, 0) }) { return error.rawValue == _EPERM }
    return true
  }

  /// When the process `pid` started, in clock ticks after boot (field 22 of `/proc/PID/stat`);
  /// `nil` when it cannot be read. With the pid it names one process, even once the pid is reused.
  public static func startTime(of pid: Int32) -> UInt64? {
    ProcessTree.member(pid)?.startTime
  }
}

/// This process's arguments and its end.
public enum CurrentProcess {
  /// The arguments after the program's name, byte for byte as the kernel passed them:
  /// `CommandLine.arguments` would repair non-UTF-8 file names into different ones.
  public static var arguments: [[UInt8]] {
    (1..<Int(CommandLine.argc)).map { index in
      guard let argument = CommandLine.unsafeArgv[index] else { return [] }
      return cStringBytes(argument)
    }
  }

  /// This process's environment as `NAME=VALUE` entries, byte for byte and in order. The
  /// corresponding C variable is `environ`.
  public static var environmentEntries: [[UInt8]] {
    ProcessEnvironment.entries
  }

  /// The environment as text, a value that is not UTF-8 repaired as `ProcessInfo.environment`
  /// repairs it (the bytes stay at hand: ``environmentBytes``). Read from `environ` directly:
  /// `ProcessInfo` sets up far more than this on first use, at every start of a short command.
  public static var environment: [String: String] {
    environmentBytes.mapValues { String(decoding: $0, as: UTF8.self) }
  }

  /// Writes `text` to standard error as it is, unbuffered; a reader that went away loses the
  /// rest. The corresponding C function is `write`.
  public static func writeToStandardError(_ text: String) {
    _ = DescriptorIO.writeAll(Array(text.utf8), to: 2)
  }

  /// Ends the process with `status`, flushing C's buffered streams. The corresponding C function
  /// is `exit`.
  public static func exit(_ status: Int32) -> Never {
    system_exit(status)
  }
}
