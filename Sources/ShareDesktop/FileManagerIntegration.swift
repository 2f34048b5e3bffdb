import FoundationEssentials
public import ShareCore

/// Right-click → Share in every file manager: writes each one's entries for the installed
/// services, keeps them in step, and removes exactly what it wrote.
///
/// The generators are pure (``render(services:executable:catalog:)``); ``register(_:at:software:)``
/// writes their files atomically into a data folder and records them in a manifest, and
/// ``unregister(at:)`` removes what the manifest lists as long as it still holds what was written.
/// A file at one of our paths that xdg-share did not write, or that the user edited, is left
/// alone and reported.
public enum FileManagerIntegration {
  /// The bus name of the xdg-share D-Bus service (`ShareDaemon.busName`).
  public static let busName = "org.xdgshare.Share"
  /// Every per-service file is named `xdg-share-<id>` plus the format's extension.
  public static let filePrefix = "xdg-share-"
  /// Where the manifest lives, below the data folder.
  static let manifestPath = "xdg-share/registered.json"
  static let lockPath = "xdg-share/.registered.lock"

  /// For one user or for every user.
  public enum Scope: Sendable, Equatable {
    /// `$XDG_DATA_HOME` (and caja-actions' settings in `$HOME/.config`).
    case user
    /// The first `$XDG_DATA_DIRS` folder, `/usr/local/share` by default.
    case system
  }

  /// Where the files of a scope go, as bytes: a folder whose path is not UTF-8 is written into like
  /// any other (the generated files name only the xdg-share program, never these folders).
  public struct Location: Sendable, Equatable {
    /// The data folder: the generated paths are relative to it.
    public var dataFolderLocation: FilePath
    /// `$HOME/.config` for the user scope, whatever `$XDG_CONFIG_HOME` says: caja-actions 1.27
    /// reads its settings from `g_get_home_dir()/.config/caja-actions/` only, so they are merged there.
    public var homeConfigLocation: FilePath?
    /// The folders outside the data folder a generated path may start from, by name: `config`
    /// (`$XDG_CONFIG_HOME`) and `home` for a user, `root` (`/`, or `$DESTDIR` when staging a
    /// package) for every user.
    public var anchors: [String: FilePath]

    /// The data folder as text, for messages (``FilePath/text``: escapes where it is not UTF-8).
    public var dataFolder: String { dataFolderLocation.text }
    /// ``homeConfigLocation`` as text, for messages.
    public var homeConfig: String? { homeConfigLocation?.text }

    public init(dataFolder: String, homeConfig: String?, anchors: [String: String] = [:]) {
      self.init(
        dataFolderLocation: FilePath(dataFolder), homeConfigLocation: homeConfig.map(FilePath.init),
        anchors: anchors.mapValues(FilePath.init))
    }

    public init(
      dataFolderLocation: FilePath, homeConfigLocation: FilePath?, anchors: [String: FilePath] = [:]
    ) {
      self.dataFolderLocation = dataFolderLocation
      self.homeConfigLocation = homeConfigLocation
      self.anchors = anchors
    }

    /// - Parameter staging: `$DESTDIR`: for every user, everything is written below it, as a
    ///   package build stages its files.
    public init(scope: Scope, paths: SearchPaths, staging: FilePath? = nil) {
      switch scope {
      case .user:
        let home = paths.homeLocation.bytes == [UInt8(ascii: "/")] ? [] : paths.homeLocation.bytes
        self.init(
          dataFolderLocation: paths.dataHomeLocation,
          homeConfigLocation: FilePath(bytes: home + "/.config".utf8),
          anchors: ["config": paths.configHomeLocation, "home": paths.homeLocation])
      case .system:
        let root = staging.map { $0.trimmingTrailingSlashes.bytes } ?? []
        let data = paths.dataDirectoryLocations.first ?? FilePath("/usr/local/share")
        self.init(
          dataFolderLocation: FilePath(bytes: root + data.bytes), homeConfigLocation: nil,
          anchors: ["root": FilePath(bytes: root.isEmpty ? [UInt8(ascii: "/")] : root)])
      }
    }

    var manifestPath: FilePath { absolute(FileManagerIntegration.manifestPath) }

    /// Where a generated path is: below the data folder, or below the anchor it starts with
    /// (`@home/.mozilla/…`). A path naming an anchor this location lacks stays in the data folder.
    func absolute(_ relative: String) -> FilePath {
      if relative.hasPrefix("@"), let slash = relative.firstIndex(of: "/"),
        let anchor = anchors[String(relative[relative.index(after: relative.startIndex)..<slash])]
      {
        let rest = relative[relative.index(after: slash)...]
        let base = anchor.bytes == [UInt8(ascii: "/")] ? [] : anchor.trimmingTrailingSlashes.bytes
        return FilePath(bytes: base + "/".utf8 + rest.utf8)
      }
      return FilePath(bytes: dataFolderLocation.bytes + "/".utf8 + relative.utf8)
    }

    /// The generated path of the folder `absolute`, as ``absolute(_:)`` reads it back: relative
    /// to the data folder, else to the anchor it is in; nil when it is in neither.
    func relative(_ absolute: FilePath) -> String? {
      func below(_ base: FilePath) -> String? {
        let prefix = base.bytes == [UInt8(ascii: "/")] ? [] : base.trimmingTrailingSlashes.bytes
        guard absolute.bytes.count > prefix.count + 1, absolute.bytes.starts(with: prefix),
          absolute.bytes[prefix.count] == UInt8(ascii: "/")
        else { return nil }
        return String(decoding: absolute.bytes.dropFirst(prefix.count + 1), as: UTF8.self)
      }
      if let inData = below(dataFolderLocation) { return inData }
      // The deepest anchor first: `config` is below `home`.
      for (name, anchor) in anchors.sorted(by: { $0.value.bytes.count > $1.value.bytes.count }) {
        if let inAnchor = below(anchor) { return "@\(name)/\(inAnchor)" }
      }
      return nil
    }
  }

  // MARK: Generating

  /// Every file for `services`: a service menu, Send To entry, Nemo action and DES-EMA action
  /// per service that takes files, and in each of those formats one "Share…" entry that opens the
  /// share sheet; the DES-EMA Share menu, the Nautilus extension, the D-Bus activation file and
  /// the application entry. Pure: the same input gives the same files.
  ///
  /// - Parameters:
  ///   - services: the services to offer, in menu order.
  ///   - executable: the absolute path of `xdg-share`, written into every Exec line.
  ///   - catalog: the MIME types rules are translated into.
  /// - Throws: ``IntegrationError/unsuitableExecutable(_:)`` when `executable` is not absolute or
  ///   holds a control character or a backslash, which no Exec line can carry safely everywhere.
  ///   - purpose: where the Purpose plugins' program is, and what they say; nil writes none.
  ///   - webShare: the Web Share host's program and the scope its browser manifests are for; nil
  ///     writes none.
  public static func render(
    services: [ShareService], executable: String, catalog: MIMECatalog, purpose: PurposeSetup? = nil,
    webShare: WebShareSetup? = nil
  ) throws(IntegrationError) -> Rendering {
    guard executable.hasPrefix("/"),
      !executable.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" })
    else { throw .unsuitableExecutable(executable) }
    var entries: [MenuEntry] = []
    var plugins: [PurposeEntry] = []
    var skipped: [SkippedService] = []
    for service in services {
      guard isSafeIdentifier(service.id) else {
        skipped.append(SkippedService(id: service.id, name: service.name, reason: .unsafeIdentifier))
        continue
      }
      if let purpose {
        let plugin = PurposeEntry(
          service: service, plain: purpose.plainServices[service.id], catalog: catalog)
        if plugin.coverage != nil || plugin.takesLinks { plugins.append(plugin) }
      }
      guard let coverage = FileCoverage(rule: service.rule, catalog: catalog) else {
        skipped.append(SkippedService(id: service.id, name: service.name, reason: .takesNoFiles))
        continue
      }
      entries.append(MenuEntry(service: service, coverage: coverage))
    }
    // Where Dolphin's Share menu is Purpose's, the services are there: service menus only for
    // folders, which Purpose's menu is never shown for.
    let inPurpose = purpose?.inDolphin == true
    var files = DolphinServiceMenus.files(
      for: inPurpose ? entries.filter(\.coverage.folders) : entries, executable: executable, catalog: catalog,
      foldersOnly: inPurpose)
    files.append(NautilusExtension.file(executable: executable))
    files += ThunarSendTo.files(for: entries, executable: executable)
    files += NemoActions.files(for: entries, executable: executable, catalog: catalog)
    files += DesktopActions.files(for: entries, executable: executable, catalog: catalog)
    files.append(DBusActivationFile.file(executable: executable))
    files.append(ApplicationEntry.file(for: entries, executable: executable))
    if let purpose { files += PurposePlugins.files(for: plugins, setup: purpose) }
    if let webShare { files += NativeMessagingHosts.files(program: webShare.program, scope: webShare.scope) }
    return Rendering(files: files, entries: entries, skipped: skipped)
  }

  /// `[A-Za-z0-9._-]+`: safe as part of a file name and as an Exec argument without quotes.
  public static func isSafeIdentifier(_ id: String) -> Bool {
    !id.isEmpty
      && id.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
          true
        default: false
        }
      }
  }

  // MARK: Writing

  /// Whether `register` has written into `location` (and not been undone).
  public static func isRegistered(at location: Location) -> Bool {
    DesktopFiles.exists(location.manifestPath)
  }

  /// Writes `rendering` into `location`, replacing what an earlier `register` wrote there:
  /// files of services that are gone are removed, changed ones rewritten, unchanged ones left.
  ///
  /// A file at one of the paths is overwritten or removed only when the manifest lists it and it
  /// still holds what was written (or it already holds exactly the new contents); anything else
  /// is the user's and is reported in ``RegistrationReport/leftAlone``.
  ///
  /// - Parameters:
  ///   - executable: recorded so that ``sync(services:catalog:paths:software:)`` keeps using it.
  ///   - software: what is installed, for the advice in the report.
  /// - Throws: ``IntegrationError/unreadableManifest(path:reason:)`` when the manifest is
  ///   damaged: nothing is touched then. Files that cannot be written are reported, not thrown.
  public static func register(
    _ rendering: Rendering, executable: String, at location: Location, software: some InstalledSoftware
  ) throws(IntegrationError) -> RegistrationReport {
    // Always a report when not only re-syncing.
    try write(rendering, executable: executable, at: location, software: software, onlyIfRegistered: false)!
  }

  /// ``register(_:executable:at:software:)``; with `onlyIfRegistered`, nothing happens (and the
  /// result is `nil`) unless a manifest is there, checked under the lock so that a concurrent
  /// `unregister` is never undone.
  private static func write(
    _ rendering: Rendering, executable: String, at location: Location, software: some InstalledSoftware,
    onlyIfRegistered: Bool
  ) throws(IntegrationError) -> RegistrationReport? {
    var report = RegistrationReport(dataFolder: location.dataFolder, rendering: rendering)
    var skipped = false
    try withLock(location) { () throws(IntegrationError) in
      let old = try Manifest.load(from: location.manifestPath)
      if onlyIfRegistered, old == nil {
        skipped = true
        return
      }
      var manifest = Manifest(executable: executable, folders: old?.folders ?? [])
      let wanted = Set(rendering.files.map(\.path))

      for file in rendering.files {
        let path = location.absolute(file.path)
        let bytes = Array(file.contents.utf8)
        let digest = Manifest.digest(bytes)
        if let existing = DesktopFiles.contents(of: path) {
          let existingDigest = Manifest.digest(existing)
          let ours = old?.files[file.path] == existingDigest
          if existing == bytes {
            // Already right, whoever wrote it; make sure Dolphin can run it.
            manifest.files[file.path] = digest
            report.unchanged.append(file)
            DesktopFiles.setMode(file.isExecutable ? 0o755 : 0o644, of: path)
            continue
          }
          guard ours else {
            let reason: LeftAlone.Reason = old?.files[file.path] == nil ? .notWrittenByXDGShare : .editedSince
            report.leftAlone.append(LeftAlone(path: path.text, reason: reason))
            continue
          }
        } else if DesktopFiles.exists(path) {
          report.leftAlone.append(LeftAlone(path: path.text, reason: .notWrittenByXDGShare))
          continue
        }
        do throws(DesktopFiles.Failure) {
          let folder = PathText.parent(of: file.path)
          let created = try DesktopFiles.createFolders(location.absolute(folder))
          for made in created {
            guard let relative = location.relative(made) else { continue }
            if !manifest.folders.contains(relative) { manifest.folders.append(relative) }
          }
          try DesktopFiles.writeAtomically(file.contents, to: path, mode: file.isExecutable ? 0o755 : 0o644)
          manifest.files[file.path] = digest
          report.written.append(file)
        } catch {
          report.failures.append(Failure(path: path.text, reason: error.message))
        }
      }

      // Files of services that are gone, or of formats no longer written.
      for (relative, digest) in (old?.files ?? [:]).sorted(by: { $0.key < $1.key })
      where !wanted.contains(relative) {
        switch removeIfUnchanged(location.absolute(relative), digest: digest) {
        case .gone: break
        case .removed(let path): report.removed.append(path)
        case .edited(let path): report.leftAlone.append(LeftAlone(path: path, reason: .editedSince))
        case .failed(let failure): report.failures.append(failure)
        }
      }

      // The folders of files no longer written (a service's Purpose plugin under its old name),
      // once empty: deepest first, and never one that holds a file written now.
      for folder in manifest.folders.sorted(by: { $0.count > $1.count })
      where !wanted.contains(where: { $0.hasPrefix(folder + "/") }) {
        DesktopFiles.removeIfEmpty(location.absolute(folder))
      }
      manifest.folders.removeAll { !DesktopFiles.exists(location.absolute($0)) }

      if let homeConfig = location.homeConfigLocation {
        let hasActions = !rendering.files(of: .desktopActions).isEmpty
        manifest.cajaActions = mergeCajaActions(
          homeConfig: homeConfig, enabled: hasActions, earlier: old?.cajaActions, report: &report)
      }

      manifest.folders.sort()
      do throws(DesktopFiles.Failure) {
        _ = try DesktopFiles.createFolders(location.absolute("xdg-share"))
        try DesktopFiles.writeAtomically(manifest.encoded(), to: location.manifestPath, mode: 0o644)
      } catch {
        report.failures.append(Failure(path: location.manifestPath.text, reason: error.message))
      }
    }
    if skipped { return nil }
    report.advice = advice(for: report, software: software)
    return report
  }

  /// What became of a file `register` wrote, when it is to go.
  private enum Removal {
    case gone
    case removed(String)
    /// The user changed it since: it is theirs now and stays.
    case edited(String)
    case failed(Failure)
  }

  /// Removes the file at `path` when it still holds what was written (its digest).
  private static func removeIfUnchanged(_ path: FilePath, digest: String) -> Removal {
    guard let existing = DesktopFiles.contents(of: path) else { return .gone }
    guard Manifest.digest(existing) == digest else { return .edited(path.text) }
    do throws(DesktopFiles.Failure) {
      try DesktopFiles.remove(path)
      return .removed(path.text)
    } catch {
      return .failed(Failure(path: path.text, reason: error.message))
    }
  }

  /// Removes what `register` wrote into `location`: every file the manifest lists that still
  /// holds what was written, the folders it created once empty, its caja-actions settings, and
  /// the manifest. Edited files stay and are reported.
  ///
  /// - Returns: `nil` when nothing was registered there.
  public static func unregister(at location: Location) throws(IntegrationError) -> UnregistrationReport? {
    var report = UnregistrationReport(dataFolder: location.dataFolder)
    var registered = true
    try withLock(location) { () throws(IntegrationError) in
      guard let manifest = try Manifest.load(from: location.manifestPath) else {
        registered = false
        return
      }
      for (relative, digest) in manifest.files.sorted(by: { $0.key < $1.key }) {
        switch removeIfUnchanged(location.absolute(relative), digest: digest) {
        case .gone: break
        case .removed(let path): report.removed.append(path)
        case .edited(let path): report.leftAlone.append(LeftAlone(path: path, reason: .editedSince))
        case .failed(let failure): report.failures.append(failure)
        }
      }
      if let record = manifest.cajaActions, let text = DesktopFiles.contents(of: record.location) {
        let restored = CajaActionsConfiguration.unmerge(
          String(decoding: text, as: UTF8.self), record: record, isOurs: DesktopActions.isOurs)
        do throws(DesktopFiles.Failure) {
          if let restored {
            try DesktopFiles.writeAtomically(restored, to: record.location, mode: 0o644)
          } else {
            try DesktopFiles.remove(record.location)
            DesktopFiles.removeIfEmpty(DesktopFiles.parent(of: record.location))
          }
          report.restoredSettings = record.location.text
        } catch {
          report.failures.append(Failure(path: record.location.text, reason: error.message))
        }
      }
      guard report.failures.isEmpty else { return }
      do throws(DesktopFiles.Failure) {
        try DesktopFiles.remove(location.manifestPath)
      } catch {
        report.failures.append(Failure(path: location.manifestPath.text, reason: error.message))
      }
      // Deepest first, and only the empty ones.
      for folder in manifest.folders.sorted(by: { $0.count > $1.count }) {
        DesktopFiles.removeIfEmpty(location.absolute(folder))
      }
    }
    if report.failures.isEmpty {
      try? DesktopFiles.remove(location.absolute(lockPath))
      DesktopFiles.removeIfEmpty(location.absolute("xdg-share"))
    }
    return registered ? report : nil
  }

  /// Brings the user's entries up to date with `services`, if and only if the user ran
  /// `register` before; the Exec lines keep the xdg-share that `register` recorded. For
  /// `install`, `uninstall` and the D-Bus service's reload: quiet, and never fails loudly.
  ///
  /// - Returns: the report, or `nil` when nothing is registered (or the manifest is damaged).
  @discardableResult
  public static func sync(
    services: [ShareService], catalog: @autoclosure () -> MIMECatalog, paths: SearchPaths,
    software: some InstalledSoftware = SystemSoftware()
  ) -> RegistrationReport? {
    let location = Location(scope: .user, paths: paths)
    guard isRegistered(at: location),
      let manifest = try? Manifest.load(from: location.manifestPath),
      let rendering = try? render(
        services: services, executable: manifest.executable, catalog: catalog(),
        purpose: purposeSetup(
          executable: manifest.executable, services: services, paths: paths, software: software),
        webShare: webShareSetup(executable: manifest.executable, scope: .user))
    else { return nil }
    return
      (try? write(
        rendering, executable: manifest.executable, at: location, software: software, onlyIfRegistered: true))
      ?? nil
  }

  // MARK: Helpers

  private static func withLock(
    _ location: Location, _ body: () throws(IntegrationError) -> Void
  ) throws(IntegrationError) {
    _ = try? DesktopFiles.createFolders(location.absolute("xdg-share"))
    do {
      try DesktopFiles.withLock(location.absolute(lockPath)) { try body() }
    } catch let error as IntegrationError {
      throw error
    } catch {
      throw .unreadableManifest(path: location.manifestPath.text, reason: "\(error)")
    }
  }

  private static func mergeCajaActions(
    homeConfig: FilePath, enabled: Bool, earlier: CajaActionsConfiguration.Record?,
    report: inout RegistrationReport
  ) -> CajaActionsConfiguration.Record? {
    let path = homeConfig.appending(CajaActionsConfiguration.relativePath)
    var earlier = earlier
    if let moved = earlier, moved.location != path {
      // An earlier xdg-share merged into `$XDG_CONFIG_HOME`, which caja-actions never reads: undo it
      // there, and merge afresh where caja-actions looks.
      if let text = DesktopFiles.contents(of: moved.location) {
        let restored = CajaActionsConfiguration.unmerge(
          String(decoding: text, as: UTF8.self), record: moved, isOurs: DesktopActions.isOurs)
        if let restored {
          try? DesktopFiles.writeAtomically(restored, to: moved.location, mode: 0o644)
        } else {
          try? DesktopFiles.remove(moved.location)
          DesktopFiles.removeIfEmpty(DesktopFiles.parent(of: moved.location))
        }
      }
      earlier = nil
    }
    let current = DesktopFiles.contents(of: path).map { String(decoding: $0, as: UTF8.self) }
    guard enabled else {
      // No actions any more: undo an earlier merge.
      guard let earlier, let current else { return nil }
      let restored = CajaActionsConfiguration.unmerge(
        current, record: earlier, isOurs: DesktopActions.isOurs)
      if let restored {
        try? DesktopFiles.writeAtomically(restored, to: path, mode: 0o644)
      } else {
        try? DesktopFiles.remove(path)
      }
      return nil
    }
    let (text, record) = CajaActionsConfiguration.merge(
      current, path: CajaActionsConfiguration.Record.recorded(path), menuID: DesktopActions.menuID,
      isOurs: DesktopActions.isOurs, earlier: earlier)
    guard text != current else { return record }
    do throws(DesktopFiles.Failure) {
      _ = try DesktopFiles.createFolders(DesktopFiles.parent(of: path))
      try DesktopFiles.writeAtomically(text, to: path, mode: 0o644)
      report.changedSettings = path.text
      return record
    } catch {
      report.failures.append(Failure(path: path.text, reason: error.message))
      return earlier
    }
  }
}
