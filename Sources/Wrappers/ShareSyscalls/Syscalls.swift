import Glibc

// The trampolines: every libc function xdg-share calls, under its C name with `system_` before
// it, as swift-system's Internals/Syscalls.swift does. They only pass their arguments on, so
// that each call is findable by its C name and nothing else in the package imports Glibc; what
// a failure means is decided by the caller, through `valueOrErrno`. The GNU extensions Glibc's
// module hides (`pipe2`, `memfd_create`, ...) are SharePOSIX's, in its Internals/Syscalls.swift.

// MARK: Files and descriptors

/// Opens `path`. The corresponding C function is `open`.
package func system_open(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
  open(path, flags)
}

/// Opens `path`, creating it with `mode` when `flags` say so. The corresponding C function is
/// `open`.
package func system_open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: CInterop.Mode) -> Int32 {
  open(path, flags, mode)
}

/// Opens `path` relative to the folder open as `directory`. The corresponding C function is
/// `openat`.
package func system_openat(_ directory: Int32, _ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
  openat(directory, path, flags)
}

/// Reads at `offset`, leaving the descriptor's own offset (shared with whoever gave it) alone.
/// The corresponding C function is `pread`.
package func system_pread(
  _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: Int64
)
  -> Int
{
  pread(descriptor, buffer, count, off_t(offset))
}

/// The corresponding C function is `close`.
package func system_close(_ descriptor: Int32) -> Int32 {
  close(descriptor)
}

/// The corresponding C function is `read`.
package func system_read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}

/// The corresponding C function is `write`.
package func system_write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}

/// The corresponding C function is `lseek`.
package func system_lseek(_ descriptor: Int32, _ offset: Int64, _ whence: Int32) -> Int64 {
  Int64(lseek(descriptor, off_t(offset), whence))
}

/// The corresponding C function is `fcntl`.
package func system_fcntl(_ descriptor: Int32, _ command: Int32) -> Int32 {
  fcntl(descriptor, command)
}

/// The corresponding C function is `fcntl`.
package func system_fcntl(_ descriptor: Int32, _ command: Int32, _ value: Int32) -> Int32 {
  fcntl(descriptor, command, value)
}

/// The corresponding C function is `dup2`.
package func system_dup2(_ descriptor: Int32, _ target: Int32) -> Int32 {
  dup2(descriptor, target)
}

/// The corresponding C function is `fstat`.
package func system_fstat(_ descriptor: Int32, _ status: UnsafeMutablePointer<CInterop.FileStatus>) -> Int32 {
  fstat(descriptor, status)
}

/// The corresponding C function is `fsync`.
package func system_fsync(_ descriptor: Int32) -> Int32 {
  fsync(descriptor)
}

/// The corresponding C function is `fchmod`.
package func system_fchmod(_ descriptor: Int32, _ mode: CInterop.Mode) -> Int32 {
  fchmod(descriptor, mode)
}

/// The corresponding C function is `flock`.
package func system_flock(_ descriptor: Int32, _ operation: Int32) -> Int32 {
  flock(descriptor, operation)
}

/// The corresponding C function is `poll`.
package func system_poll(
  _ descriptors: UnsafeMutablePointer<CInterop.PollDescriptor>?, _ count: Int, _ milliseconds: Int32
) -> Int32 {
  poll(descriptors, nfds_t(count), milliseconds)
}

/// The corresponding C function is `isatty`.
package func system_isatty(_ descriptor: Int32) -> Int32 {
  isatty(descriptor)
}

/// The corresponding C function is `ioctl`.
package func system_ioctl(_ descriptor: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32
{
  ioctl(descriptor, request, argument)
}

/// The corresponding C function is `tcgetattr`.
package func system_tcgetattr(
  _ descriptor: Int32, _ attributes: UnsafeMutablePointer<CInterop.TerminalAttributes>
)
  -> Int32
{
  tcgetattr(descriptor, attributes)
}

/// The corresponding C function is `tcsetattr`.
package func system_tcsetattr(
  _ descriptor: Int32, _ when: Int32, _ attributes: UnsafePointer<CInterop.TerminalAttributes>
) -> Int32 {
  tcsetattr(descriptor, when, attributes)
}

/// The corresponding C function is `inotify_init1`.
package func system_inotify_init1(_ flags: Int32) -> Int32 {
  inotify_init1(flags)
}

/// The corresponding C function is `inotify_add_watch`.
package func system_inotify_add_watch(_ descriptor: Int32, _ path: UnsafePointer<CChar>, _ mask: UInt32)
  -> Int32
{
  inotify_add_watch(descriptor, path, mask)
}

/// The corresponding C function is `inotify_rm_watch`.
package func system_inotify_rm_watch(_ descriptor: Int32, _ watch: Int32) -> Int32 {
  inotify_rm_watch(descriptor, watch)
}

// MARK: Sockets

/// The corresponding C function is `socket`.
package func system_socket(_ domain: Int32, _ type: Int32, _ protocol: Int32) -> Int32 {
  socket(domain, type, `protocol`)
}

/// The corresponding C function is `connect`.
package func system_connect(
  _ descriptor: Int32, _ address: UnsafePointer<CInterop.SocketAddress>, _ length: UInt32
) -> Int32 {
  connect(descriptor, address, length)
}

/// The corresponding C function is `bind`.
package func system_bind(
  _ descriptor: Int32, _ address: UnsafePointer<CInterop.SocketAddress>, _ length: UInt32
) -> Int32 {
  bind(descriptor, address, length)
}

/// The corresponding C function is `listen`.
package func system_listen(_ descriptor: Int32, _ backlog: Int32) -> Int32 {
  listen(descriptor, backlog)
}

/// The corresponding C function is `accept`.
package func system_accept(_ descriptor: Int32) -> Int32 {
  accept(descriptor, nil, nil)
}

/// Sends a message, and descriptors with it in its control data. The corresponding C function is
/// `sendmsg`.
package func system_sendmsg(
  _ descriptor: Int32, _ message: UnsafePointer<CInterop.SocketMessageHeader>, _ flags: Int32
) -> Int {
  sendmsg(descriptor, message, flags)
}

/// Receives a message, and the descriptors that came with it. The corresponding C function is
/// `recvmsg`.
package func system_recvmsg(
  _ descriptor: Int32, _ message: UnsafeMutablePointer<CInterop.SocketMessageHeader>, _ flags: Int32
) -> Int {
  recvmsg(descriptor, message, flags)
}

// MARK: Paths

/// The corresponding C function is `stat`.
package func system_stat(_ path: UnsafePointer<CChar>, _ status: UnsafeMutablePointer<CInterop.FileStatus>)
  -> Int32
{
  stat(path, status)
}

/// The corresponding C function is `lstat`.
package func system_lstat(_ path: UnsafePointer<CChar>, _ status: UnsafeMutablePointer<CInterop.FileStatus>)
  -> Int32
{
  lstat(path, status)
}

/// The corresponding C function is `access`.
package func system_access(_ path: UnsafePointer<CChar>, _ mode: Int32) -> Int32 {
  access(path, mode)
}

/// The corresponding C function is `mkdir`.
package func system_mkdir(_ path: UnsafePointer<CChar>, _ mode: CInterop.Mode) -> Int32 {
  mkdir(path, mode)
}

/// The corresponding C function is `rmdir`.
package func system_rmdir(_ path: UnsafePointer<CChar>) -> Int32 {
  rmdir(path)
}

/// The corresponding C function is `unlink`.
package func system_unlink(_ path: UnsafePointer<CChar>) -> Int32 {
  unlink(path)
}

/// The corresponding C function is `link`.
package func system_link(_ existing: UnsafePointer<CChar>, _ new: UnsafePointer<CChar>) -> Int32 {
  link(existing, new)
}

/// The corresponding C function is `rename`.
package func system_rename(_ source: UnsafePointer<CChar>, _ destination: UnsafePointer<CChar>) -> Int32 {
  rename(source, destination)
}

/// The corresponding C function is `symlink`.
package func system_symlink(_ target: UnsafePointer<CChar>, _ path: UnsafePointer<CChar>) -> Int32 {
  symlink(target, path)
}

/// The corresponding C function is `chmod`.
package func system_chmod(_ path: UnsafePointer<CChar>, _ mode: CInterop.Mode) -> Int32 {
  chmod(path, mode)
}

/// The corresponding C function is `readlink`.
package func system_readlink(_ path: UnsafePointer<CChar>, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int)
  -> Int
{
  readlink(path, buffer, size)
}

/// A new string from `malloc` that the caller frees with ``system_free(_:)``. The
/// corresponding C function is `realpath`.
package func system_realpath(_ path: UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>? {
  realpath(path, nil)
}

/// The corresponding C function is `opendir`.
package func system_opendir(_ path: UnsafePointer<CChar>) -> CInterop.Directory? {
  opendir(path)
}

/// The corresponding C function is `readdir`.
package func system_readdir(_ directory: CInterop.Directory) -> UnsafeMutablePointer<CInterop.DirectoryEntry>?
{
  readdir(directory)
}

/// The corresponding C function is `closedir`.
package func system_closedir(_ directory: CInterop.Directory) -> Int32 {
  closedir(directory)
}

// MARK: Processes

/// The corresponding C function is `getpid`.
package func system_getpid() -> CInterop.ProcessID {
  getpid()
}

/// The corresponding C function is `getppid`.
package func system_getppid() -> CInterop.ProcessID {
  getppid()
}

/// The corresponding C function is `getpgrp`.
package func system_getpgrp() -> CInterop.ProcessID {
  getpgrp()
}

/// The corresponding C function is `getpgid`.
package func system_getpgid(_ pid: CInterop.ProcessID) -> CInterop.ProcessID {
  getpgid(pid)
}

/// The corresponding C function is `kill`.
package func system_kill(_ pid: CInterop.ProcessID, _ signal: Int32) -> Int32 {
  kill(pid, signal)
}

/// The corresponding C function is `killpg`.
package func system_killpg(_ group: CInterop.ProcessID, _ signal: Int32) -> Int32 {
  killpg(group, signal)
}

/// The corresponding C function is `waitpid`.
package func system_waitpid(
  _ pid: CInterop.ProcessID, _ status: UnsafeMutablePointer<Int32>?, _ options: Int32
)
  -> CInterop.ProcessID
{
  waitpid(pid, status, options)
}

/// The corresponding C function is `waitid`.
package func system_waitid(
  _ type: CInterop.WaitIDType, _ id: CInterop.WaitID, _ info: UnsafeMutablePointer<CInterop.SignalInfo>,
  _ options: Int32
) -> Int32 {
  waitid(type, id, info, options)
}

/// Starts `path` as a new process. Returns an error number, not `-1`. The corresponding C
/// function is `posix_spawn`.
package func system_posix_spawn(
  _ pid: UnsafeMutablePointer<CInterop.ProcessID>, _ path: UnsafePointer<CChar>,
  _ actions: UnsafePointer<CInterop.SpawnFileActions>?,
  _ attributes: UnsafePointer<CInterop.SpawnAttributes>?,
  _ argv: UnsafePointer<UnsafeMutablePointer<CChar>?>, _ envp: UnsafePointer<UnsafeMutablePointer<CChar>?>
) -> Int32 {
  posix_spawn(pid, path, actions, attributes, argv, envp)
}

/// The corresponding C function is `posix_spawn_file_actions_init`.
package func system_posix_spawn_file_actions_init(_ actions: UnsafeMutablePointer<CInterop.SpawnFileActions>)
  -> Int32
{
  posix_spawn_file_actions_init(actions)
}

/// The corresponding C function is `posix_spawn_file_actions_destroy`.
package func system_posix_spawn_file_actions_destroy(
  _ actions: UnsafeMutablePointer<CInterop.SpawnFileActions>
)
  -> Int32
{
  posix_spawn_file_actions_destroy(actions)
}

/// The corresponding C function is `posix_spawn_file_actions_adddup2`.
package func system_posix_spawn_file_actions_adddup2(
  _ actions: UnsafeMutablePointer<CInterop.SpawnFileActions>, _ descriptor: Int32, _ target: Int32
) -> Int32 {
  posix_spawn_file_actions_adddup2(actions, descriptor, target)
}

/// The corresponding C function is `posix_spawnattr_init`.
package func system_posix_spawnattr_init(_ attributes: UnsafeMutablePointer<CInterop.SpawnAttributes>)
  -> Int32
{
  posix_spawnattr_init(attributes)
}

/// The corresponding C function is `posix_spawnattr_destroy`.
package func system_posix_spawnattr_destroy(_ attributes: UnsafeMutablePointer<CInterop.SpawnAttributes>)
  -> Int32
{
  posix_spawnattr_destroy(attributes)
}

/// The corresponding C function is `posix_spawnattr_setpgroup`.
package func system_posix_spawnattr_setpgroup(
  _ attributes: UnsafeMutablePointer<CInterop.SpawnAttributes>, _ group: CInterop.ProcessID
) -> Int32 {
  posix_spawnattr_setpgroup(attributes, group)
}

/// The corresponding C function is `posix_spawnattr_setsigmask`.
package func system_posix_spawnattr_setsigmask(
  _ attributes: UnsafeMutablePointer<CInterop.SpawnAttributes>, _ mask: UnsafePointer<CInterop.SignalSet>
) -> Int32 {
  posix_spawnattr_setsigmask(attributes, mask)
}

/// The corresponding C function is `posix_spawnattr_setsigdefault`.
package func system_posix_spawnattr_setsigdefault(
  _ attributes: UnsafeMutablePointer<CInterop.SpawnAttributes>, _ signals: UnsafePointer<CInterop.SignalSet>
) -> Int32 {
  posix_spawnattr_setsigdefault(attributes, signals)
}

/// The corresponding C function is `posix_spawnattr_setflags`.
package func system_posix_spawnattr_setflags(
  _ attributes: UnsafeMutablePointer<CInterop.SpawnAttributes>, _ flags: Int16
)
  -> Int32
{
  posix_spawnattr_setflags(attributes, flags)
}

/// The corresponding C function is `setrlimit`.
package func system_setrlimit(_ resource: Int32, _ limit: UnsafePointer<CInterop.ResourceLimit>) -> Int32 {
  setrlimit(__rlimit_resource_t(UInt32(resource)), limit)
}

/// Ends the process, flushing C's buffered streams. The corresponding C function is `exit`.
package func system_exit(_ status: Int32) -> Never {
  exit(status)
}

// MARK: Signals

/// The corresponding C function is `signal`.
@discardableResult
package func system_signal(_ signal: Int32, _ handler: CInterop.SignalHandler?) -> CInterop.SignalHandler? {
  Glibc.signal(signal, handler)
}

/// The corresponding C function is `raise`.
package func system_raise(_ signal: Int32) -> Int32 {
  raise(signal)
}

/// The corresponding C function is `sigemptyset`.
package func system_sigemptyset(_ set: UnsafeMutablePointer<CInterop.SignalSet>) -> Int32 {
  sigemptyset(set)
}

/// The corresponding C function is `sigaddset`.
package func system_sigaddset(_ set: UnsafeMutablePointer<CInterop.SignalSet>, _ signal: Int32) -> Int32 {
  sigaddset(set, signal)
}

/// Returns an error number, not `-1`. The corresponding C function is `pthread_sigmask`.
package func system_pthread_sigmask(
  _ how: Int32, _ set: UnsafePointer<CInterop.SignalSet>?, _ old: UnsafeMutablePointer<CInterop.SignalSet>?
) -> Int32 {
  pthread_sigmask(how, set, old)
}

/// Returns an error number, not `-1`. The corresponding C function is `sigwait`.
package func system_sigwait(_ set: UnsafePointer<CInterop.SignalSet>, _ signal: UnsafeMutablePointer<Int32>)
  -> Int32
{
  sigwait(set, signal)
}

/// The corresponding C function is `sigtimedwait`.
package func system_sigtimedwait(
  _ set: UnsafePointer<CInterop.SignalSet>, _ info: UnsafeMutablePointer<CInterop.SignalInfo>?,
  _ timeout: UnsafePointer<CInterop.TimeSpec>?
) -> Int32 {
  sigtimedwait(set, info, timeout)
}

// MARK: Threads and time

/// Returns an error number, not `-1`. The corresponding C function is `pthread_create`.
package func system_pthread_create(
  _ thread: UnsafeMutablePointer<CInterop.Thread>, _ body: CInterop.ThreadBody,
  _ argument: UnsafeMutableRawPointer?
) -> Int32 {
  pthread_create(thread, nil, body, argument)
}

/// Returns an error number, not `-1`. The corresponding C function is `pthread_detach`.
package func system_pthread_detach(_ thread: CInterop.Thread) -> Int32 {
  pthread_detach(thread)
}

/// The corresponding C function is `nanosleep`.
package func system_nanosleep(
  _ request: UnsafePointer<CInterop.TimeSpec>, _ remaining: UnsafeMutablePointer<CInterop.TimeSpec>?
) -> Int32 {
  nanosleep(request, remaining)
}

/// The corresponding C function is `clock_gettime`.
package func system_clock_gettime(_ clock: Int32, _ time: UnsafeMutablePointer<CInterop.TimeSpec>) -> Int32 {
  clock_gettime(clockid_t(clock), time)
}

/// The corresponding C function is `tzset`.
package func system_tzset() {
  tzset()
}

/// The corresponding C function is `localtime_r`.
@discardableResult
package func system_localtime_r(
  _ time: UnsafePointer<CInterop.Time>, _ result: UnsafeMutablePointer<CInterop.CalendarTime>
) -> UnsafeMutablePointer<CInterop.CalendarTime>? {
  localtime_r(time, result)
}

// MARK: Memory and C strings

/// The length of the NUL-terminated string at `string`. The corresponding C function is
/// `strlen`.
package func system_strlen(_ string: UnsafePointer<CChar>) -> Int {
  strlen(string)
}

/// Frees what libc allocated (``system_realpath(_:)``'s result). The corresponding C function
/// is `free`.
package func system_free(_ pointer: UnsafeMutableRawPointer?) {
  free(pointer)
}

/// The corresponding C function is `strerror`.
package func system_strerror(_ code: Int32) -> UnsafeMutablePointer<CChar>? {
  strerror(code)
}

/// This process's environment, `NAME=VALUE` strings up to a NULL. The corresponding C variable
/// is `environ`.
package var system_environ: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
  environ
}
