public import ShareCore
import ShareHost
import SharePOSIX

extension FileManagerIntegration {
  /// The job program's name: beside `xdg-share` in a build, in `../libexec/xdg-share/` from it
  /// once installed.
  public static let purposeProgram = "xdg-share-purpose"

  /// What the Purpose plugins for `services` need, found on this system: the job program that
  /// belongs to the xdg-share at `executable`, whether Dolphin's Share menu is Purpose's, and
  /// each service's names in every language its bundle has. Nil when there is no job program a
  /// `#!` line can name: no plugins are written then.
  public static func purposeSetup(
    executable: String, services: [ShareService], paths: SearchPaths, software: some InstalledSoftware
  ) -> PurposeSetup? {
    guard let program = helperProgram(purposeProgram, besides: executable), PurposePlugins.canRun(program)
    else {
      return nil
    }
    let files = SystemBundleFiles()
    let loader = BundleLoader(languages: [], files: files)
    var translations: [String: [PurposeSetup.Translation]] = [:]
    var plain: [String: ShareService] = [:]
    for service in services {
      guard let unlocalized = loader.load(bundleAt: service.bundleLocation).service else { continue }
      plain[service.id] = unlocalized
      translations[service.id] = Localization.allStrings(inBundle: service.bundleLocation, files: files).map {
        locale, strings in
        PurposeSetup.Translation(
          locale: locale,
          name: strings[InfoPlistKey.displayName] ?? strings[InfoPlistKey.name] ?? unlocalized.name,
          description: strings[InfoPlistKey.description])
      }
    }
    return PurposeSetup(
      program: program, inDolphin: purposeInDolphin(paths: paths, software: software),
      translations: translations, plainServices: plain)
  }

  /// The helper program `name` that belongs to the xdg-share at `executable`: beside it in a
  /// build, in `../libexec/xdg-share/` from it once installed.
  static func helperProgram(_ name: String, besides executable: String) -> String? {
    HelperProgram.locate(name, besides: FilePath(executable))?.string
  }

  /// Whether Dolphin shows Purpose's Share menu: its `sharefileitemaction` plugin is installed
  /// (KDE Frameworks 5 or 6) and not turned off in Dolphin's settings (`kservicemenurc`,
  /// `[Show] sharefileitemaction=false`, which KIO reads from `$XDG_CONFIG_HOME`).
  static func purposeInDolphin(paths: SearchPaths, software: some InstalledSoftware) -> Bool {
    guard software.hasPackage("libkf5purpose-bin") || software.hasPackage("libkf6purpose-bin") else {
      return false
    }
    let settings = paths.configHomeLocation.appending("kservicemenurc")
    guard let bytes = FileSystem.contents(ofRegularFile: settings.bytes, maximumSize: 1 << 20) else {
      return true
    }
    let file = KeyFile(parsing: String(decoding: bytes, as: UTF8.self))
    return file.value("sharefileitemaction", in: "Show")?.lowercased() != "false"
  }
}
