import FoundationEssentials
import ShareCore
import ShareHost
import SharePOSIX

/// `xdg-share install BUNDLE` and `xdg-share uninstall ID`.
enum InstallCommands {
  static func install(_ path: FilePath, context: ToolContext) -> ExitCode {
    guard var source = path.string else {
      context.output.error(Wording.describe(.pathNotUTF8(path)))
      return .failure
    }
    while source.count > 1, source.hasSuffix("/") { source.removeLast() }
    let loader = BundleLoader(languages: Localization.preferredLanguages(environment: context.environment))
    let outcome = loader.load(bundleAt: source)
    for problem in outcome.problems { context.output.diagnostic(Diagnostics.line(for: problem)) }
    guard let service = outcome.service else { return .failure }

    // FileManager copies the bundle: the folder it goes to must be text. (Installing into a
    // folder whose path is not UTF-8 is refused rather than done under an escaped name.)
    guard let destinationFolder = context.paths.userExtensionsLocation.string else {
      context.output.error(Wording.describe(.pathNotUTF8(context.paths.userExtensionsLocation)))
      return .failure
    }
    let name = service.id + ".shareext"
    let destination = destinationFolder + "/" + name
    let staging = destinationFolder + "/.\(name).installing-\(ProcessInfo.processInfo.processIdentifier)"
    let files = FileManager.default
    var anchored: [(String, String)] = []
    do {
      try files.createDirectory(atPath: destinationFolder, withIntermediateDirectories: true)
      try? files.removeItem(atPath: staging)
      try files.copyItem(atPath: source, toPath: staging)
      anchored = try anchorOutwardLinks(in: staging, copiedFrom: source)
      // The copy must work where it lands, not only where it was: say what is wrong with it there.
      let copy = loader.load(bundleAt: staging)
      guard copy.service != nil else {
        for var problem in copy.problems where problem.severity == .error {
          if problem.file.hasPrefix(staging) {
            problem.file = destination + problem.file.dropFirst(staging.count)
          }
          context.output.diagnostic(Diagnostics.line(for: problem))
        }
        throw CopyDoesNotLoad()
      }
      // Other copies of the same service in the user's folder would shadow the new one.
      for other in userBundles(withID: service.id, in: FilePath(destinationFolder))
      where other != FilePath(destination) {
        try FileSystem.removeTree(other.bytes)
      }
      try replace(destination, with: staging)
    } catch {
      try? files.removeItem(atPath: staging)
      let reason = error is CopyDoesNotLoad ? Wording.copyDoesNotLoad : Wording.reason(error)
      context.output.error(
        Wording.describe(.cannotInstall(service.id, into: destinationFolder, reason: reason)))
      return .failure
    }
    context.output.line(Wording.installed(service.name, id: service.id, in: destination))
    for (link, target) in anchored { context.output.line(Wording.anchoredLink(link, to: target)) }
    // Installed but not offered: say why now rather than leave the author to wonder.
    let catalog = context.loadCatalog(reportProblems: false)
    for withheld in catalog.withheld where withheld.service.id == service.id {
      context.output.error(Wording.notOffered(withheld, settingsFile: catalog.paths.settingsFile))
    }
    RegisterCommand.resync(context: context, catalog: catalog)
    return .success
  }

  private struct CopyDoesNotLoad: Error {}

  /// A relative symbolic link that leads out of the bundle (`run -> ../../shared/program`) would
  /// lead elsewhere from the new place: each becomes an absolute link to where it led, every link
  /// on the way followed. Links within the bundle stay as they are. Returns those it changed: the
  /// link's path in the bundle and its new target.
  static func anchorOutwardLinks(in copy: String, copiedFrom source: String) throws -> [(String, String)] {
    let files = FileManager.default
    let bundle = URL(fileURLWithPath: source).resolvingSymlinksInPath().path
    var anchored: [(String, String)] = []
    for relative in try files.subpathsOfDirectory(atPath: copy) {
      let link = copy + "/" + relative
      guard let target = try? files.destinationOfSymbolicLink(atPath: link), !target.hasPrefix("/") else {
        continue
      }
      let led = URL(fileURLWithPath: bundle + "/" + relative).resolvingSymlinksInPath().path
      guard led != bundle, !led.hasPrefix(bundle + "/") else { continue }
      try files.removeItem(atPath: link)
      try files.createSymbolicLink(atPath: link, withDestinationPath: led)
      anchored.append((relative, led))
    }
    return anchored
  }

  static func uninstall(_ id: String, context: ToolContext) -> ExitCode {
    let bundles = userBundles(withID: id, in: context.paths.userExtensionsLocation)
    guard !bundles.isEmpty else {
      if let service = context.loadCatalog(reportProblems: false).registry.service(withID: id) {
        context.output.error(
          Wording.describe(
            .installedForEveryUser(id, bundle: service.bundlePath, settings: context.paths.settingsFile)))
        return .failure
      }
      context.output.error(Wording.describe(.notInstalledForUser(id)))
      return .noSuchService
    }
    for bundle in bundles {
      // Rename first, so a half-removed bundle is never loaded. By bytes: a folder whose name
      // is not UTF-8 goes like any other.
      let folder = bundle.bytes[..<(bundle.bytes.lastIndex(of: UInt8(ascii: "/")) ?? bundle.bytes.startIndex)]
      let doomed = Array(folder) + Array("/.removing-\(UUID().uuidString)".utf8)
      do throws(SystemError) {
        try FileSystem.rename(bundle.bytes, to: doomed)
        try FileSystem.removeTree(doomed)
      } catch {
        context.output.error(Wording.describe(.cannotRemove(bundle.text, reason: error.reason)))
        return .failure
      }
      context.output.line(Wording.removed(bundle.text))
    }
    RegisterCommand.resync(context: context)
    return .success
  }

  /// Bundles in `folder` (valid or not) whose Info.plist names `id`.
  private static func userBundles(withID id: String, in folder: FilePath) -> [FilePath] {
    let files = SystemBundleFiles()
    return ServiceRegistry.bundles(in: folder, files: files).filter {
      $0.lastComponent.first != UInt8(ascii: ".")
        && BundleLoader.declaredIdentifier(ofBundleAt: $0, files: files) == id
    }
  }

  /// Puts `staging` in place of `destination`: the old copy is moved aside first, so at every
  /// moment one complete bundle is there.
  private static func replace(_ destination: String, with staging: String) throws {
    let files = FileManager.default
    guard files.fileExists(atPath: destination) else {
      try files.moveItem(atPath: staging, toPath: destination)
      return
    }
    let old = destination + ".old-\(UUID().uuidString)"
    try files.moveItem(atPath: destination, toPath: old)
    do {
      try files.moveItem(atPath: staging, toPath: destination)
    } catch {
      try? files.moveItem(atPath: old, toPath: destination)
      throw error
    }
    try? files.removeItem(atPath: old)
  }
}
