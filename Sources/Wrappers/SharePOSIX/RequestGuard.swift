internal import Glibc
internal import ShareSyscalls

/// What `xdg-share-guard` does: it stands between a host and one request's program, so that
/// what the program starts ends with the host even when the host is killed with SIGKILL and can
/// end nothing itself.
///
/// The guard is a child subreaper (`PR_SET_CHILD_SUBREAPER`): a helper the program orphans, in
/// whatever session or group and with whatever environment, is re-parented to the guard rather
/// than to init, and so still descends from it. The guard asks for a signal when its parent dies
/// (`PR_SET_PDEATHSIG`, checked against `getppid` so that no other sender can fake it) and then
/// ends its whole subtree and every process carrying the request's marker (``ProcessTree``). The
/// program gets SIGKILL if the guard itself dies (`setpriv`, as ``ChildProcess`` does it).
///
/// While the host lives the guard changes nothing: it exits as soon as the program does, with
/// its status (dying of the same signal), so that a completed request releases what it left
/// running, and the host's signals to the group it leads reach the program as before.
public final class RequestGuard {
  /// Sent by the host to the guard alone when a request is cancelled or runs out of time: once
  /// the program ends, the guard ends everything it holds before it reports. Only the guard's
  /// parent is heard.
  public static let endSignal = _SIGUSR1
  /// Sent by the host after ``endSignal`` when the program completed after all: what it leaves
  /// running is released after all.
  public static let releaseSignal = _SIGUSR2
  /// What the guard asks for when its parent dies. Whoever sends it, the guard acts only when
  /// its parent is gone.
  static let parentDeathSignal = _SIGHUP
  /// How often the guard looks whether its parent is gone, should the signal be missed.
  static let parentCheckInterval = 0.1

  /// How the guard is told what to run, from its command line.
  public struct Options: Equatable, Sendable {
    /// The host's pid: when the guard's parent is no longer this process, the host is gone.
    public var parent: Int32
    /// The request's marker, a whole `NAME=VALUE` environment entry: set in the program's
    /// environment (replacing any `NAME=`), and every process carrying it belongs to the request.
    public var marker: [UInt8]
    /// Seconds between SIGTERM and SIGKILL when the guard ends the request.
    public var grace: Double
    /// A descriptor on which the guard reports whether the program started: nothing when it did
    /// (closed), the `posix_spawn` error number in decimal when it did not.
    public var reportDescriptor: Int32?
    /// Descriptors the guard hands on to the program as they are (what `bwrap` reads: its
    /// seccomp filter, its status pipe) and closes once it has started, so that the program
    /// alone holds them: a pipe's reader then sees its end when the program closes its end.
    public var passedDescriptors: [Int32]
    /// The program's argv.
    public var arguments: [[UInt8]]

    public init(
      parent: Int32, marker: [UInt8], grace: Double, reportDescriptor: Int32?,
      passedDescriptors: [Int32] = [],
      arguments: [[UInt8]]
    ) {
      self.parent = parent
      self.marker = marker
      self.grace = grace
      self.reportDescriptor = reportDescriptor
      self.passedDescriptors = passedDescriptors
      self.arguments = arguments
    }
  }

  private let options: Options
  private let program: ChildProcess
  private var watched: CInterop.SignalSet
  /// The program's wait status, once reaped.
  private var programStatus: Int32?

  private init(options: Options, program: ChildProcess, watched: CInterop.SignalSet) {
    self.options = options
    self.program = program
    self.watched = watched
  }

  /// Becomes the guard and starts the program. Call it first thing in `main`, before any other
  /// thread exists: the signals the guard waits for are blocked here, and a thread started
  /// earlier would still take them and die of them.
  /// - Throws: ``SystemError`` when the program cannot be started (also reported on
  ///   ``Options/reportDescriptor``), or the host is already gone (`ESRCH`).
  public static func start(_ options: Options) throws(SystemError) -> RequestGuard {
    var watched = CInterop.SignalSet()
    _ = system_sigemptyset(&watched)
    for signal in [_SIGCHLD, _SIGTERM, _SIGINT, _SIGHUP, _SIGQUIT, endSignal, releaseSignal] {
      _ = system_sigaddset(&watched, signal)
    }
    _ = system_pthread_sigmask(_SIG_BLOCK, &watched, nil)
    let report = options.reportDescriptor.flatMap { FileDescriptor.inherited($0) }
    defer { report?.close() }
    // Open until the program has them (`keepsDescriptors`), then the program's alone; closed
    // too when it does not start.
    defer {
      for number in options.passedDescriptors where number != options.reportDescriptor && number > 2 {
        FileDescriptor.inherited(number)?.close()
      }
    }
    func fail(_ error: SystemError) -> SystemError {
      try? report?.write(Array("\(error.errno)\n".utf8))
      return error
    }
    if case .failure(let error) = valueOrErrno({ system_prctl(_PR_SET_CHILD_SUBREAPER, 1) }) {
      throw fail(SystemError(call: "prctl", error, subject: "PR_SET_CHILD_SUBREAPER"))
    }
    if case .failure(let error) = valueOrErrno({ system_prctl(_PR_SET_PDEATHSIG, UInt(parentDeathSignal)) }) {
      throw fail(SystemError(call: "prctl", error, subject: "PR_SET_PDEATHSIG"))
    }
    // The host may have died before the death signal was asked for; then nothing starts.
    guard system_getppid() == options.parent else { throw fail(SystemError(call: "getppid", errno: _ESRCH)) }
    let program: ChildProcess
    do throws(SystemError) {
      program = try ChildProcess.spawn(
        options.arguments, environmentEntries: programEnvironment(marker: options.marker),
        standardInput: .inherit, standardOutput: .inherit, standardError: .inherit,
        endsWithParent: !Self.asksToDieWithParent(options.arguments), keepsDescriptors: true)
    } catch {
      throw fail(error)
    }
    // The program's standard input and output are its own: the host tells the end of its
    // output from the program's, as it did without a guard.
    if let null = try? FileDescriptor.null() {
      _ = system_dup2(null.rawValue, 0)
      _ = system_dup2(null.rawValue, 1)
    }
    return RequestGuard(options: options, program: program, watched: watched)
  }

  /// Whether `arguments` start a program that asks for its parent-death signal itself: `bwrap`
  /// with `--die-with-parent` (a service's sandbox), which needs no `setpriv` before it, an exec
  /// less in every share.
  static func asksToDieWithParent(_ arguments: [[UInt8]]) -> Bool {
    guard let program = arguments.first,
      program.split(separator: UInt8(ascii: "/")).last.map(Array.init) == Array("bwrap".utf8)
    else { return false }
    return arguments.dropFirst().prefix { $0 != Array("--".utf8) }.contains(Array("--die-with-parent".utf8))
  }

  /// This process's environment, byte for byte, with the marker set.
  private static func programEnvironment(marker: [UInt8]) -> [[UInt8]] {
    // From `environ`, not `/proc/self/environ`, which a sandbox may hide: a program started
    // with no environment but the marker would fail in ways no one could trace back here.
    var entries = CurrentProcess.environmentEntries
    if let equals = marker.firstIndex(of: UInt8(ascii: "=")) {
      let name = marker[...equals]
      entries.removeAll { $0.starts(with: name) }
      entries.append(marker)
    }
    return entries
  }

  /// Waits for the program, then exits as it did; if the host dies first, ends the request and
  /// exits.
  public func superviseToEnd() -> Never {
    var ending = false
    var status: Int32?
    let group = system_getpgrp()
    while status == nil {
      var info = CInterop.SignalInfo()
      var timeout = CInterop.TimeSpec(tv_sec: 0, tv_nsec: Int(Self.parentCheckInterval * 1e9))
      let received = system_sigtimedwait(&watched, &info, &timeout)
      if system_getppid() != options.parent { endRequest() }
      let fromParent = info._sifields._kill.si_pid == options.parent && info.si_code == _SI_USER
      // What was received counts even when the program has ended meanwhile: the host's word
      // comes before its SIGTERM, which may end the program at once.
      switch received {
      case Self.endSignal where fromParent: ending = true
      case Self.releaseSignal where fromParent: ending = false
      case _SIGTERM, _SIGINT, _SIGHUP, _SIGQUIT:
        // The host signals the group the guard leads, and so the program with it, unless the
        // program left that group; then it gets the signal from here. Not yet reaped, the
        // program's pid is still its own.
        if programStatus == nil, system_getpgid(program.pid) != group {
          _ = system_kill(program.pid, received)
        }
      default: break
      }
      // Collects the program and whatever ended that the guard adopted; SIGCHLDs merge.
      status = reapChildren()
    }
    // A word from the host sent just before the program ended still counts. A request told to
    // end may have completed as it ended: the guard waits for the host's verdict, sent once it
    // has read the program's last event (``releaseSignal`` for a completion, ``endSignal``
    // again otherwise), or for a second should it not come (the host waits for the guard's
    // exit when something the program started holds its output open).
    ending = hear(within: 0, ending: ending, untilVerdict: false)
    if ending { ending = hear(within: Self.verdictWait, ending: ending, untilVerdict: true) }
    if system_getppid() != options.parent || ending { endRequest() }
    Self.exit(status: status ?? 0)
  }

  /// How long a guard told to end the request waits, once its program has ended, for the
  /// host's verdict.
  static let verdictWait = 1.0

  /// What the host says within `seconds`: whether the request is to be ended, starting from
  /// `ending`. Returns early on a release, and with `untilVerdict` on any word.
  private func hear(within seconds: Double, ending: Bool, untilVerdict: Bool) -> Bool {
    var ending = ending
    let deadline = MonotonicClock.now + seconds
    while true {
      let left = max(0, deadline - MonotonicClock.now)
      var timeout = CInterop.TimeSpec(tv_sec: Int(left), tv_nsec: Int((left - left.rounded(.down)) * 1e9))
      var info = CInterop.SignalInfo()
      let received = system_sigtimedwait(&watched, &info, &timeout)
      if received < 0 || system_getppid() != options.parent { return ending }
      guard info._sifields._kill.si_pid == options.parent, info.si_code == _SI_USER else { continue }
      if received == Self.releaseSignal { return false }
      if received == Self.endSignal {
        if untilVerdict { return true }
        ending = true
      }
    }
  }

  /// Ends the program, what descends from the guard and what carries the marker; when the host
  /// is gone, exits.
  private func endRequest() {
    ProcessTree.end(marked: options.marker, descendingFrom: system_getpid(), grace: options.grace)
    if system_getppid() != options.parent {
      _ = reapChildren()
      system_exit(1)
    }
  }

  /// Reaps every ended child; returns the program's wait status once it has ended.
  private func reapChildren() -> Int32? {
    while true {
      var status: Int32 = 0
      guard case .success(let pid) = valueOrErrno({ system_waitpid(-1, &status, _WNOHANG) }), pid > 0 else {
        break
      }
      if pid == program.pid { programStatus = status }
    }
    return programStatus
  }

  /// Exits as the program did: with its exit status, or of the signal that ended it (without a
  /// core dump of its own), so that the host tells the two apart as before.
  private static func exit(status: Int32) -> Never {
    let signal = status & 0x7F
    guard signal != 0 else { system_exit((status >> 8) & 0xFF) }
    var noCore = CInterop.ResourceLimit(rlim_cur: 0, rlim_max: 0)
    _ = system_setrlimit(_RLIMIT_CORE, &noCore)
    system_signal(signal, _SIG_DFL)
    var only = CInterop.SignalSet()
    _ = system_sigemptyset(&only)
    _ = system_sigaddset(&only, signal)
    _ = system_pthread_sigmask(_SIG_UNBLOCK, &only, nil)
    _ = system_raise(signal)
    system_exit(128 + signal)
  }
}
