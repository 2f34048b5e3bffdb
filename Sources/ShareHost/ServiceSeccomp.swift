import ShareCore
internal import ShareSeccomp

/// The seccomp program a service's sandbox runs under (`bwrap --seccomp FD`): Flatpak's filter
/// (``SeccompFilter`` in ShareSeccomp), with the socket families the service's entitlements grant.
enum ServiceSeccomp {
  /// The families beyond Unix, IPv4, IPv6 and netlink that `entitlements` grant: Bluetooth's for
  /// `com.apple.security.device.bluetooth`.
  static func families(for entitlements: Entitlements) -> SocketFamilies {
    entitlements.bluetooth ? [.bluetooth] : []
  }

  /// The compiled program for a service entitled to `entitlements`, to hand bwrap on a
  /// descriptor; why it could not be made (libseccomp's error) in words.
  static func program(for entitlements: Entitlements) -> Result<[UInt8], SeccompError> {
    Result { () throws(SeccompError) in try SeccompFilter.program(families: families(for: entitlements)) }
  }

  /// ``program(for:)``, for a sandbox about to be made: a filter that cannot be made means no
  /// sandbox (``SandboxUnavailable/noSeccompFilter(_:)``), never one without it.
  static func filter(for entitlements: Entitlements) throws(SandboxUnavailable) -> [UInt8] {
    switch program(for: entitlements) {
    case .success(let program): return program
    case .failure(let error): throw .noSeccompFilter(error.reason)
    }
  }
}
