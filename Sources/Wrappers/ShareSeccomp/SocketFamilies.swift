/// The socket families a sandboxed program may open beyond those every program may: Unix, IPv4,
/// IPv6 and netlink are always allowed (a service entitled to no network is kept off it by its
/// network namespace, not by its families); any other family gets `EAFNOSUPPORT`, as if the
/// kernel had none.
public struct SocketFamilies: OptionSet, Sendable, Hashable {
  public let rawValue: UInt32

  public init(rawValue: UInt32) {
    self.rawValue = rawValue
  }

  /// `AF_BLUETOOTH`, for a service entitled to `com.apple.security.device.bluetooth`.
  public static let bluetooth = SocketFamilies(rawValue: 1 << 0)
}
