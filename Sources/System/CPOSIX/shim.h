#ifndef XDG_SHARE_CPOSIX_SHIM_H
#define XDG_SHARE_CPOSIX_SHIM_H
#include <spawn.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

/* GNU extensions that Glibc's Swift module hides (it is built without _GNU_SOURCE). */
int pipe2(int pipefd[2], int flags);
int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *restrict actions,
                                         const char *restrict path);
int memfd_create(const char *name, unsigned int flags);
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/* prctl is variadic, which Swift cannot call: the one-argument options (PR_SET_PDEATHSIG,
   PR_SET_CHILD_SUBREAPER) through a fixed signature. */
static inline int xdg_share_prctl(int option, unsigned long value) {
  return prctl(option, value, 0UL, 0UL, 0UL);
}

/* pidfd_open(2), a descriptor that becomes readable when the process ends, through syscall(2),
   which is variadic: the headers may know the call when the running kernel does not (ENOSYS). */
static inline int xdg_share_pidfd_open(pid_t pid, unsigned int flags) {
#ifdef SYS_pidfd_open
  return (int)syscall(SYS_pidfd_open, pid, flags);
#else
  (void)pid;
  (void)flags;
  errno = ENOSYS;
  return -1;
#endif
}
#endif
