internal import CPOSIX
internal import ShareSyscalls

// SharePOSIX's own trampolines: the calls Glibc's Swift module hides (it is built without
// _GNU_SOURCE) or cannot import (variadic), declared in CPOSIX's shim. They live here rather
// than in ShareSyscalls because ShareKit links ShareSyscalls and must not depend on a C module
// of ours. No other file of SharePOSIX imports CPOSIX or Glibc.

/// A pipe whose ends get `flags` (`O_CLOEXEC`). The corresponding C function is `pipe2`.
func system_pipe2(_ descriptors: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32 {
  pipe2(descriptors, flags)
}

/// A file in memory. The corresponding C function is `memfd_create`.
func system_memfd_create(_ name: UnsafePointer<CChar>, _ flags: UInt32) -> Int32 {
  memfd_create(name, flags)
}

/// `memfd_create`: the descriptor is closed in every program this process executes.
var _MFD_CLOEXEC: UInt32 { 1 }

/// The child starts in `path`. The corresponding C function is
/// `posix_spawn_file_actions_addchdir_np`.
func system_posix_spawn_file_actions_addchdir_np(
  _ actions: UnsafeMutablePointer<CInterop.SpawnFileActions>, _ path: UnsafePointer<CChar>
) -> Int32 {
  posix_spawn_file_actions_addchdir_np(actions, path)
}

/// The child gets no descriptor from `lowest` up. The corresponding C function is
/// `posix_spawn_file_actions_addclosefrom_np`.
func system_posix_spawn_file_actions_addclosefrom_np(
  _ actions: UnsafeMutablePointer<CInterop.SpawnFileActions>, _ lowest: Int32
) -> Int32 {
  posix_spawn_file_actions_addclosefrom_np(actions, lowest)
}

/// A one-argument `prctl` option (prctl is variadic). The corresponding C function is `prctl`.
func system_prctl(_ option: Int32, _ value: UInt) -> Int32 {
  xdg_share_prctl(option, value)
}

/// `prctl`: adopt the orphans of what this process starts.
var _PR_SET_CHILD_SUBREAPER: Int32 { PR_SET_CHILD_SUBREAPER }
/// `prctl`: the signal this process gets when the thread that started it ends.
var _PR_SET_PDEATHSIG: Int32 { PR_SET_PDEATHSIG }

/// A descriptor of the process `pid`, readable once it has ended; `ENOSYS` before Linux 5.3.
/// Always close-on-exec. The corresponding C function is `pidfd_open`.
func system_pidfd_open(_ pid: CInterop.ProcessID, _ flags: UInt32) -> Int32 {
  xdg_share_pidfd_open(pid, flags)
}
