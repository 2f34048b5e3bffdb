import ShareCore
import ShareHost
import SharePOSIX

/// Watches the extensions folders and the user's settings, and says when a change has settled
/// enough to reload: once the folders have been quiet for a moment, or a little after the first
/// change, whichever comes first (a bundle being copied in changes many times).
final class BundleWatch {
  private let watcher: DirectoryWatcher
  private let quietPeriod: Double
  private let maximumDelay: Double
  private var firstSeen: Double?
  private var lastSeen: Double?

  init(quietPeriod: Double, maximumDelay: Double) throws(SystemError) {
    watcher = try DirectoryWatcher()
    self.quietPeriod = quietPeriod
    self.maximumDelay = maximumDelay
  }

  /// The descriptor to poll; ``ingest()`` when it is readable.
  var descriptor: Int32 { watcher.descriptorNumber }

  /// Reads what the watched folders report.
  func ingest() {
    if !watcher.changedFolders().isEmpty { noteChange() }
  }

  /// Something changed that may change the services (a folder, a bus name a service needs).
  func noteChange() {
    let now = MonotonicClock.now
    if firstSeen == nil { firstSeen = now }
    lastSeen = now
  }

  /// When a pending change will have settled; nil with none pending.
  var deadline: Double? {
    guard let firstSeen, let lastSeen else { return nil }
    return min(lastSeen + quietPeriod, firstSeen + maximumDelay)
  }

  /// Whether a pending change has settled by `now`; if so it is no longer pending.
  func takeSettledChange(now: Double) -> Bool {
    guard let deadline, now >= deadline else { return false }
    firstSeen = nil
    lastSeen = nil
    return true
  }

  /// Watches every extensions folder of `paths`, each bundle in them, and for a folder that does
  /// not exist yet its nearest existing parent, so that creating it is noticed.
  /// Returns whether a folder is watched that was not before.
  @discardableResult
  func watchFolders(of paths: SearchPaths) -> Bool {
    // By bytes, as the registry reads them: a folder whose name is not UTF-8 is watched too.
    let files = SystemBundleFiles()
    var folders: Set<[UInt8]> = []
    for directory in paths.extensionDirectoryLocations {
      var existing = directory
      while files.kind(of: existing) == nil, existing.bytes != [UInt8(ascii: "/")] {
        existing = Self.parent(of: existing)
      }
      folders.insert(existing.bytes)
      guard existing == directory else { continue }
      for bundle in ServiceRegistry.bundles(in: directory, files: files) {
        folders.insert(bundle.bytes)
        for inner in files.entries(ofDirectory: bundle) ?? []
        where inner.reversed().starts(with: ".lproj".utf8.reversed()) {
          folders.insert(bundle.bytes + [UInt8(ascii: "/")] + inner)
        }
      }
    }
    folders.insert(paths.configHomeLocation.bytes + Array("/xdg-share".utf8))
    // The services' direct targets, published whenever they change.
    var targets = DirectTargetStore(paths: paths).folder
    while files.kind(of: targets) == nil, targets.bytes != [UInt8(ascii: "/")] {
      targets = Self.parent(of: targets)
    }
    folders.insert(targets.bytes)
    guard folders != watcher.paths else { return false }
    let added = !folders.subtracting(watcher.paths).isEmpty
    watcher.removeAll()
    for folder in folders.sorted(by: { $0.lexicographicallyPrecedes($1) }) { watcher.watch(folder) }
    return added
  }

  /// `/a/b` → `/a`, `/a` → `/`.
  private static func parent(of path: FilePath) -> FilePath {
    guard let slash = path.bytes.lastIndex(of: UInt8(ascii: "/")), slash != path.bytes.startIndex else {
      return FilePath("/")
    }
    return FilePath(bytes: path.bytes[..<slash])
  }
}
