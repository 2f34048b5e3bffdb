#ifndef XDG_SHARE_CSECCOMP_SHIM_H
#define XDG_SHARE_CSECCOMP_SHIM_H
#include <errno.h>
#include <linux/sched.h> /* CLONE_NEWUSER, which <sched.h> has only with _GNU_SOURCE */
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/socket.h>

/* libseccomp's actions and architectures are function-like or composite macros, which Swift does
   not import; so are the kernel's numbers a filter compares with. Each is a function here, and the
   headers they come from stay out of the Swift module that uses them (ShareSeccomp imports no
   Glibc). */
static inline uint32_t xs_seccomp_allow(void) { return SCMP_ACT_ALLOW; }
static inline uint32_t xs_seccomp_fail_with(uint16_t number) { return SCMP_ACT_ERRNO(number); }
static inline uint32_t xs_seccomp_arch_x86_64(void) { return SCMP_ARCH_X86_64; }
static inline uint32_t xs_seccomp_arch_x86(void) { return SCMP_ARCH_X86; }
static inline uint32_t xs_seccomp_arch_x32(void) { return SCMP_ARCH_X32; }
static inline uint32_t xs_seccomp_arch_native(void) { return SCMP_ARCH_NATIVE; }
static inline int xs_seccomp_unknown_syscall(void) { return __NR_SCMP_ERROR; }

static inline uint16_t xs_errno_eperm(void) { return EPERM; }
static inline uint16_t xs_errno_enosys(void) { return ENOSYS; }
static inline uint16_t xs_errno_eafnosupport(void) { return EAFNOSUPPORT; }
static inline int xs_errno_eexist(void) { return EEXIST; }
static inline int xs_errno_efault(void) { return EFAULT; }

static inline uint64_t xs_ioctl_tiocsti(void) { return TIOCSTI; }
static inline uint64_t xs_ioctl_tioclinux(void) { return TIOCLINUX; }
static inline uint64_t xs_clone_newuser(void) { return CLONE_NEWUSER; }
static inline uint64_t xs_personality_linux(void) { return PER_LINUX; }

static inline uint64_t xs_family_unspec(void) { return AF_UNSPEC; }
static inline uint64_t xs_family_unix(void) { return AF_UNIX; }
static inline uint64_t xs_family_inet(void) { return AF_INET; }
static inline uint64_t xs_family_inet6(void) { return AF_INET6; }
static inline uint64_t xs_family_netlink(void) { return AF_NETLINK; }
static inline uint64_t xs_family_bluetooth(void) { return AF_BLUETOOTH; }
#endif
