package import Glibc

/// The C types the system calls take, under Swift names, so that the modules calling them need
/// not import Glibc to name them. Whoever holds one reads and sets its fields as in C, which
/// under `MemberImportVisibility` takes an `internal import Glibc` in that file (SharePOSIX's,
/// ShareKit's `SystemCalls.swift`): for the fields only, never to call libc.
package enum CInterop {
  /// `mode_t`: permission bits and a file's type.
  package typealias Mode = mode_t
  /// `pid_t`.
  package typealias ProcessID = pid_t
  /// `struct stat`, what `stat`, `lstat` and `fstat` fill.
  package typealias FileStatus = Glibc.stat
  /// `struct sockaddr`, what socket calls take the address of any family as.
  package typealias SocketAddress = sockaddr
  /// `sa_family_t`: an address's family.
  package typealias AddressFamily = sa_family_t
  /// `struct sockaddr_un`: the address of a socket in the file system.
  package typealias LocalSocketAddress = sockaddr_un
  /// `struct msghdr`: what `sendmsg` sends and `recvmsg` fills.
  package typealias SocketMessageHeader = msghdr
  /// `struct pollfd`: a descriptor `poll` watches and what it found.
  package typealias PollDescriptor = pollfd
  /// `struct timespec`.
  package typealias TimeSpec = timespec
  /// `time_t`: seconds since 1970.
  package typealias Time = time_t
  /// `struct tm`: a moment broken into its calendar fields.
  package typealias CalendarTime = tm
  /// `siginfo_t`: what `waitid` and `sigtimedwait` say about a process or a signal.
  package typealias SignalInfo = siginfo_t
  /// `sigset_t`: a set of signals.
  package typealias SignalSet = sigset_t
  /// A signal handler, what `signal` installs (`SIG_DFL` is nil).
  package typealias SignalHandler = __sighandler_t
  /// `idtype_t`: what kind of id `waitid` is given.
  package typealias WaitIDType = idtype_t
  /// `id_t`.
  package typealias WaitID = id_t
  /// `struct termios`: a terminal's settings.
  package typealias TerminalAttributes = termios
  /// `tcflag_t`: one of ``TerminalAttributes``' flag words.
  package typealias TerminalFlags = tcflag_t
  /// `struct winsize`: a terminal's size.
  package typealias WindowSize = winsize
  /// `struct rlimit`: a resource limit.
  package typealias ResourceLimit = rlimit
  /// `struct inotify_event`'s fixed part; the name follows it.
  package typealias InotifyEvent = inotify_event
  /// `DIR *`, what `opendir` returns.
  package typealias Directory = OpaquePointer
  /// `struct dirent`, what `readdir` returns.
  package typealias DirectoryEntry = dirent
  /// `posix_spawn_file_actions_t`.
  package typealias SpawnFileActions = posix_spawn_file_actions_t
  /// `posix_spawnattr_t`.
  package typealias SpawnAttributes = posix_spawnattr_t
  /// `pthread_t`.
  package typealias Thread = pthread_t
  /// What `pthread_create` runs.
  package typealias ThreadBody = @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
}
