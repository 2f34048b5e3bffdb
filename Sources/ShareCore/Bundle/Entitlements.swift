/// What a service may reach beyond the items it is handed and its own container: the bundle's
/// `Entitlements.plist`, with Apple's keys where their meaning carries over to Linux and a few of
/// xdg-share's own (docs/sandbox.md). A service that declares nothing runs with none of them:
/// no network, no session bus, no display, its items read-only.
public struct Entitlements: Sendable, Equatable, Hashable {
  /// `com.apple.security.network.client`: the network, with what resolving names and checking
  /// certificates needs (`resolv.conf`, `hosts`, the CA certificates).
  public var networkClient: Bool
  /// `com.apple.security.application-groups` (and `XDGShareApplicationGroups` in `Info.plist`,
  /// which means the same): these groups' containers, read-write, at the paths they have outside.
  public var applicationGroups: [String]
  /// `com.apple.security.files.user-selected.read-write`: the shared items writable; without it
  /// they are read-only.
  public var userSelectedReadWrite: Bool
  /// `com.apple.security.files.downloads.read-write`, `com.apple.security.assets.pictures.read-write`,
  /// `….music.read-write`, `….movies.read-write`: those XDG user folders, read-write.
  public var userFolders: Set<UserFolder>
  /// `com.apple.security.print`: the CUPS socket.
  public var print: Bool
  /// `com.apple.security.device.bluetooth`: Bluetooth sockets, and BlueZ's names on the buses.
  public var bluetooth: Bool
  /// `org.xdgshare.session-bus.talk`: the session bus, through `xdg-dbus-proxy --filter`,
  /// talking to these names only.
  public var sessionBusTalk: [String]
  /// `org.xdgshare.display`: the display, for a service's own windows.
  public var display: Bool
  /// `org.xdgshare.unconfined`: no sandbox at all. `xdg-share install` refuses a bundle that asks
  /// for it unless given `--allow-unconfined`.
  public var unconfined: Bool

  /// An XDG user folder an entitlement grants, by the name `user-dirs.dirs` gives it
  /// (`XDG_DOWNLOAD_DIR`, …).
  public enum UserFolder: String, Sendable, Hashable, CaseIterable, Comparable {
    case downloads = "DOWNLOAD"
    case pictures = "PICTURES"
    case music = "MUSIC"
    case movies = "VIDEOS"

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  public init(
    networkClient: Bool = false, applicationGroups: [String] = [], userSelectedReadWrite: Bool = false,
    userFolders: Set<UserFolder> = [], print: Bool = false, bluetooth: Bool = false,
    sessionBusTalk: [String] = [], display: Bool = false, unconfined: Bool = false
  ) {
    self.networkClient = networkClient
    self.applicationGroups = applicationGroups
    self.userSelectedReadWrite = userSelectedReadWrite
    self.userFolders = userFolders
    self.print = print
    self.bluetooth = bluetooth
    self.sessionBusTalk = sessionBusTalk
    self.display = display
    self.unconfined = unconfined
  }

  /// No entitlement at all: what a bundle without `Entitlements.plist` gets.
  public static let none = Entitlements()
}

/// The keys of `Entitlements.plist`.
public enum EntitlementKey {
  /// The file at the bundle's root that holds them.
  public static let fileName = "Entitlements.plist"

  public static let networkClient = "com.apple.security.network.client"
  public static let applicationGroups = "com.apple.security.application-groups"
  public static let userSelectedReadWrite = "com.apple.security.files.user-selected.read-write"
  public static let downloads = "com.apple.security.files.downloads.read-write"
  public static let pictures = "com.apple.security.assets.pictures.read-write"
  public static let music = "com.apple.security.assets.music.read-write"
  public static let movies = "com.apple.security.assets.movies.read-write"
  public static let print = "com.apple.security.print"
  public static let bluetooth = "com.apple.security.device.bluetooth"
  public static let sessionBusTalk = "org.xdgshare.session-bus.talk"
  public static let display = "org.xdgshare.display"
  public static let unconfined = "org.xdgshare.unconfined"

  /// Every key with a meaning here, in the order of docs/sandbox.md's table.
  public static let all = [
    networkClient, applicationGroups, userSelectedReadWrite, downloads, pictures, music, movies, print,
    bluetooth, sessionBusTalk, display, unconfined,
  ]

  /// Apple's `com.apple.security.app-sandbox`: every service is sandboxed here, whether or not
  /// it says so.
  public static let appSandbox = "com.apple.security.app-sandbox"
  /// Apple's `com.apple.security.files.user-selected.read-only`: a service always reads the
  /// items it is handed.
  public static let userSelectedReadOnly = "com.apple.security.files.user-selected.read-only"
  /// Apple's keys for what is always so here: true is accepted without a word (Xcode writes
  /// them into every sandboxed target's file), any other value is a warning.
  public static let alwaysSo = [appSandbox, userSelectedReadOnly]

  /// The key that grants `folder`.
  public static func key(for folder: Entitlements.UserFolder) -> String {
    switch folder {
    case .downloads: downloads
    case .pictures: pictures
    case .music: music
    case .movies: movies
    }
  }
}
