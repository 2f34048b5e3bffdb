import Glibc

// libc's constants under their C names with a leading underscore, as swift-system spells them:
// the modules that call the trampolines use these rather than Glibc's (those that import Glibc do
// so only to read libc's struct fields), and the C name stays findable. The underscore keeps them apart from the same names a C module's headers bring
// (CGLib's, CGtk's): two constants of one name in one file would be ambiguous.

// MARK: socket(2)

/// Sockets in the file system (`AF_UNIX`).
package var _AF_UNIX: Int32 { AF_UNIX }
/// A stream socket.
package var _SOCK_STREAM: Int32 { Int32(SOCK_STREAM.rawValue) }
/// A socket closed in programs this one starts.
package var _SOCK_CLOEXEC: Int32 { Int32(SOCK_CLOEXEC.rawValue) }
/// The socket level of `sendmsg`'s control data.
package var _SOL_SOCKET: Int32 { SOL_SOCKET }
/// Control data that carries descriptors.
package var _SCM_RIGHTS: Int32 { Int32(SCM_RIGHTS) }
/// Descriptors received are close-on-exec.
package var _MSG_CMSG_CLOEXEC: Int32 { Int32(MSG_CMSG_CLOEXEC) }
/// No SIGPIPE when the other end has gone: `EPIPE` instead.
package var _MSG_NOSIGNAL: Int32 { Int32(MSG_NOSIGNAL) }
/// Control data was cut short: descriptors were dropped.
package var _MSG_CTRUNC: Int32 { Int32(MSG_CTRUNC) }

// MARK: open(2), access(2), lseek(2), fcntl(2), flock(2)

/// Open for reading only.
package var _O_RDONLY: Int32 { O_RDONLY }
/// Open for writing only.
package var _O_WRONLY: Int32 { O_WRONLY }
/// Open for reading and writing.
package var _O_RDWR: Int32 { O_RDWR }
/// Create the file when it is missing.
package var _O_CREAT: Int32 { O_CREAT }
/// With `O_CREAT`: fail when anything is there already.
package var _O_EXCL: Int32 { O_EXCL }
/// Truncate the file to nothing.
package var _O_TRUNC: Int32 { O_TRUNC }
/// Every write goes to the end of the file.
package var _O_APPEND: Int32 { O_APPEND }
/// Never wait: not to open (a FIFO without a writer), not to read.
package var _O_NONBLOCK: Int32 { O_NONBLOCK }
/// Closed in every program this process executes.
package var _O_CLOEXEC: Int32 { O_CLOEXEC }
/// Fail when the last component is a symbolic link.
package var _O_NOFOLLOW: Int32 { O_NOFOLLOW }
/// Leave the access time alone. Glibc's module leaves it out (it needs `_GNU_SOURCE`); the same
/// value on every Linux architecture Swift runs on.
package var _O_NOATIME: Int32 { 0o1000000 }
/// A descriptor that names a file without opening it for reading or writing. Glibc's module
/// leaves it out (`_GNU_SOURCE`); the same value on every Linux architecture Swift runs on.
package var _O_PATH: Int32 { 0o10000000 }
/// A terminal opened never becomes the controlling one.
package var _O_NOCTTY: Int32 { O_NOCTTY }
/// Fail unless the path is a folder.
package var _O_DIRECTORY: Int32 { O_DIRECTORY }
/// The access mode's bits of `fcntl(F_GETFL)`.
package var _O_ACCMODE: Int32 { O_ACCMODE }
/// `openat`: relative to the working directory.
package var _AT_FDCWD: Int32 { AT_FDCWD }
/// `access`: may execute (a folder: may search).
package var _X_OK: Int32 { X_OK }
/// `access`: may read.
package var _R_OK: Int32 { R_OK }
/// The longest path the kernel takes, with its NUL.
package var _PATH_MAX: Int32 { PATH_MAX }
/// `lseek` from the start of the file.
package var _SEEK_SET: Int32 { SEEK_SET }
/// `fcntl`: the descriptor's status flags.
package var _F_GETFL: Int32 { F_GETFL }
/// `fcntl`: set the descriptor's status flags.
package var _F_SETFL: Int32 { F_SETFL }
/// `fcntl`: the descriptor's own flags (close-on-exec).
package var _F_GETFD: Int32 { F_GETFD }
/// `fcntl`: set the descriptor's own flags.
package var _F_SETFD: Int32 { F_SETFD }
/// `fcntl`: a copy at the lowest free number at or above the argument, close-on-exec.
package var _F_DUPFD_CLOEXEC: Int32 { F_DUPFD_CLOEXEC }
/// The close-on-exec flag of `F_GETFD` and `F_SETFD`.
package var _FD_CLOEXEC: Int32 { FD_CLOEXEC }
/// `flock`: an exclusive lock.
package var _LOCK_EX: Int32 { LOCK_EX }

// MARK: struct stat's st_mode

/// The file type bits of `st_mode`.
package var _S_IFMT: CInterop.Mode { S_IFMT }
/// A regular file.
package var _S_IFREG: CInterop.Mode { S_IFREG }
/// A folder.
package var _S_IFDIR: CInterop.Mode { S_IFDIR }
/// A symbolic link.
package var _S_IFLNK: CInterop.Mode { S_IFLNK }
/// A character device.
package var _S_IFCHR: CInterop.Mode { S_IFCHR }
/// A block device.
package var _S_IFBLK: CInterop.Mode { S_IFBLK }
/// A FIFO.
package var _S_IFIFO: CInterop.Mode { S_IFIFO }

// MARK: poll(2), inotify(7), clocks

/// `poll`: there is something to read (or the end of the file).
package var _POLLIN: Int16 { Int16(POLLIN) }
/// `inotify_init1`: close-on-exec.
package var _IN_CLOEXEC: Int32 { Int32(IN_CLOEXEC) }
/// `inotify_init1`: reads never wait.
package var _IN_NONBLOCK: Int32 { Int32(IN_NONBLOCK) }
/// An entry was made in the folder.
package var _IN_CREATE: UInt32 { UInt32(IN_CREATE) }
/// An entry was removed from the folder.
package var _IN_DELETE: UInt32 { UInt32(IN_DELETE) }
/// An entry was moved out of the folder.
package var _IN_MOVED_FROM: UInt32 { UInt32(IN_MOVED_FROM) }
/// An entry was moved into the folder.
package var _IN_MOVED_TO: UInt32 { UInt32(IN_MOVED_TO) }
/// A file opened for writing was closed.
package var _IN_CLOSE_WRITE: UInt32 { UInt32(IN_CLOSE_WRITE) }
/// An entry's metadata changed.
package var _IN_ATTRIB: UInt32 { UInt32(IN_ATTRIB) }
/// The watched folder itself was removed.
package var _IN_DELETE_SELF: UInt32 { UInt32(IN_DELETE_SELF) }
/// The watched folder itself was moved.
package var _IN_MOVE_SELF: UInt32 { UInt32(IN_MOVE_SELF) }
/// Watch only when the path is a folder.
package var _IN_ONLYDIR: UInt32 { UInt32(IN_ONLYDIR) }
/// Events were lost.
package var _IN_Q_OVERFLOW: UInt32 { UInt32(IN_Q_OVERFLOW) }
/// The clock that only moves forward, whatever the wall clock does.
package var _CLOCK_MONOTONIC: Int32 { CLOCK_MONOTONIC }

// MARK: Signals and processes

/// Hang-up: the terminal, or a parent, went away.
package var _SIGHUP: Int32 { SIGHUP }
/// Interrupt: Ctrl-C.
package var _SIGINT: Int32 { SIGINT }
/// Quit: Ctrl-\.
package var _SIGQUIT: Int32 { SIGQUIT }
/// Illegal instruction.
package var _SIGILL: Int32 { SIGILL }
/// Trace trap.
package var _SIGTRAP: Int32 { SIGTRAP }
/// Abort.
package var _SIGABRT: Int32 { SIGABRT }
/// Bus error.
package var _SIGBUS: Int32 { SIGBUS }
/// Arithmetic error.
package var _SIGFPE: Int32 { SIGFPE }
/// Kill: cannot be caught or blocked.
package var _SIGKILL: Int32 { SIGKILL }
/// First user-defined signal.
package var _SIGUSR1: Int32 { SIGUSR1 }
/// Segmentation fault.
package var _SIGSEGV: Int32 { SIGSEGV }
/// Second user-defined signal.
package var _SIGUSR2: Int32 { SIGUSR2 }
/// A write to a pipe no one reads.
package var _SIGPIPE: Int32 { SIGPIPE }
/// Alarm clock.
package var _SIGALRM: Int32 { SIGALRM }
/// Terminate: the polite request to end.
package var _SIGTERM: Int32 { SIGTERM }
/// A child ended or stopped.
package var _SIGCHLD: Int32 { SIGCHLD }
/// `signal`: ignore the signal.
package var _SIG_IGN: CInterop.SignalHandler? { SIG_IGN }
/// `signal`: the signal's default action.
package var _SIG_DFL: CInterop.SignalHandler? { SIG_DFL }
/// `pthread_sigmask`: add to the blocked signals.
package var _SIG_BLOCK: Int32 { SIG_BLOCK }
/// `pthread_sigmask`: take from the blocked signals.
package var _SIG_UNBLOCK: Int32 { SIG_UNBLOCK }
/// `si_code` of a signal sent with `kill`.
package var _SI_USER: Int32 { Int32(SI_USER) }
/// `waitid`: wait for children that ended.
package var _WEXITED: Int32 { WEXITED }
/// `waitid`, `waitpid`: return at once when none has.
package var _WNOHANG: Int32 { WNOHANG }
/// `waitid`: leave the child to be waited for again.
package var _WNOWAIT: Int32 { WNOWAIT }
/// `waitid`: the id is a process id.
package var _P_PID: CInterop.WaitIDType { P_PID }
/// `posix_spawnattr_setflags`: set the child's signal mask.
package var _POSIX_SPAWN_SETSIGMASK: Int32 { Int32(POSIX_SPAWN_SETSIGMASK) }
/// `posix_spawnattr_setflags`: give the child the default action of some signals.
package var _POSIX_SPAWN_SETSIGDEF: Int32 { Int32(POSIX_SPAWN_SETSIGDEF) }
/// `posix_spawnattr_setflags`: put the child in a process group.
package var _POSIX_SPAWN_SETPGROUP: Int32 { Int32(POSIX_SPAWN_SETPGROUP) }
/// `setrlimit`: the largest core dump.
package var _RLIMIT_CORE: Int32 { Int32(RLIMIT_CORE.rawValue) }

// MARK: Terminals

/// `c_lflag`: echo what is typed.
package var _ECHO: CInterop.TerminalFlags { CInterop.TerminalFlags(ECHO) }
/// `tcsetattr`: once the output is written, dropping unread input.
package var _TCSAFLUSH: Int32 { TCSAFLUSH }
/// `ioctl`: the terminal's size.
package var _TIOCGWINSZ: UInt { UInt(TIOCGWINSZ) }

// MARK: errno values

/// Operation not permitted.
package var _EPERM: Int32 { EPERM }
/// No such file or directory.
package var _ENOENT: Int32 { ENOENT }
/// No such process.
package var _ESRCH: Int32 { ESRCH }
/// Input/output error.
package var _EIO: Int32 { EIO }
/// No child processes.
package var _ECHILD: Int32 { ECHILD }
/// Permission denied.
package var _EACCES: Int32 { EACCES }
/// File exists.
package var _EEXIST: Int32 { EEXIST }
/// Invalid cross-device link.
package var _EXDEV: Int32 { EXDEV }
/// Not a directory.
package var _ENOTDIR: Int32 { ENOTDIR }
/// Invalid argument.
package var _EINVAL: Int32 { EINVAL }
/// File too large.
package var _EFBIG: Int32 { EFBIG }
/// Too many links.
package var _EMLINK: Int32 { EMLINK }
/// File name too long.
package var _ENAMETOOLONG: Int32 { ENAMETOOLONG }
/// Broken pipe.
package var _EPIPE: Int32 { EPIPE }
/// Function not implemented: an older kernel.
package var _ENOSYS: Int32 { ENOSYS }
/// Operation not supported.
package var _ENOTSUP: Int32 { ENOTSUP }
/// Operation not supported on socket (the same number as `ENOTSUP` on Linux).
package var _EOPNOTSUPP: Int32 { EOPNOTSUPP }
