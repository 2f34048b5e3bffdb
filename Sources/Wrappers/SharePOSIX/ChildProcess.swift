internal import Glibc
internal import ShareSyscalls
import Synchronization

/// A program started from an argv array with `posix_spawn`: never through a shell.
public final class ChildProcess: Sendable {
  /// How a child's standard stream is connected.
  public enum Stream: Sendable {
    /// The parent's own stream.
    case inherit
    case null
    /// A new pipe; the parent's end is in ``ChildProcess/standardInput`` and friends.
    case pipe
    /// An open descriptor (a log file).
    case descriptor(FileDescriptor)
  }

  /// How a child ended.
  public enum Termination: Hashable, Sendable {
    case exited(Int32)
    case signalled(Int32)
  }

  public let pid: Int32
  /// Whether the child leads a process group of its own, so that its whole tree can be signalled.
  public let hasOwnProcessGroup: Bool
  public let standardInput: FileDescriptor?
  public let standardOutput: FileDescriptor?
  public let standardError: FileDescriptor?
  /// The parent's end of the child's descriptor 3, when it was given a pipe there
  /// (`--result-fd 3`).
  public let descriptor3: FileDescriptor?
  private let state = Mutex(WaitState())

  private struct WaitState {
    /// Whether `waitpid` has collected the child.
    var reaped = false
    /// The child's pidfd, readable once it has ended: opened by the first wait with a limit, and
    /// kept until this object goes, so that its number never names another file while a thread
    /// polls it.
    var endDescriptor = EndDescriptor.unopened
  }

  private enum EndDescriptor {
    case unopened
    case open(FileDescriptor)
    /// The kernel has no pidfds (before Linux 5.3), or none could be opened.
    case unavailable
  }

  private init(
    pid: Int32, group: Bool, input: FileDescriptor?, output: FileDescriptor?, error: FileDescriptor?,
    descriptor3: FileDescriptor? = nil
  ) {
    self.pid = pid
    self.hasOwnProcessGroup = group
    self.standardInput = input
    self.standardOutput = output
    self.standardError = error
    self.descriptor3 = descriptor3
  }

  /// Starts `arguments[0]` (an absolute path, or a name searched in `PATH` of `environment`).
  ///
  /// - Parameters:
  ///   - arguments: argv, each argument as raw bytes (a file name may hold any byte but NUL).
  ///   - environment: the complete environment of the child. A value this process inherited that
  ///     is not UTF-8, passed on unchanged (as `ProcessInfo` decoded it), reaches the child as the
  ///     bytes this process got.
  ///   - environmentBytes: entries given as bytes (a path that is not UTF-8), over `environment`'s.
  ///   - workingDirectory: where the child starts; `nil` keeps the parent's.
  ///   - newProcessGroup: makes the child lead a new process group, so ``signal(_:)`` reaches
  ///     everything it starts.
  ///   - descriptor3: what the child finds open as descriptor 3, which it writes (a result line);
  ///     `nil` leaves it closed, as every descriptor above 2 is.
  ///   - inherited: descriptors the child finds open as 4, 5, … in this order (what `bwrap` reads,
  ///     handed on through `xdg-share-guard`); they stay close-on-exec here.
  ///   - endsWithParent: the child gets SIGKILL when the calling thread ends, so that it does not
  ///     outlive a host that is killed; keep the thread until the child has been waited for.
  /// - Throws: ``SystemError`` when the program cannot be started (`posix_spawn`).
  public static func spawn(
    _ arguments: [[UInt8]], environment: [String: String], environmentBytes: [String: [UInt8]] = [:],
    workingDirectory: [UInt8]? = nil,
    standardInput: Stream = .null, standardOutput: Stream = .inherit, standardError: Stream = .inherit,
    newProcessGroup: Bool = false, descriptor3: Stream? = nil, inherited: [FileDescriptor] = [],
    endsWithParent: Bool = false
  ) throws(SystemError) -> ChildProcess {
    try spawn(
      arguments,
      environmentEntries: SharePOSIX.environmentEntries(environment, overriddenBy: environmentBytes),
      workingDirectory: workingDirectory, standardInput: standardInput, standardOutput: standardOutput,
      standardError: standardError, newProcessGroup: newProcessGroup, descriptor3: descriptor3,
      inherited: inherited, endsWithParent: endsWithParent)
  }

  /// The first descriptor number ``spawn(_:environmentEntries:workingDirectory:standardInput:standardOutput:standardError:newProcessGroup:descriptor3:inherited:endsWithParent:keepsDescriptors:)``
  /// gives its `inherited` descriptors in the child.
  public static let firstInheritedDescriptor: Int32 = 4

  /// ``spawn(_:environment:environmentBytes:workingDirectory:standardInput:standardOutput:standardError:newProcessGroup:descriptor3:inherited:endsWithParent:)``
  /// with the environment as `NAME=VALUE` entries, byte for byte; `keepsDescriptors` hands on
  /// every descriptor this process has open without close-on-exec, not only 0 to 2 (a program
  /// that stands in for another one, as `xdg-share-guard` does).
  public static func spawn(
    _ arguments: [[UInt8]], environmentEntries: [[UInt8]], workingDirectory: [UInt8]? = nil,
    standardInput: Stream = .null, standardOutput: Stream = .inherit, standardError: Stream = .inherit,
    newProcessGroup: Bool = false, descriptor3: Stream? = nil, inherited: [FileDescriptor] = [],
    endsWithParent: Bool = false, keepsDescriptors: Bool = false
  ) throws(SystemError) -> ChildProcess {
    precondition(!arguments.isEmpty, "argv needs at least the program")
    var arguments = arguments
    if endsWithParent, let prefix = deathSignalPrefix(for: arguments[0]) { arguments = prefix + arguments }
    var actions = CInterop.SpawnFileActions()
    _ = system_posix_spawn_file_actions_init(&actions)
    defer { _ = system_posix_spawn_file_actions_destroy(&actions) }
    var attributes = CInterop.SpawnAttributes()
    _ = system_posix_spawnattr_init(&attributes)
    defer { _ = system_posix_spawnattr_destroy(&attributes) }

    // The child's ends must stay open until posix_spawn returns; the parent's ends are returned.
    var keepUntilSpawned: [FileDescriptor] = []
    func connect(_ stream: Stream, to target: Int32, childReads: Bool) throws(SystemError) -> FileDescriptor?
    {
      switch stream {
      case .inherit:
        return nil
      case .null:
        let null = try FileDescriptor.null()
        keepUntilSpawned.append(null)
        _ = system_posix_spawn_file_actions_adddup2(&actions, null.rawValue, target)
        return nil
      case .descriptor(let descriptor):
        _ = system_posix_spawn_file_actions_adddup2(&actions, descriptor.rawValue, target)
        return nil
      case .pipe:
        let (read, write) = try FileDescriptor.pipe()
        let (childEnd, parentEnd) = childReads ? (read, write) : (write, read)
        keepUntilSpawned.append(childEnd)
        _ = system_posix_spawn_file_actions_adddup2(&actions, childEnd.rawValue, target)
        return parentEnd
      }
    }
    let input = try connect(standardInput, to: 0, childReads: true)
    let output = try connect(standardOutput, to: 1, childReads: false)
    let error = try connect(standardError, to: 2, childReads: false)
    // Descriptors 4 and up need 3 taken: /dev/null stands in for it.
    let third = try (descriptor3 ?? (inherited.isEmpty ? nil : .null)).flatMap { stream throws(SystemError) in
      try connect(stream, to: 3, childReads: false)
    }
    // Copied above every number they go to first, so that one put in place never overwrites
    // another still to be moved; the copies are close-on-exec and go once spawned.
    for (offset, descriptor) in inherited.enumerated() {
      let copy = try descriptor.duplicate(atLeast: firstInheritedDescriptor + Int32(inherited.count))
      keepUntilSpawned.append(copy)
      _ = system_posix_spawn_file_actions_adddup2(
        &actions, copy.rawValue, firstInheritedDescriptor + Int32(offset))
    }
    // Nothing else the parent has open reaches the child: a descriptor another thread opened
    // without close-on-exec (a file being written) would stay open in it ("text file busy").
    if !keepsDescriptors {
      let firstClosed =
        inherited.isEmpty ? (descriptor3 == nil ? 3 : 4) : firstInheritedDescriptor + Int32(inherited.count)
      _ = system_posix_spawn_file_actions_addclosefrom_np(&actions, firstClosed)
    }
    if let workingDirectory {
      _ = withCString(workingDirectory) { system_posix_spawn_file_actions_addchdir_np(&actions, $0) }
    }

    // Signals the parent ignores or blocks must not leak into the child: a plugin that never
    // hears SIGTERM could not be stopped.
    var flags = _POSIX_SPAWN_SETSIGMASK | _POSIX_SPAWN_SETSIGDEF
    if newProcessGroup {
      flags |= _POSIX_SPAWN_SETPGROUP
      _ = system_posix_spawnattr_setpgroup(&attributes, 0)
    }
    var noSignals = CInterop.SignalSet()
    _ = system_sigemptyset(&noSignals)
    _ = system_posix_spawnattr_setsigmask(&attributes, &noSignals)
    var defaults = CInterop.SignalSet()
    _ = system_sigemptyset(&defaults)
    for signal in [_SIGPIPE, _SIGTERM, _SIGINT, _SIGHUP, _SIGCHLD, _SIGQUIT] {
      _ = system_sigaddset(&defaults, signal)
    }
    _ = system_posix_spawnattr_setsigdefault(&attributes, &defaults)
    _ = system_posix_spawnattr_setflags(&attributes, Int16(flags))

    let program = String(decoding: arguments[0], as: UTF8.self)
    var pid: CInterop.ProcessID = 0
    let status = withCStrings(arguments) { argv in
      withCStrings(environmentEntries) { envp in
        arguments[0].contains(UInt8(ascii: "/"))
          ? system_posix_spawn(&pid, argv[0]!, &actions, &attributes, argv, envp)
          : Self.spawnSearchingPath(
            &pid, name: arguments[0], argv, envp, &actions, &attributes,
            path: environmentEntries.first { $0.starts(with: Array("PATH=".utf8)) }
              .map { String(decoding: $0.dropFirst(5), as: UTF8.self) })
      }
    }
    withExtendedLifetime(keepUntilSpawned) {}
    guard status == 0 else { throw SystemError(call: "posix_spawn", errno: status, subject: program) }
    return ChildProcess(
      pid: pid, group: newProcessGroup, input: input, output: output, error: error, descriptor3: third)
  }

  /// `posix_spawnp` searches the parent's `PATH`; the child's is the one that counts.
  /// The candidates are built as bytes: a program's name need not be UTF-8.
  private static func spawnSearchingPath(
    _ pid: inout CInterop.ProcessID, name: [UInt8], _ argv: [UnsafeMutablePointer<CChar>?],
    _ envp: [UnsafeMutablePointer<CChar>?], _ actions: inout CInterop.SpawnFileActions,
    _ attributes: inout CInterop.SpawnAttributes, path: String?
  ) -> Int32 {
    var lastError = _ENOENT
    for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
      let candidate = Array(directory.utf8) + [UInt8(ascii: "/")] + name
      let status = withCString(candidate) { cPath -> Int32 in
        guard system_access(cPath, _X_OK) == 0 else { return -1 }
        return system_posix_spawn(&pid, cPath, &actions, &attributes, argv, envp)
      }
      if status == 0 { return 0 }
      if status > 0 { lastError = status }
    }
    return lastError
  }

  /// util-linux's `setpriv`, which sets the parent-death signal and then executes the program in
  /// its place (same pid, same process group): `posix_spawn` cannot set it itself.
  private static let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { path in
    withCString(Array(path.utf8)) { system_access($0, _X_OK) } == 0
  }

  /// The argv prefix that makes `program` get SIGKILL when the thread that started it ends (the
  /// host killed): `nil` when `setpriv` is missing, or when `program` is not an ELF file or a
  /// script with `#!` — `setpriv` executes with `execvp`, which would hand anything else to
  /// `/bin/sh`, where a direct start fails with "exec format error".
  private static func deathSignalPrefix(for program: [UInt8]) -> [[UInt8]]? {
    guard let setpriv, program.contains(UInt8(ascii: "/")),
      let start = FileSystem.readPrefix(of: program, count: 4),
      start.starts(with: [0x7F, 0x45, 0x4C, 0x46]) || start.starts(with: Array("#!".utf8)),
      withCString(program, { system_access($0, _X_OK) }) == 0
    else { return nil }
    return [Array(setpriv.utf8), Array("--pdeathsig".utf8), Array("KILL".utf8), Array("--".utf8)]
  }

  /// Sends `signal` to the child, or to its whole process group when it leads one.
  public func signal(_ signal: Int32) {
    // Under the lock that reaping takes: once reaped, the pid may name a stranger.
    state.withLock { state in
      guard !state.reaped else { return }
      _ = hasOwnProcessGroup ? system_killpg(pid, signal) : system_kill(pid, signal)
    }
  }

  /// Sends `signal` to the child alone, not to the group it leads.
  public func signalLeader(_ signal: Int32) {
    state.withLock { state in
      guard !state.reaped else { return }
      _ = system_kill(pid, signal)
    }
  }

  /// Waits for the child to end (`waitid` without reaping, then `waitpid` under the lock).
  public func wait() -> Termination {
    var info = CInterop.SignalInfo()
    _ = valueOrErrno { system_waitid(_P_PID, CInterop.WaitID(pid), &info, _WEXITED | _WNOWAIT) }
    return reap() ?? .exited(127)
  }

  /// Waits at most `timeout` seconds for the child to end; `nil` when it is still running. The
  /// end is seen the moment it comes: the wait is on the child's pidfd (`pidfd_open`, `poll`).
  /// Without pidfds (Linux before 5.3) the child is looked at after pauses that grow from 1 ms
  /// to 5 ms.
  public func wait(timeout: Double) -> Termination? {
    let deadline = MonotonicClock.now + timeout
    let end = endDescriptor
    var pause = Self.firstPause
    while !hasEnded {
      let left = deadline - MonotonicClock.now
      if left <= 0 { return nil }
      // Without a pidfd, or should polling it fail, pauses rather than a spin.
      if end.flatMap({ try? FileDescriptor.waitReadable([$0], timeout: left) }) == nil {
        DetachedThread.sleep(seconds: min(pause, left))
        pause = min(pause * 2, Self.longestPause)
      }
    }
    return reap() ?? .exited(127)
  }

  /// Waits at most `timeout` seconds until `output` is readable (data or its end) or the child
  /// ends, whichever comes first, and says which came (both may have): the child's pidfd is
  /// polled with `output`, so that its end is seen at once even while something it started
  /// keeps `output` open. The child is not collected: until ``wait()`` does, ``signal(_:)``
  /// still reaches its group. Without pidfds (Linux before 5.3) `output` is polled for pauses
  /// that grow from 1 ms to 100 ms, the child looked at after each. The corresponding C
  /// functions are `pidfd_open` and `poll`.
  /// - Throws: ``SystemError`` when `poll` fails.
  public func waitUntilEnded(orReadable output: FileDescriptor, timeout: Double) throws(SystemError)
    -> (readable: Bool, ended: Bool)
  {
    if let end = endDescriptor {
      let ready = try FileDescriptor.waitReadable([output, end], timeout: timeout)
      return (ready[0], ready[1])
    }
    let deadline = MonotonicClock.now + timeout
    var pause = Self.firstPause
    while true {
      let left = max(0, deadline - MonotonicClock.now)
      let readable = try output.waitReadable(timeout: min(pause, left))
      let ended = hasEnded
      if readable || ended || left <= pause { return (readable, ended) }
      pause = min(pause * 2, Self.longestOutputPause)
    }
  }

  /// The first pause of a wait without pidfds: most waited-for children end soon.
  private static let firstPause = 0.001
  /// The longest pause of ``wait(timeout:)`` without pidfds, as it always paused before them.
  private static let longestPause = 0.005
  /// The longest pause of ``waitUntilEnded(orReadable:timeout:)`` without pidfds: what the
  /// plugin host waited between looks at the program before them.
  private static let longestOutputPause = 0.1

  /// The child's pidfd, opened on first use; nil without pidfds, or once the child is reaped
  /// (its end is known then). ``EventLoop/onEnd(of:_:)`` watches it.
  var endDescriptor: FileDescriptor? {
    state.withLock { state -> FileDescriptor? in
      switch state.endDescriptor {
      case .open(let descriptor): return descriptor
      case .unavailable: return nil
      case .unopened:
        // Only before reaping: afterwards the pid may name another process.
        guard !state.reaped else { return nil }
        guard case .success(let raw) = valueOrErrno({ system_pidfd_open(pid, 0) }) else {
          state.endDescriptor = .unavailable
          return nil
        }
        let descriptor = FileDescriptor(raw: raw)
        state.endDescriptor = .open(descriptor)
        return descriptor
      }
    }
  }

  /// Whether the child has ended, without collecting its status: until ``wait()`` does, its pid
  /// (and its process group's) cannot name another process, so ``signal(_:)`` still reaches what
  /// it started in its group.
  public var hasEnded: Bool {
    var info = CInterop.SignalInfo()
    let result = valueOrErrno {
      system_waitid(_P_PID, CInterop.WaitID(pid), &info, _WEXITED | _WNOHANG | _WNOWAIT)
    }
    // ECHILD: reaped already. si_pid stays 0 while the child runs.
    guard case .success = result else { return true }
    return info._sifields._sigchld.si_pid == pid
  }

  /// Collects the ended child's status; from then on ``signal(_:)`` does nothing.
  private func reap() -> Termination? {
    state.withLock { state -> Termination? in
      var status: Int32 = 0
      let result = valueOrErrno { system_waitpid(pid, &status, 0) }
      state.reaped = true
      guard case .success(pid) = result else { return nil }
      // The WIFEXITED family are macros; their definitions are spelt out here.
      let signal = status & 0x7F
      return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }
  }

  /// The name of a signal, such as `SIGKILL`, for messages.
  public static func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [
      _SIGHUP: "SIGHUP", _SIGINT: "SIGINT", _SIGQUIT: "SIGQUIT", _SIGILL: "SIGILL", _SIGABRT: "SIGABRT",
      _SIGFPE: "SIGFPE", _SIGKILL: "SIGKILL", _SIGSEGV: "SIGSEGV", _SIGPIPE: "SIGPIPE", _SIGALRM: "SIGALRM",
      _SIGTERM: "SIGTERM", _SIGBUS: "SIGBUS", _SIGTRAP: "SIGTRAP",
    ]
    return names[signal] ?? "signal \(signal)"
  }
}

/// Signal numbers, so that callers need not import Glibc.
public enum Signal {
  public static let terminate = _SIGTERM
  public static let kill = _SIGKILL
  public static let interrupt = _SIGINT
  public static let hangUp = _SIGHUP
}

/// Calls `body` with a NULL-terminated array of C strings made from `strings`.
/// `NAME=value` entries, sorted; see ``ChildProcess/spawn(_:environment:environmentBytes:workingDirectory:standardInput:standardOutput:standardError:newProcessGroup:descriptor3:endsWithParent:)``.
private func environmentEntries(_ environment: [String: String], overriddenBy bytes: [String: [UInt8]])
  -> [[UInt8]]
{
  var entries: [[UInt8]] = []
  for (name, value) in CurrentProcess.environmentBytes(restoring: environment) where bytes[name] == nil {
    entries.append(Array(name.utf8) + [UInt8(ascii: "=")] + value)
  }
  for (name, value) in bytes { entries.append(Array(name.utf8) + [UInt8(ascii: "=")] + value) }
  return entries.sorted { $0.lexicographicallyPrecedes($1) }
}

private func withCStrings<T>(_ strings: [[UInt8]], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
  let pointers = strings.map { bytes -> UnsafeMutablePointer<CChar>? in
    let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
    for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
    pointer[bytes.count] = 0
    return pointer
  }
  defer { pointers.forEach { $0?.deallocate() } }
  return body(pointers + [nil])
}
