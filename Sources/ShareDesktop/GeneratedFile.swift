public import ShareCore

/// The file managers (and the bus) the integration writes for, each in its own format.
public enum FileManagerFamily: String, CaseIterable, Sendable, Codable {
  /// Dolphin and everything else built on KIO: service menus.
  case dolphin
  /// Nautilus: a nautilus-python extension.
  case nautilus
  /// Thunar: Send To entries.
  case thunar
  /// Nemo: actions.
  case nemo
  /// Caja (with caja-actions), PCManFM (with libfm-modules) and PCManFM-Qt: DES-EMA actions.
  case desktopActions = "desktop-actions"
  /// The D-Bus activation file of `org.xdgshare.Share`, which the Nautilus extension calls.
  case dbus
  /// The application entry, `applications/org.xdgshare.Share.desktop`: Share in application
  /// menus and launchers, with an action per service.
  case application
  /// KDE Purpose's plugins, `kpackage/Purpose/`: every KDE application's Share menu.
  case purpose
  /// The browsers' manifests of the Web Share host (``NativeMessagingHosts``), outside the data
  /// folder: their paths start with a location's anchor (`@config/`, `@home/`, `@root/`).
  case browsers
}

/// One file the integration writes, relative to a data folder (`$XDG_DATA_HOME` or an
/// `$XDG_DATA_DIRS` entry), or to another folder of the location, named by an anchor
/// (``FileManagerIntegration/Location/absolute(_:)``).
public struct GeneratedFile: Equatable, Sendable {
  /// The path below the data folder, e.g. `kio/servicemenus/xdg-share-org.example.demo.desktop`,
  /// or below an anchor, e.g. `@home/.mozilla/native-messaging-hosts/org.xdgshare.webshare.json`.
  public var path: String
  public var contents: String
  /// Mode 0755 rather than 0644: Dolphin runs a user's service menu only when it is executable.
  public var isExecutable = false
  public var family: FileManagerFamily
  /// Whether it is a file manager's "Share…" entry, which opens the share sheet rather than one
  /// service.
  public var opensPicker = false
}

// Apart, so that the memberwise initializer is there for the generators.
extension GeneratedFile {
  /// A file of `#` comments and key lines: ``header(_:)``, then `lines`, each ended.
  init(
    path: String, lines: [String], isExecutable: Bool = false, family: FileManagerFamily,
    opensPicker: Bool = false
  ) {
    self.init(
      path: path, contents: header() + lines.joined(separator: "\n") + "\n", isExecutable: isExecutable,
      family: family, opensPicker: opensPicker)
  }
}

/// The "Share…" entry of every file manager: it opens the share sheet (`xdg-share --picker`)
/// with the selection, whatever it holds, and the sheet tells which services accept it.
enum Picker {
  /// The label, the same everywhere: users, and tests, find the entry by it.
  static let label = "Share…"
  /// The base name of its files: never `xdg-share-<id>` (a service's, the id never empty) nor
  /// `xdg-share` (the DES-EMA menu's).
  static let baseName = "xdg-share.picker"
}

/// A service that gets no file-manager entry, and why.
public struct SkippedService: Equatable, Sendable {
  public enum Reason: Equatable, Sendable {
    /// The identifier has characters other than `A-Z a-z 0-9 . _ -`, so it cannot be part of a
    /// file name and an Exec line as it is.
    case unsafeIdentifier
    /// The activation rule accepts no file: the service takes text or links only.
    case takesNoFiles
  }

  public var id: String
  public var name: String
  public var reason: Reason

  public init(id: String, name: String, reason: Reason) {
    self.id = id
    self.name = name
    self.reason = reason
  }
}

/// A service that gets file-manager entries, with what they are offered for.
public struct MenuEntry: Equatable, Sendable {
  public var service: ShareService
  public var coverage: FileCoverage

  public init(service: ShareService, coverage: FileCoverage) {
    self.service = service
    self.coverage = coverage
  }

  /// The base name of every file written for the service: `xdg-share-<id>`.
  var baseName: String { FileManagerIntegration.filePrefix + service.id }
}

/// What the generators produced for a set of services.
public struct Rendering: Equatable, Sendable {
  public var files: [GeneratedFile]
  public var entries: [MenuEntry]
  public var skipped: [SkippedService]

  /// The files of one family.
  public func files(of family: FileManagerFamily) -> [GeneratedFile] { files.filter { $0.family == family } }
}

/// The first line of every file written, so that a person who finds one knows where it came from.
func header(_ commentPrefix: String = "#") -> String {
  "\(commentPrefix) Written by `xdg-share register`; `xdg-share unregister` removes it. Once edited, it is yours: xdg-share leaves it alone.\n"
}
