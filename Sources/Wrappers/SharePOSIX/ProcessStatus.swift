import Glibc

/// Process-wide signal settings.
public enum ProcessSignals {
  /// Makes a write to a closed pipe an `EPIPE` error instead of a fatal `SIGPIPE`: a plugin that
  /// exits without reading its request must not take the host down with it.
  public static func ignoreBrokenPipes() {
    signal(SIGPIPE, SIG_IGN)
  }
}

/// Questions about processes by their id.
public enum ProcessStatus {
  /// This process's id.
  public static var currentProcess: Int32 { getpid() }

  /// Whether a process with this id exists (it may belong to someone else: `EPERM` counts).
  public static func isAlive(_ pid: Int32) -> Bool {
    pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
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
      return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
    }
  }

  /// This process's environment as `NAME=VALUE` entries, byte for byte and in order.
  public static var environmentEntries: [[UInt8]] {
    var entries: [[UInt8]] = []
    var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = environ
    while let pointer = entry.pointee {
      entries.append(Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))))
      entry += 1
    }
    return entries
  }

  /// The environment as text, a value that is not UTF-8 repaired as `ProcessInfo.environment`
  /// repairs it (the bytes stay at hand: ``environmentBytes``). Read from `environ` directly:
  /// `ProcessInfo` sets up far more than this on first use, at every start of a short command.
  public static var environment: [String: String] {
    environmentBytes.mapValues { String(decoding: $0, as: UTF8.self) }
  }

  /// Writes `text` to standard error as it is, unbuffered.
  public static func writeToStandardError(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }

  /// Ends the process with `status`, flushing C's buffered streams.
  public static func exit(_ status: Int32) -> Never {
    Glibc.exit(status)
  }
}
