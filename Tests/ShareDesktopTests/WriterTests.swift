import Foundation
import ShareCore
import ShareTestSupport
import Testing

@testable import ShareDesktop

/// Answers from a table, for the advice in reports.
struct FakeSoftware: InstalledSoftware {
  var programs: Set<String> = []
  var packages: Set<String> = []
  func hasProgram(_ name: String) -> Bool { programs.contains(name) }
  func hasPackage(_ name: String) -> Bool { packages.contains(name) }
}

/// `register`, re-`register`, `unregister` and `sync` in a throw-away XDG tree.
@Suite struct WriterTests {
  let desktop: TemporaryDesktop
  let location: FileManagerIntegration.Location

  init() throws {
    desktop = try TemporaryDesktop()
    location = .init(dataFolder: "\(desktop.root)/data", homeConfig: "\(desktop.root)/config")
  }

  var data: String { location.dataFolder }

  func render(_ services: [ShareService] = Fixture.services, executable: String = Fixture.executable) throws
    -> Rendering
  {
    try FileManagerIntegration.render(services: services, executable: executable, catalog: Fixture.catalog)
  }

  @discardableResult
  func register(_ services: [ShareService] = Fixture.services, software: FakeSoftware = FakeSoftware()) throws
    -> RegistrationReport
  {
    try FileManagerIntegration.register(
      render(services), executable: Fixture.executable, at: location, software: software)
  }

  /// Every regular file below `folder`, relative, sorted.
  func files(in folder: String) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: folder)
    var result: [String] = []
    while let next = enumerator?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: "\(folder)/\(next)", isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        result.append(next)
      }
    }
    return result.sorted()
  }

  func mode(_ path: String) throws -> Int {
    try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
  }

  @Test func registerWritesEveryFileWithItsModeAndAManifest() throws {
    let report = try register()
    #expect(report.failures.isEmpty && report.leftAlone.isEmpty)
    #expect(report.written.count == report.rendering.files.count)
    for file in report.rendering.files {
      let path = "\(data)/\(file.path)"
      #expect(FileManager.default.contents(atPath: path) == Data(file.contents.utf8))
      #expect(try mode(path) == (file.isExecutable ? 0o755 : 0o644), "\(file.path)")
    }
    #expect(FileManager.default.fileExists(atPath: "\(data)/xdg-share/registered.json"))
    // No temporary file is left anywhere.
    #expect(!files(in: data).contains { ($0 as NSString).lastPathComponent.hasSuffix(".tmp") })
  }

  @Test func registeringTwiceChangesNothing() throws {
    try register()
    let again = try register()
    #expect(again.written.isEmpty && again.removed.isEmpty && again.changedSettings == nil)
    #expect(again.unchanged.count == again.rendering.files.count)
    #expect(!again.changedAnything)
  }

  @Test func reRegisteringRemovesServicesThatAreGoneAndAddsNewOnes() throws {
    try register()
    let fewer =
      Array(Fixture.services.prefix(1)) + [
        Fixture.service("org.example.new", "New", rule: .dictionary(DictionaryRule(maxImages: 1)))
      ]
    let report = try register(fewer)
    #expect(report.removed.contains("\(data)/kio/servicemenus/xdg-share-org.example.files.desktop"))
    #expect(
      !FileManager.default.fileExists(atPath: "\(data)/Thunar/sendto/xdg-share-org.signal.share.desktop"))
    #expect(
      FileManager.default.fileExists(atPath: "\(data)/nemo/actions/xdg-share-org.example.new.nemo_action"))
    let menu = try String(contentsOfFile: "\(data)/file-manager/actions/xdg-share.desktop", encoding: .utf8)
    #expect(
      menu.contains("ItemsList=xdg-share.picker;xdg-share-org.example.photos;xdg-share-org.example.new;"))
    let application = KeyFile(
      parsing: try String(contentsOfFile: "\(data)/applications/org.xdgshare.Share.desktop", encoding: .utf8))
    #expect(application.list("Actions", in: "Desktop Entry") == ["org-example-photos", "org-example-new"])
  }

  /// The application entry is one of the files: in the manifest, kept in step, and gone with
  /// `unregister` together with the `applications` folder `register` made.
  @Test func theApplicationEntryComesAndGoesWithTheOthers() throws {
    let path = "\(data)/applications/org.xdgshare.Share.desktop"
    let report = try register()
    #expect(report.written.contains { $0.path == "applications/org.xdgshare.Share.desktop" })
    let manifest = try String(contentsOfFile: "\(data)/xdg-share/registered.json", encoding: .utf8)
    #expect(manifest.contains("\"applications/org.xdgshare.Share.desktop\""))
    #expect(manifest.contains("\"applications\""))
    #expect(try mode(path) == 0o644)

    let paths = SearchPaths(environment: ["HOME": desktop.root, "XDG_DATA_HOME": data])
    FileManagerIntegration.sync(
      services: Array(Fixture.services.prefix(1)), catalog: Fixture.catalog, paths: paths,
      software: FakeSoftware())
    let synced = KeyFile(parsing: try String(contentsOfFile: path, encoding: .utf8))
    #expect(synced.list("Actions", in: "Desktop Entry") == ["org-example-photos"])

    let removal = try #require(try FileManagerIntegration.unregister(at: location))
    #expect(removal.removed.contains(path))
    #expect(!FileManager.default.fileExists(atPath: "\(data)/applications"))
  }

  /// A user's own application entry at our path is theirs: neither overwritten nor removed.
  @Test func aUsersOwnApplicationEntryIsLeftAlone() throws {
    let path = "\(data)/applications/org.xdgshare.Share.desktop"
    try FileManager.default.createDirectory(atPath: "\(data)/applications", withIntermediateDirectories: true)
    let mine = "[Desktop Entry]\nType=Application\nName=Mine\nExec=mine %F\n"
    try mine.write(toFile: path, atomically: true, encoding: .utf8)
    let report = try register()
    #expect(report.leftAlone == [LeftAlone(path: path, reason: .notWrittenByXDGShare)])
    _ = try FileManagerIntegration.unregister(at: location)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == mine)
  }

  @Test func aUsersOwnFilesSurviveRegisterAndUnregister() throws {
    // One beside ours, one at the very path of one of ours, both without our marker or manifest.
    try FileManager.default.createDirectory(
      atPath: "\(data)/Thunar/sendto", withIntermediateDirectories: true)
    let beside = "\(data)/Thunar/sendto/xdg-share-foo.desktop"
    let clash = "\(data)/Thunar/sendto/xdg-share-org.example.files.desktop"
    try "[Desktop Entry]\nType=Application\nName=Mine\nExec=mine %F\n".write(
      toFile: beside, atomically: true, encoding: .utf8)
    try "[Desktop Entry]\nType=Application\nName=Also mine\nExec=mine %F\n".write(
      toFile: clash, atomically: true, encoding: .utf8)
    let before = try (
      String(contentsOfFile: beside, encoding: .utf8), String(contentsOfFile: clash, encoding: .utf8)
    )

    let report = try register()
    #expect(report.leftAlone == [LeftAlone(path: clash, reason: .notWrittenByXDGShare)])
    let removal = try #require(try FileManagerIntegration.unregister(at: location))
    #expect(removal.failures.isEmpty)
    #expect(try String(contentsOfFile: beside, encoding: .utf8) == before.0)
    #expect(try String(contentsOfFile: clash, encoding: .utf8) == before.1)
    #expect(!removal.removed.contains(clash) && !removal.removed.contains(beside))
    // The folder held the user's files before: it stays, with exactly them.
    #expect(
      files(in: "\(data)/Thunar") == [
        "sendto/xdg-share-foo.desktop", "sendto/xdg-share-org.example.files.desktop",
      ])
  }

  @Test func unregisterRemovesExactlyWhatRegisterWrote() throws {
    try "keep".write(toFile: "\(data)/unrelated.txt", atomically: true, encoding: .utf8)
    try register()
    let report = try #require(try FileManagerIntegration.unregister(at: location))
    #expect(report.failures.isEmpty && report.leftAlone.isEmpty)
    #expect(report.removed.count == (try render()).files.count)
    // Only what was there before remains; the folders register made are gone.
    #expect(files(in: data) == ["unrelated.txt"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: data) == ["unrelated.txt"])
    #expect(files(in: "\(desktop.root)/config").isEmpty)
    #expect(try FileManagerIntegration.unregister(at: location) == nil)
    #expect(try FileManager.default.contentsOfDirectory(atPath: data) == ["unrelated.txt"])
    // Once unregistered, a re-sync writes nothing.
    let paths = SearchPaths(environment: ["HOME": desktop.root, "XDG_DATA_HOME": data])
    #expect(
      FileManagerIntegration.sync(
        services: Fixture.services, catalog: Fixture.catalog, paths: paths, software: FakeSoftware()) == nil)
    #expect(files(in: data) == ["unrelated.txt"])
  }

  @Test func anEditedFileIsTheUsersFromThenOn() throws {
    try register()
    let edited = "\(data)/nemo/actions/xdg-share-org.example.photos.nemo_action"
    try "[Nemo Action]\nName=My own\n".write(toFile: edited, atomically: true, encoding: .utf8)
    let again = try register()
    #expect(again.leftAlone == [LeftAlone(path: edited, reason: .editedSince)])
    #expect(try String(contentsOfFile: edited, encoding: .utf8) == "[Nemo Action]\nName=My own\n")
    let removal = try #require(try FileManagerIntegration.unregister(at: location))
    #expect(removal.leftAlone.isEmpty)  // No longer in the manifest: not ours at all.
    #expect(files(in: data) == ["nemo/actions/xdg-share-org.example.photos.nemo_action"])
  }

  @Test func aFileEditedAfterTheLastRegisterIsKeptByUnregister() throws {
    try register()
    let edited = "\(data)/kio/servicemenus/xdg-share-org.example.files.desktop"
    try "changed".write(toFile: edited, atomically: true, encoding: .utf8)
    let removal = try #require(try FileManagerIntegration.unregister(at: location))
    #expect(removal.leftAlone == [LeftAlone(path: edited, reason: .editedSince)])
    #expect(FileManager.default.fileExists(atPath: edited))
  }

  @Test func aFileIdenticalToOursIsAdoptedAfterALostManifest() throws {
    try register()
    try FileManager.default.removeItem(atPath: "\(data)/xdg-share/registered.json")
    let again = try register()
    #expect(again.leftAlone.isEmpty && again.written.isEmpty)
    #expect(try FileManagerIntegration.unregister(at: location)?.removed.count == again.rendering.files.count)
  }

  @Test func aDamagedManifestStopsEverything() throws {
    try register()
    try "not json".write(toFile: "\(data)/xdg-share/registered.json", atomically: true, encoding: .utf8)
    #expect(throws: IntegrationError.self) { try register([]) }
    #expect(throws: IntegrationError.self) { try FileManagerIntegration.unregister(at: location) }
    #expect(
      FileManager.default.fileExists(atPath: "\(data)/kio/servicemenus/xdg-share-org.example.files.desktop"))
  }

  @Test func cajaActionsSettingsAreMergedAndRestored() throws {
    let conf = "\(desktop.root)/config/caja-actions/caja-actions.conf"
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/config/caja-actions", withIntermediateDirectories: true)
    let original =
      "# mine\n[runtime]\nitems-level-zero-order=my-action;\nitems-add-about-item=true\n\n[io-providers]\nna-desktop=true\n"
    try original.write(toFile: conf, atomically: true, encoding: .utf8)
    let report = try register()
    #expect(report.changedSettings == conf)
    let merged = try String(contentsOfFile: conf, encoding: .utf8)
    #expect(
      merged
        == "# mine\n[runtime]\nitems-level-zero-order=xdg-share;my-action;\nitems-add-about-item=false\nitems-create-root-menu=false\nitems-list-order-mode=ManualOrder\n\n[io-providers]\nna-desktop=true\n"
    )
    #expect(try register().changedSettings == nil)
    _ = try FileManagerIntegration.unregister(at: location)
    #expect(
      try String(contentsOfFile: conf, encoding: .utf8)
        == "# mine\n[runtime]\nitems-level-zero-order=my-action;\nitems-add-about-item=true\n\n[io-providers]\nna-desktop=true\n"
    )
  }

  @Test func cajaActionsSettingsCreatedByRegisterGoWithUnregister() throws {
    try register()
    let conf = "\(desktop.root)/config/caja-actions/caja-actions.conf"
    #expect(
      try String(contentsOfFile: conf, encoding: .utf8)
        == "[runtime]\nitems-level-zero-order=xdg-share;\nitems-create-root-menu=false\nitems-add-about-item=false\nitems-list-order-mode=ManualOrder\n"
    )
    _ = try FileManagerIntegration.unregister(at: location)
    #expect(!FileManager.default.fileExists(atPath: conf))
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.root)/config/caja-actions"))
  }

  /// caja-actions' own first run may have put any of our actions at the top level, "Share…"
  /// included; the merge takes them all out and the menu first.
  @Test func cajaActionsTopLevelKeepsOnlyTheMenuOfOurs() {
    let (text, _) = CajaActionsConfiguration.merge(
      "[runtime]\nitems-level-zero-order=xdg-share.picker;mine;xdg-share-org.example.files;xdg-share;\n",
      path: "/c", menuID: DesktopActions.menuID, isOurs: DesktopActions.isOurs, earlier: nil)
    #expect(text.hasPrefix("[runtime]\nitems-level-zero-order=xdg-share;mine;\n"))
  }

  /// A record of an older xdg-share, which did not set the order mode: its value is recorded on the
  /// next merge and put back by `unregister`.
  @Test func cajaActionsOrderModeOfAnOlderRecordIsRestored() throws {
    let older = CajaActionsConfiguration.Record(
      path: "/c", created: false,
      previous: ["items-level-zero-order": "a;", "items-create-root-menu": nil, "items-add-about-item": nil])
    let text =
      "[runtime]\nitems-level-zero-order=xdg-share;a;\nitems-create-root-menu=false\nitems-add-about-item=false\nitems-list-order-mode=DescendingOrder\n"
    let (merged, record) = CajaActionsConfiguration.merge(
      text, path: "/c", menuID: DesktopActions.menuID, isOurs: DesktopActions.isOurs, earlier: older)
    #expect(merged.contains("\nitems-list-order-mode=ManualOrder\n"))
    #expect(record.previous["items-list-order-mode"] == .some("DescendingOrder"))
    #expect(record.previous["items-level-zero-order"] == .some("a;"))
    #expect(
      CajaActionsConfiguration.unmerge(merged, record: record, isOurs: DesktopActions.isOurs)
        == "[runtime]\nitems-level-zero-order=a;\nitems-list-order-mode=DescendingOrder\n")
  }

  /// A manifest from before the settings moved to `$HOME/.config`: the old merge is undone.
  @Test func cajaActionsSettingsMergedElsewhereMoveWhereCajaActionsReadsThem() throws {
    let elsewhere = FileManagerIntegration.Location(
      dataFolder: data, homeConfig: "\(desktop.root)/xdg-config")
    _ = try FileManagerIntegration.register(
      render(), executable: Fixture.executable, at: elsewhere, software: FakeSoftware())
    let old = "\(desktop.root)/xdg-config/caja-actions/caja-actions.conf"
    #expect(FileManager.default.fileExists(atPath: old))
    let report = try register()
    let conf = "\(desktop.root)/config/caja-actions/caja-actions.conf"
    #expect(report.changedSettings == conf)
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.root)/xdg-config/caja-actions"))
    _ = try FileManagerIntegration.unregister(at: location)
    #expect(!FileManager.default.fileExists(atPath: conf))
  }

  @Test func syncOnlyActsOnceRegistered() throws {
    let paths = SearchPaths(environment: desktop.environment)
    // As the D-Bus service calls it: the live system's software, the catalog only built if needed.
    #expect(
      FileManagerIntegration.sync(services: Fixture.services, catalog: Fixture.catalog, paths: paths) == nil)
    #expect(files(in: data).isEmpty)
    // Registered with another xdg-share: sync keeps that one.
    _ = try FileManagerIntegration.register(
      render(executable: "/opt/xdg-share"), executable: "/opt/xdg-share", at: location,
      software: FakeSoftware())
    let report = try #require(
      FileManagerIntegration.sync(
        services: Array(Fixture.services.prefix(2)), catalog: Fixture.catalog, paths: paths,
        software: FakeSoftware()))
    #expect(!report.removed.isEmpty)
    let entry = try String(
      contentsOfFile: "\(data)/Thunar/sendto/xdg-share-org.example.files.desktop", encoding: .utf8)
    #expect(entry.contains("Exec=/opt/xdg-share --service org.example.files -- %F"))
  }

  @Test func adviceNamesWhatIsMissing() throws {
    let report = try register(software: FakeSoftware(programs: ["nautilus", "caja", "pcmanfm", "thunar"]))
    #expect(
      report.advice == [
        .installPackage("python3-nautilus", for: .nautilus, program: "Nautilus"),
        .restart(command: "nautilus -q", for: .nautilus),
        .installPackage("caja-actions", for: .desktopActions, program: "Caja"),
        .restart(command: "caja -q", for: .desktopActions),
        .installPackage("libfm-modules", for: .desktopActions, program: "PCManFM"),
      ])
    let complete = try register(
      software: FakeSoftware(
        programs: ["nautilus", "caja", "pcmanfm"],
        packages: ["python3-nautilus", "caja-actions", "libfm-modules"]))
    #expect(complete.advice.isEmpty)
  }

  /// Debian's Purpose lacks Kirigami, which its job dialog needs: the plugins are listed in every
  /// KDE application and do nothing when chosen, so `register` says what to install.
  @Test func purposeWithoutKirigamiIsAdvice() throws {
    let rendering = try FileManagerIntegration.render(
      services: Fixture.services, executable: Fixture.executable, catalog: Fixture.catalog,
      purpose: Fixture.purpose)
    func advice(_ packages: Set<String>) throws -> [Advice] {
      try FileManagerIntegration.register(
        rendering, executable: Fixture.executable, at: location, software: FakeSoftware(packages: packages)
      ).advice
    }
    #expect(
      try advice(["libkf5purpose-bin"]) == [
        .installPackageToRun("qml-module-org-kde-kirigami2", for: .purpose, program: "KDE applications")
      ])
    #expect(
      try advice(["libkf6purpose-bin"]) == [
        .installPackageToRun("qml6-module-org-kde-kirigami", for: .purpose, program: "KDE applications")
      ])
    #expect(try advice(["libkf5purpose-bin", "qml-module-org-kde-kirigami2"]).isEmpty)
    // Without Purpose, the plugins wait for it: nothing to say.
    #expect(try advice([]).isEmpty)
  }

  @Test func systemScopeUsesTheFirstDataDirectory() {
    let paths = SearchPaths(environment: ["HOME": "/home/u", "XDG_DATA_DIRS": "/usr/local/share:/usr/share"])
    #expect(
      FileManagerIntegration.Location(scope: .system, paths: paths)
        == .init(dataFolder: "/usr/local/share", homeConfig: nil, anchors: ["root": "/"]))
    #expect(
      FileManagerIntegration.Location(scope: .user, paths: paths)
        == .init(
          dataFolder: "/home/u/.local/share", homeConfig: "/home/u/.config",
          anchors: ["config": "/home/u/.config", "home": "/home/u"]))
    // A package build stages everything below DESTDIR.
    let staged = FileManagerIntegration.Location(scope: .system, paths: paths, staging: FilePath("/tmp/pkg/"))
    #expect(
      staged == .init(dataFolder: "/tmp/pkg/usr/local/share", homeConfig: nil, anchors: ["root": "/tmp/pkg"]))
    #expect(staged.absolute("@root/etc/chromium/x.json") == FilePath("/tmp/pkg/etc/chromium/x.json"))
  }

  /// The browsers' manifests go where each browser looks, outside the data folder; `unregister`
  /// removes them and the folders `register` made for them, and nothing else there.
  @Test func browsersManifestsAreWrittenAndRemovedOutsideTheDataFolder() throws {
    let location = FileManagerIntegration.Location(
      dataFolder: data, homeConfig: "\(desktop.root)/home/.config",
      anchors: ["config": "\(desktop.root)/config", "home": "\(desktop.root)/home"])
    // Chromium's profile is there already, with a file of its own.
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/config/chromium", withIntermediateDirectories: true)
    try "{}".write(toFile: "\(desktop.root)/config/chromium/Local State", atomically: true, encoding: .utf8)
    let rendering = try FileManagerIntegration.render(
      services: Fixture.services, executable: Fixture.executable, catalog: Fixture.catalog,
      webShare: WebShareSetup(program: "/usr/libexec/xdg-share/xdg-share-webshare", scope: .user))
    let report = try FileManagerIntegration.register(
      rendering, executable: Fixture.executable, at: location, software: FakeSoftware())
    #expect(report.failures.isEmpty)
    for path in [
      "config/chromium/NativeMessagingHosts", "config/google-chrome/NativeMessagingHosts",
      "home/.mozilla/native-messaging-hosts",
    ] {
      #expect(
        FileManager.default.fileExists(atPath: "\(desktop.root)/\(path)/org.xdgshare.webshare.json"),
        "\(path)")
    }
    _ = try FileManagerIntegration.unregister(at: location)
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.root)/config/chromium/NativeMessagingHosts"))
    #expect(FileManager.default.fileExists(atPath: "\(desktop.root)/config/chromium/Local State"))
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.root)/config/google-chrome"))
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.root)/home/.mozilla"))
  }

  /// caja-actions reads `g_get_home_dir()/.config` whatever `XDG_CONFIG_HOME` says (seen with the
  /// real Caja 1.26 + caja-actions 1.27: settings in `$XDG_CONFIG_HOME` alone left the root menu).
  @Test func cajaActionsSettingsGoToTheHomeConfigFolderWhateverXDGConfigHomeSays() {
    let paths = SearchPaths(environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": "/elsewhere/config"])
    #expect(FileManagerIntegration.Location(scope: .user, paths: paths).homeConfig == "/home/u/.config")
  }
}
