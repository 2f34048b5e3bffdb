import FoundationEssentials
import ShareCore
import ShareHost
import SharePOSIX

/// `xdg-share install BUNDLE` and `xdg-share uninstall ID`.
enum InstallCommands {
  /// Installs the bundle at `path`, after printing the permissions it asks for (on replacing a
  /// copy, only the new ones); one that asks for no sandbox only when `allowUnconfined`.
  static func install(_ path: FilePath, allowUnconfined: Bool = false, context: ToolContext) -> ExitCode {
    // By bytes throughout: a bundle, or a user extensions folder, whose path is not UTF-8 is
    // installed like any other and named in messages with escapes (FilePath.text).
    let source = path.trimmingTrailingSlashes
    let loader = BundleLoader.system(environment: context.environment)
    let outcome = loader.load(bundleAt: source)
    for problem in outcome.problems + TypeLint.warnings(for: outcome) {
      context.output.diagnostic(Diagnostics.line(for: problem))
    }
    guard let service = outcome.service else { return .failure }

    let destinationFolder = context.paths.userExtensionsLocation
    // Consent, as `flatpak install` asks it: what the bundle may reach, said before it is there;
    // a bundle placed by hand or by a package manager is taken as it is.
    if service.entitlements.unconfined && !allowUnconfined {
      context.output.error(Wording.refusedUnconfined(service.name, id: service.id))
      return .failure
    }
    let replaced = userBundles(withID: service.id, in: destinationFolder).lazy
      .compactMap { loader.load(bundleAt: $0).service?.entitlements }.first
    let permissions = service.entitlements.permissions(beyond: replaced ?? .none)
    for line in Wording.consent(permissions, replacing: replaced != nil, sayingNone: Terminal.isTerminal(1)) {
      context.output.line(line)
    }
    let name = Array((service.id + ".shareext").utf8)
    let slash = [UInt8(ascii: "/")]
    let destination = FilePath(bytes: destinationFolder.bytes + slash + name)
    let staging = FilePath(
      bytes: destinationFolder.bytes + slash + Array(".".utf8) + name
        + Array(".installing-\(ProcessStatus.currentProcess)".utf8))
    var anchored: [(String, String)] = []
    do {
      try FileSystem.makeDirectories(destinationFolder.bytes)
      try? FileSystem.removeTree(staging.bytes)
      let links = try FileSystem.copyTree(source.bytes, to: staging.bytes)
      anchored = try anchorOutwardLinks(links, in: staging, copiedFrom: source)
      // The copy must work where it lands, not only where it was: say what is wrong with it there.
      let copy = loader.load(bundleAt: staging)
      guard copy.service != nil else {
        for var problem in copy.problems where problem.severity == .error {
          if problem.file.hasPrefix(staging.text) {
            problem.file = destination.text + problem.file.dropFirst(staging.text.count)
          }
          context.output.diagnostic(Diagnostics.line(for: problem))
        }
        throw CopyDoesNotLoad()
      }
      // Other copies of the same service in the user's folder would shadow the new one.
      for other in userBundles(withID: service.id, in: destinationFolder) where other != destination {
        try FileSystem.removeTree(other.bytes)
      }
      try replace(destination, with: staging)
    } catch {
      try? FileSystem.removeTree(staging.bytes)
      let reason = error is CopyDoesNotLoad ? Wording.copyDoesNotLoad : Wording.reason(error)
      context.output.error(
        Wording.describe(.cannotInstall(service.id, into: destinationFolder.text, reason: reason)))
      return .failure
    }
    context.output.line(Wording.installed(service.name, id: service.id, in: destination.text))
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
  /// on the way followed. Links within the bundle stay as they are. `links` are the links of the
  /// copy, relative to it. Returns those it changed, as text: the link's path in the bundle and
  /// its new target.
  static func anchorOutwardLinks(
    _ links: [[UInt8]], in copy: FilePath, copiedFrom source: FilePath
  ) throws(SystemError) -> [(String, String)] {
    let slash = UInt8(ascii: "/")
    guard let bundle = FileSystem.resolvedPath(source.bytes) else { return [] }
    var anchored: [(String, String)] = []
    for relative in links {
      let link = copy.bytes + [slash] + relative
      guard let target = FileSystem.linkDestination(link), target.first != slash else { continue }
      let original = bundle + [slash] + relative
      let led =
        FileSystem.resolvedPath(original)
        ?? normalized(Array(original[..<(original.lastIndex(of: slash) ?? 0)]) + [slash] + target)
      guard led != bundle, !led.starts(with: bundle + [slash]) else { continue }
      try FileSystem.remove(link)
      try FileSystem.makeSymbolicLink(at: link, leadingTo: led)
      anchored.append((FilePath(bytes: relative).text, FilePath(bytes: led).text))
    }
    return anchored
  }

  /// An absolute path without `.`, `..` and empty components, taken as written: where a link
  /// that leads to nothing would lead.
  private static func normalized(_ path: [UInt8]) -> [UInt8] {
    var components: [ArraySlice<UInt8>] = []
    for component in path.split(separator: UInt8(ascii: "/")) {
      if component.elementsEqual(".".utf8) { continue }
      if component.elementsEqual("..".utf8) {
        _ = components.popLast()
      } else {
        components.append(component)
      }
    }
    return components.reduce(into: []) { $0 += [UInt8(ascii: "/")] + $1 }
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
  private static func replace(_ destination: FilePath, with staging: FilePath) throws(SystemError) {
    guard (try? FileSystem.linkStatus(destination.bytes)) != nil else {
      try FileSystem.rename(staging.bytes, to: destination.bytes)
      return
    }
    let old = destination.bytes + Array(".old-\(UUID().uuidString)".utf8)
    try FileSystem.rename(destination.bytes, to: old)
    do {
      try FileSystem.rename(staging.bytes, to: destination.bytes)
    } catch {
      try? FileSystem.rename(old, to: destination.bytes)
      throw error
    }
    try? FileSystem.removeTree(old)
  }
}
