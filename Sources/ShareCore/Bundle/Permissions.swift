/// What entitlements grant, as `xdg-share install` asks consent for it and `why` and `doctor`
/// show it (worded by the command line), and as the reports print it, by Apple's key names.
extension Entitlements {
  /// One thing a service is granted beyond the items it is handed and its own container.
  public enum Permission: Hashable, Sendable {
    /// The network (`com.apple.security.network.client`).
    case network
    /// The session bus, through a filter: these names only (`org.kde.*` for those below it).
    case sessionBus([String])
    /// These App Groups' containers, read-write.
    case applicationGroups([String])
    /// The display, for the service's own windows.
    case display
    /// The items it is handed, writable.
    case itemsWritable
    /// These XDG user folders, read-write.
    case folders([UserFolder])
    /// Printing: the CUPS socket.
    case print
    /// Bluetooth sockets, and BlueZ's names on the buses.
    case bluetooth
    /// No sandbox at all.
    case unconfined
  }

  /// Whether it grants nothing beyond the items the service is handed.
  public var isNone: Bool { permissions.isEmpty }

  /// What these entitlements grant, in the order consent lists it; empty for none.
  public var permissions: [Permission] { permissions(beyond: .none) }

  /// What these entitlements grant that `old` did not: what is new when a bundle replaces one
  /// that had `old`.
  public func permissions(beyond old: Entitlements) -> [Permission] {
    var granted: [Permission] = []
    if networkClient && !old.networkClient { granted.append(.network) }
    let names = Self.added(sessionBusTalk, to: old.sessionBusTalk)
    if !names.isEmpty { granted.append(.sessionBus(names)) }
    let groups = Self.added(applicationGroups, to: old.applicationGroups)
    if !groups.isEmpty { granted.append(.applicationGroups(groups)) }
    if display && !old.display { granted.append(.display) }
    if userSelectedReadWrite && !old.userSelectedReadWrite { granted.append(.itemsWritable) }
    let folders = UserFolder.allCases.filter { userFolders.contains($0) && !old.userFolders.contains($0) }
    if !folders.isEmpty { granted.append(.folders(folders)) }
    if print && !old.print { granted.append(.print) }
    if bluetooth && !old.bluetooth { granted.append(.bluetooth) }
    if unconfined && !old.unconfined { granted.append(.unconfined) }
    return granted
  }

  /// The names of `new` that `old` lacks, each once, in `new`'s order.
  private static func added(_ new: [String], to old: [String]) -> [String] {
    var seen = Set(old)
    return new.filter { seen.insert($0).inserted }
  }

  /// The entitlements as `list --json`, `why --json` and `doctor --json` print them: an object
  /// of Apple's key names (docs/sandbox.md), each boolean that is true and each list that is
  /// not empty; `{}` for none. A bundle's `XDGShareApplicationGroups`, which means the same,
  /// is under `com.apple.security.application-groups`.
  public var report: [String: ReportValue] {
    var object: [String: ReportValue] = [:]
    func flag(_ key: String, _ value: Bool) { if value { object[key] = .bool(true) } }
    func list(_ key: String, _ values: [String]) { if !values.isEmpty { object[key] = .strings(values) } }
    flag(EntitlementKey.networkClient, networkClient)
    list(EntitlementKey.applicationGroups, applicationGroups)
    flag(EntitlementKey.userSelectedReadWrite, userSelectedReadWrite)
    for folder in userFolders { flag(EntitlementKey.key(for: folder), true) }
    flag(EntitlementKey.print, print)
    flag(EntitlementKey.bluetooth, bluetooth)
    list(EntitlementKey.sessionBusTalk, sessionBusTalk)
    flag(EntitlementKey.display, display)
    flag(EntitlementKey.unconfined, unconfined)
    return object
  }
}
