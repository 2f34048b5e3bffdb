internal import SharePOSIX

/// Why a seccomp program could not be made: libseccomp's negative `errno`, or the file it is
/// written to, at the step that failed.
public struct SeccompError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was being done.
  public enum Step: Hashable, Sendable {
    /// `seccomp_init`: no filter at all (out of memory).
    case start
    /// `seccomp_arch_add`: an architecture of the filter (`x86`, `x32`).
    case architecture(String)
    /// `seccomp_rule_add_array`: the rule for this system call.
    case rule(String)
    /// `seccomp_export_bpf`, or the file in memory it writes to and is read back from.
    case export
  }

  public var step: Step
  /// The `errno` value; libseccomp returns its negation.
  public var errno: Int32

  public init(step: Step, errno: Int32) {
    self.step = step
    self.errno = errno
  }

  /// The system's words for ``errno``.
  public var reason: String { SystemError(call: "seccomp", errno: errno).reason }

  public var description: String {
    switch step {
    case .start: "seccomp_init: \(reason)"
    case .architecture(let name): "seccomp_arch_add \(name): \(reason)"
    case .rule(let name): "seccomp_rule_add \(name): \(reason)"
    case .export: "seccomp_export_bpf: \(reason)"
    }
  }
}
