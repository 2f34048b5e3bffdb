#ifndef XDG_SHARE_CPOSIX_SHIM_H
#define XDG_SHARE_CPOSIX_SHIM_H
#include <spawn.h>
#include <fcntl.h>
#include <unistd.h>

/* GNU extensions that Glibc's Swift module hides (it is built without _GNU_SOURCE). */
int pipe2(int pipefd[2], int flags);
int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *restrict actions,
                                         const char *restrict path);
int memfd_create(const char *name, unsigned int flags);
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
#endif
