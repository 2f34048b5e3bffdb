import ShareCore

/// The words of a service's permissions, one wording for `install`, `why` and `doctor`: what
/// its entitlements grant beyond the items it is handed, in plain words, as `flatpak install`
/// shows an application's.
extension Wording {
  /// One permission: "Network access", "Session bus: talk to org.kde.kdeconnect".
  static func describe(_ permission: Entitlements.Permission) -> String {
    switch permission {
    case .network: "Network access"
    case .sessionBus(let names): "Session bus: talk to " + names.joined(separator: ", ")
    case .applicationGroups(let groups): "Application groups: " + groups.joined(separator: ", ")
    case .display: "Display"
    case .itemsWritable: "Items writable"
    case .folders(let folders): "Folders: " + folders.map(name).joined(separator: ", ") + " (read-write)"
    case .print: "Printing"
    case .bluetooth: "Bluetooth"
    case .unconfined: "No sandbox (unconfined)"
    }
  }

  /// An XDG user folder as a file manager names it.
  static func name(_ folder: Entitlements.UserFolder) -> String {
    switch folder {
    case .downloads: "Downloads"
    case .pictures: "Pictures"
    case .music: "Music"
    case .movies: "Videos"
    }
  }

  /// The line `why` and `doctor` show under a service that has permissions: "Permissions:
  /// Network access; Display". A service without any has no such line.
  static func permissionsLine(_ entitlements: Entitlements) -> String? {
    let permissions = entitlements.permissions
    guard !permissions.isEmpty else { return nil }
    return "Permissions: " + permissions.map(describe).joined(separator: "; ")
  }

  /// What `install` prints before it installs: the permissions, one a line, under "Permissions:",
  /// or, when the bundle replaces one, only those that are new, under "New permissions:". When
  /// there are none, nothing, unless `sayingNone` (a new bundle, installed from a terminal): what
  /// a script reads of a bundle that asks for nothing stays as it always was.
  static func consent(_ permissions: [Entitlements.Permission], replacing: Bool, sayingNone: Bool = false)
    -> [String]
  {
    guard !permissions.isEmpty else {
      return sayingNone && !replacing ? ["Permissions: none beyond the items it is handed"] : []
    }
    return [replacing ? "New permissions:" : "Permissions:"] + permissions.map { "  " + describe($0) }
  }

  /// Why `install` refuses a bundle that asks for no sandbox, and how to install it anyway.
  static func refusedUnconfined(_ name: String, id: String) -> String {
    "not installing \(name) (\(id)): it asks to run without a sandbox (\(EntitlementKey.unconfined)), "
      + "with everything your account can reach; if you trust it, install it with --allow-unconfined"
  }
}
