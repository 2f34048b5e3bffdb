internal import CPOSIX
import Glibc

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
  public static let endSignal = SIGUSR1
  /// Sent by the host after ``endSignal`` when the program completed after all: what it leaves
  /// running is released after all.
  public static let releaseSignal = SIGUSR2
  /// What the guard asks for when its parent dies. Whoever sends it, the guard acts only when
  /// its parent is gone.
  static let parentDeathSignal = SIGHUP
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
    /// The program's argv.
    public var arguments: [[UInt8]]

    public init(parent: Int32, marker: [UInt8], grace: Double, reportDescriptor: Int32?, arguments: [[UInt8]])
    {
      self.parent = parent
      self.marker = marker
      self.grace = grace
      self.reportDescriptor = reportDescriptor
      self.arguments = arguments
    }
  }

  private let options: Options
  private let program: ChildProcess
  private var watched: sigset_t
  /// The program's wait status, once reaped.
  private var programStatus: Int32?

  private init(options: Options, program: ChildProcess, watched: sigset_t) {
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
    var watched = sigset_t()
    sigemptyset(&watched)
    for signal in [SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT, endSignal, releaseSignal] {
      sigaddset(&watched, signal)
    }
    pthread_sigmask(SIG_BLOCK, &watched, nil)
    let report = options.reportDescriptor.flatMap { FileDescriptor.inherited($0) }
    defer { report?.close() }
    func fail(_ error: SystemError) -> SystemError {
      try? report?.write(Array("\(error.errno)\n".utf8))
      return error
    }
    guard xdg_share_prctl(PR_SET_CHILD_SUBREAPER, 1) == 0 else {
      throw fail(SystemError(call: "prctl", errno: errno, subject: "PR_SET_CHILD_SUBREAPER"))
    }
    guard xdg_share_prctl(PR_SET_PDEATHSIG, UInt(parentDeathSignal)) == 0 else {
      throw fail(SystemError(call: "prctl", errno: errno, subject: "PR_SET_PDEATHSIG"))
    }
    // The host may have died before the death signal was asked for; then nothing starts.
    guard getppid() == options.parent else { throw fail(SystemError(call: "getppid", errno: ESRCH)) }
    let program: ChildProcess
    do throws(SystemError) {
      program = try ChildProcess.spawn(
        options.arguments, environmentEntries: programEnvironment(marker: options.marker),
        standardInput: .inherit, standardOutput: .inherit, standardError: .inherit, endsWithParent: true,
        keepsDescriptors: true)
    } catch {
      throw fail(error)
    }
    // The program's standard input and output are its own: the host tells the end of its
    // output from the program's, as it did without a guard.
    if let null = try? FileDescriptor.null() {
      _ = dup2(null.rawValue, 0)
      _ = dup2(null.rawValue, 1)
    }
    return RequestGuard(options: options, program: program, watched: watched)
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
    let group = getpgrp()
    while status == nil {
      var info = siginfo_t()
      var timeout = timespec(tv_sec: 0, tv_nsec: Int(Self.parentCheckInterval * 1e9))
      let received = sigtimedwait(&watched, &info, &timeout)
      if getppid() != options.parent { endRequest() }
      let fromParent = info._sifields._kill.si_pid == options.parent && info.si_code == SI_USER
      // What was received counts even when the program has ended meanwhile: the host's word
      // comes before its SIGTERM, which may end the program at once.
      switch received {
      case Self.endSignal where fromParent: ending = true
      case Self.releaseSignal where fromParent: ending = false
      case SIGTERM, SIGINT, SIGHUP, SIGQUIT:
        // The host signals the group the guard leads, and so the program with it, unless the
        // program left that group; then it gets the signal from here. Not yet reaped, the
        // program's pid is still its own.
        if programStatus == nil, getpgid(program.pid) != group { _ = kill(program.pid, received) }
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
    if getppid() != options.parent || ending { endRequest() }
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
      var timeout = timespec(tv_sec: Int(left), tv_nsec: Int((left - left.rounded(.down)) * 1e9))
      var info = siginfo_t()
      let received = sigtimedwait(&watched, &info, &timeout)
      if received < 0 || getppid() != options.parent { return ending }
      guard info._sifields._kill.si_pid == options.parent, info.si_code == SI_USER else { continue }
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
    ProcessTree.end(marked: options.marker, descendingFrom: getpid(), grace: options.grace)
    if getppid() != options.parent {
      _ = reapChildren()
      Glibc.exit(1)
    }
  }

  /// Reaps every ended child; returns the program's wait status once it has ended.
  private func reapChildren() -> Int32? {
    while true {
      var status: Int32 = 0
      let pid = waitpid(-1, &status, WNOHANG)
      if pid == -1 && errno == EINTR { continue }
      guard pid > 0 else { break }
      if pid == program.pid { programStatus = status }
    }
    return programStatus
  }

  /// Exits as the program did: with its exit status, or of the signal that ended it (without a
  /// core dump of its own), so that the host tells the two apart as before.
  private static func exit(status: Int32) -> Never {
    let signal = status & 0x7F
    guard signal != 0 else { Glibc.exit((status >> 8) & 0xFF) }
    var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
    _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
    Glibc.signal(signal, SIG_DFL)
    var only = sigset_t()
    sigemptyset(&only)
    sigaddset(&only, signal)
    pthread_sigmask(SIG_UNBLOCK, &only, nil)
    raise(signal)
    Glibc.exit(128 + signal)
  }
}
