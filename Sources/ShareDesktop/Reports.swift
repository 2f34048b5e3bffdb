public import FoundationEssentials

/// Why the integration could not do its work at all. (Files that cannot be written are
/// reported one by one in the reports instead.)
public enum IntegrationError: Error, Equatable, Sendable {
  /// The path of xdg-share is not absolute, or holds a control character or a backslash.
  case unsuitableExecutable(String)
  /// The manifest exists but is not one xdg-share wrote; nothing was touched.
  case unreadableManifest(path: String, reason: String)
}

/// A file at one of our paths that is not ours (any more), so it was neither written nor removed.
public struct LeftAlone: Equatable, Sendable {
  public enum Reason: Equatable, Sendable {
    /// xdg-share did not write it (it is not in the manifest).
    case notWrittenByXDGShare
    /// xdg-share wrote it, and it has been changed since.
    case editedSince
  }

  public var path: String
  public var reason: Reason
}

/// A file that could not be written or removed.
public struct Failure: Equatable, Sendable {
  public var path: String
  /// The system's words (`strerror`).
  public var reason: String
}

/// Something the user still has to do for a file manager to show the entries.
public enum Advice: Equatable, Sendable {
  /// A Debian package the file manager needs for them (`python3-nautilus`, `caja-actions`,
  /// `libfm-modules`).
  case installPackage(String, for: FileManagerFamily, program: String)
  /// A Debian package without which the entries are shown but do nothing when chosen
  /// (Kirigami, for Purpose's job dialog).
  case installPackageToRun(String, for: FileManagerFamily, program: String)
  /// The file manager reads the files only when it starts: quit it with this command.
  case restart(command: String, for: FileManagerFamily)
}

/// What `register` did.
public struct RegistrationReport: Equatable, Sendable {
  public var dataFolder: String
  /// What was generated, and which services got no entry.
  public var rendering: Rendering
  /// Files written because they were new or changed.
  public var written: [GeneratedFile] = []
  /// Files that already held the right contents.
  public var unchanged: [GeneratedFile] = []
  /// Absolute paths of files removed: entries of services that are gone.
  public var removed: [String] = []
  public var leftAlone: [LeftAlone] = []
  public var failures: [Failure] = []
  /// caja-actions' settings file, when it was changed.
  public var changedSettings: String?
  public var advice: [Advice] = []

  public init(dataFolder: String, rendering: Rendering) {
    self.dataFolder = dataFolder
    self.rendering = rendering
  }

  /// The family's files that are in place now (written or unchanged), in generation order.
  public func files(of family: FileManagerFamily) -> [GeneratedFile] {
    let inPlace = Set((written + unchanged).map(\.path))
    return rendering.files(of: family).filter { inPlace.contains($0.path) }
  }

  /// Whether anything changed on disk.
  public var changedAnything: Bool { !written.isEmpty || !removed.isEmpty || changedSettings != nil }
}

/// What `unregister` did.
public struct UnregistrationReport: Equatable, Sendable {
  public var dataFolder: String
  public var removed: [String] = []
  public var leftAlone: [LeftAlone] = []
  public var failures: [Failure] = []
  /// caja-actions' settings file, when the merge was undone.
  public var restoredSettings: String?

  public init(dataFolder: String) {
    self.dataFolder = dataFolder
  }
}

/// What is installed, for the advice `register` gives. The seam between the report and the
/// system: tests answer from a table.
public protocol InstalledSoftware: Sendable {
  /// Whether `name` is a program on `PATH`.
  func hasProgram(_ name: String) -> Bool
  /// Whether the Debian package `name` is installed (or, elsewhere, the files it would bring).
  func hasPackage(_ name: String) -> Bool
}

/// The live system: `PATH`, dpkg's database, and the files the packages install.
public struct SystemSoftware: InstalledSoftware {
  let searchPath: [String]
  let dpkgInfo: String
  /// Files that show a package is there where dpkg is not (`*` stands for one path component).
  static let packageFiles = [
    "python3-nautilus": [
      "/usr/lib/*/nautilus/extensions-4/libnautilus-python.so",
      "/usr/lib64/nautilus/extensions-4/libnautilus-python.so",
    ],
    "caja-actions": [
      "/usr/lib/*/caja/extensions-2.0/libcaja-actions-menu.so",
      "/usr/lib64/caja/extensions-2.0/libcaja-actions-menu.so",
    ],
    // Purpose's Dolphin plugin, which makes Dolphin's Share menu Purpose's.
    "libkf5purpose-bin": [
      "/usr/lib/*/qt5/plugins/kf5/kfileitemaction/sharefileitemaction.so",
      "/usr/lib64/qt5/plugins/kf5/kfileitemaction/sharefileitemaction.so",
    ],
    "libkf6purpose-bin": [
      "/usr/lib/*/qt6/plugins/kf6/kfileitemaction/sharefileitemaction.so",
      "/usr/lib64/qt6/plugins/kf6/kfileitemaction/sharefileitemaction.so",
    ],
    // Kirigami, which Purpose's job dialog (JobDialog.qml) is made of: without it a KDE
    // application's Share menu lists the plugins, and choosing one does nothing.
    "qml-module-org-kde-kirigami2": [
      "/usr/lib/*/qt5/qml/org/kde/kirigami.2/qmldir", "/usr/lib64/qt5/qml/org/kde/kirigami.2/qmldir",
    ],
    "qml6-module-org-kde-kirigami": [
      "/usr/lib/*/qt6/qml/org/kde/kirigami/qmldir", "/usr/lib64/qt6/qml/org/kde/kirigami/qmldir",
    ],
    "libfm-modules": [
      "/usr/lib/*/libfm/modules/gtk-menu-actions.so", "/usr/lib64/libfm/modules/gtk-menu-actions.so",
    ],
  ]

  public init(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    dpkgInfo: String = "/var/lib/dpkg/info"
  ) {
    searchPath = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
    self.dpkgInfo = dpkgInfo
  }

  public func hasProgram(_ name: String) -> Bool {
    searchPath.contains { FileManager.default.isExecutableFile(atPath: $0 + "/" + name) }
  }

  public func hasPackage(_ name: String) -> Bool {
    // dpkg keeps a file list per installed package, `name.list` or `name:arch.list`.
    if let entries = try? FileManager.default.contentsOfDirectory(atPath: dpkgInfo),
      entries.contains(where: { $0 == name + ".list" || ($0.hasPrefix(name + ":") && $0.hasSuffix(".list")) })
    {
      return true
    }
    return (Self.packageFiles[name] ?? []).contains(where: Self.exists)
  }

  /// Whether a path with at most one `*` component exists.
  private static func exists(_ pattern: String) -> Bool {
    guard let star = pattern.firstRange(of: "/*/") else {
      return FileManager.default.fileExists(atPath: pattern)
    }
    let parent = String(pattern[..<star.lowerBound])
    let rest = String(pattern[star.upperBound...])
    let children = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
    return children.contains { FileManager.default.fileExists(atPath: "\(parent)/\($0)/\(rest)") }
  }
}

extension FileManagerIntegration {
  /// What is left to do, for the file managers that are installed.
  static func advice(for report: RegistrationReport, software: some InstalledSoftware) -> [Advice] {
    var advice: [Advice] = []
    if software.hasProgram("nautilus") {
      if !software.hasPackage("python3-nautilus") {
        advice.append(.installPackage("python3-nautilus", for: .nautilus, program: "Nautilus"))
      }
      // Nautilus loads extensions when it starts.
      if report.written.contains(where: { $0.family == .nautilus }) {
        advice.append(.restart(command: "nautilus -q", for: .nautilus))
      }
    }
    let hasActions = !report.files(of: .desktopActions).isEmpty
    if hasActions, software.hasProgram("caja") {
      if !software.hasPackage("caja-actions") {
        advice.append(.installPackage("caja-actions", for: .desktopActions, program: "Caja"))
      }
      if report.changedSettings != nil { advice.append(.restart(command: "caja -q", for: .desktopActions)) }
    }
    if hasActions, software.hasProgram("pcmanfm"), !software.hasPackage("libfm-modules") {
      advice.append(.installPackage("libfm-modules", for: .desktopActions, program: "PCManFM"))
    }
    // Debian's Purpose does not depend on Kirigami, which its job dialog needs.
    if !report.files(of: .purpose).isEmpty {
      if software.hasPackage("libkf5purpose-bin"), !software.hasPackage("qml-module-org-kde-kirigami2") {
        advice.append(
          .installPackageToRun("qml-module-org-kde-kirigami2", for: .purpose, program: "KDE applications"))
      } else if software.hasPackage("libkf6purpose-bin"), !software.hasPackage("qml6-module-org-kde-kirigami")
      {
        advice.append(
          .installPackageToRun("qml6-module-org-kde-kirigami", for: .purpose, program: "KDE applications"))
      }
    }
    return advice
  }
}
