internal import CSeccomp
internal import SharePOSIX

/// Flatpak's seccomp filter (`setup_seccomp` in flatpak's `common/flatpak-run.c`), which GNOME's
/// thumbnailers run theirs under too, compiled for bubblewrap's `--seccomp FD`: every system call
/// is allowed except those that reach past a sandbox or the kernel's shared state.
///
/// - `EPERM`: the kernel's log and keyring, quotas and accounting, the NUMA calls that move other
///   memory, every way to a new namespace or mount (`unshare`, `setns`, `mount`, `pivot_root`,
///   `chroot`, `clone` with `CLONE_NEWUSER`), typing into the terminal (`ioctl` `TIOCSTI`,
///   CVE-2017-5226, and `TIOCLINUX`, CVE-2023-28100), `perf_event_open`, `ptrace`, a
///   `personality` other than Linux's, `modify_ldt`.
/// - `ENOSYS`: `clone3`, whose flags a filter cannot read, so that libc falls back to `clone`
///   (CVE-2021-41133), and the new mount API.
/// - `EAFNOSUPPORT`: `socket` of any family but Unix, IPv4, IPv6 and netlink, and those of
///   ``SocketFamilies``.
///
/// The program is for x86_64 with the i386 and x32 system calls filtered alike: without them a
/// program could make the same calls through the other ABI's numbers, which seccomp tells apart
/// by architecture.
public enum SeccompFilter {
  /// The compiled classic-BPF program (`struct sock_filter`s, 8 bytes each), for a descriptor
  /// handed to `bwrap --seccomp`.
  public static func program(families: SocketFamilies) throws(SeccompError) -> [UInt8] {
    guard let filter = seccomp_init(xs_seccomp_allow()) else { throw SeccompError(step: .start, errno: 12) }
    defer { seccomp_release(filter) }
    for (name, architecture) in [("x86", xs_seccomp_arch_x86()), ("x32", xs_seccomp_arch_x32())] {
      let result = seccomp_arch_add(filter, architecture)
      // The native one is in already; on an x86 machine so is x86.
      guard result == 0 || result == -Int32(xs_errno_eexist()) else {
        throw SeccompError(step: .architecture(name), errno: -result)
      }
    }
    for rule in rules(families: families) {
      try add(rule, to: filter)
    }
    return try export(filter)
  }

  /// One rule: `syscall` fails with `errno` (when its argument matches `argument`).
  struct Rule {
    var syscall: String
    var errno: UInt16
    var argument: scmp_arg_cmp?
  }

  /// Flatpak's rules, in its order, for a service outside development (`ptrace` and
  /// `perf_event_open` refused) that runs no 16-bit code (`modify_ldt` refused, as Flatpak does
  /// for an app that is not multiarch).
  static func rules(families: SocketFamilies) -> [Rule] {
    let denied = xs_errno_eperm()
    let absent = xs_errno_enosys()
    var rules: [Rule] = [
      "syslog", "uselib", "acct", "quotactl", "add_key", "keyctl", "request_key", "move_pages", "mbind",
      "get_mempolicy", "set_mempolicy", "migrate_pages", "unshare", "setns", "mount", "umount", "umount2",
      "pivot_root", "chroot",
    ].map { Rule(syscall: $0, errno: denied, argument: nil) }
    // clone's flags are its first argument on x86 (not on s390, which this filter is not for).
    rules.append(
      Rule(
        syscall: "clone", errno: denied, argument: masked(0, xs_clone_newuser(), equals: xs_clone_newuser())))
    // The request is an int: the upper half of the register is not compared.
    for request in [xs_ioctl_tiocsti(), xs_ioctl_tioclinux()] {
      rules.append(Rule(syscall: "ioctl", errno: denied, argument: masked(1, 0xFFFF_FFFF, equals: request)))
    }
    rules += [
      "clone3", "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
    ].map { Rule(syscall: $0, errno: absent, argument: nil) }
    rules.append(Rule(syscall: "modify_ldt", errno: denied, argument: nil))
    rules += ["perf_event_open", "ptrace"].map { Rule(syscall: $0, errno: denied, argument: nil) }
    rules.append(
      Rule(
        syscall: "personality", errno: denied,
        argument: scmp_arg_cmp(arg: 0, op: SCMP_CMP_NE, datum_a: xs_personality_linux(), datum_b: 0)))
    rules += socketRules(families: families)
    return rules
  }

  /// Every family but the allowed ones refused: those between two allowed ones one by one, those
  /// above the last at once (the allowed ones in numerical order, as Flatpak lists them).
  static func socketRules(families: SocketFamilies) -> [Rule] {
    var allowed = [
      xs_family_unspec(), xs_family_unix(), xs_family_inet(), xs_family_inet6(), xs_family_netlink(),
    ]
    if families.contains(.bluetooth) { allowed.append(xs_family_bluetooth()) }
    allowed.sort()
    let unsupported = xs_errno_eafnosupport()
    var rules: [Rule] = []
    var next: UInt64 = 0
    for family in allowed {
      for refused in next..<family {
        rules.append(
          Rule(
            syscall: "socket", errno: unsupported,
            argument: scmp_arg_cmp(arg: 0, op: SCMP_CMP_EQ, datum_a: refused, datum_b: 0)))
      }
      next = family + 1
    }
    rules.append(
      Rule(
        syscall: "socket", errno: unsupported,
        argument: scmp_arg_cmp(arg: 0, op: SCMP_CMP_GE, datum_a: next, datum_b: 0)))
    return rules
  }

  /// Argument `index` with `mask` applied equal to `value`.
  private static func masked(_ index: UInt32, _ mask: UInt64, equals value: UInt64) -> scmp_arg_cmp {
    scmp_arg_cmp(arg: index, op: SCMP_CMP_MASKED_EQ, datum_a: mask, datum_b: value)
  }

  private static func add(_ rule: Rule, to filter: scmp_filter_ctx) throws(SeccompError) {
    // A negative number names a call this architecture lacks and another one of the filter has
    // (`umount` on x86_64, i386's); libseccomp adds it where it exists.
    let number = seccomp_syscall_resolve_name(rule.syscall)
    guard number != xs_seccomp_unknown_syscall() else { return }
    let action = xs_seccomp_fail_with(rule.errno)
    let result: Int32
    if var argument = rule.argument {
      result = seccomp_rule_add_array(filter, action, number, 1, &argument)
    } else {
      result = seccomp_rule_add_array(filter, action, number, 0, nil)
    }
    // EFAULT: a call libseccomp cannot map to one of the filter's other architectures, which
    // Flatpak skips too.
    guard result == 0 || result == -Int32(xs_errno_efault()) else {
      throw SeccompError(step: .rule(rule.syscall), errno: -result)
    }
  }

  /// The program, written by libseccomp into a file in memory and read back from its start.
  private static func export(_ filter: scmp_filter_ctx) throws(SeccompError) -> [UInt8] {
    do throws(SystemError) {
      let file = try FileDescriptor.inMemory(named: "xdg-share-seccomp", containing: [])
      defer { file.close() }
      let result = file.withRawValue { seccomp_export_bpf(filter, $0) }
      guard result == 0 else { throw SystemError(call: "seccomp_export_bpf", errno: -result) }
      let size = try file.status().size
      var program: [UInt8] = []
      while UInt64(program.count) < size {
        let piece = try file.read(at: UInt64(program.count), upTo: Int(size) - program.count)
        if piece.isEmpty { break }
        program += piece
      }
      return program
    } catch {
      throw SeccompError(step: .export, errno: error.errno)
    }
  }
}
