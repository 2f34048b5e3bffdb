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

  /// Watches every extensions folder of `paths`, each bundle in them, the settings folder and
  /// the folder of direct targets; for a folder that does not exist yet, its nearest existing
  /// parent, for the entry that leads to it only (a home folder changes all the time).
  /// Returns whether a folder is watched that was not before.
  @discardableResult
  func watchFolders(of paths: SearchPaths) -> Bool {
    // By bytes, as the registry reads them: a folder whose name is not UTF-8 is watched too.
    let files = SystemBundleFiles()
    var whole: Set<[UInt8]> = []
    // Parents of folders not made yet, with the names that lead to them.
    var parents: [[UInt8]: Set<[UInt8]>] = [:]
    func want(_ folder: FilePath) {
      var existing = folder
      var next: [UInt8]?
      while files.kind(of: existing) == nil, existing.bytes != [UInt8(ascii: "/")] {
        next = Self.name(of: existing)
        existing = Self.parent(of: existing)
      }
      if let next { parents[existing.bytes, default: []].insert(next) } else { whole.insert(existing.bytes) }
    }
    for directory in paths.extensionDirectoryLocations {
      want(directory)
      guard files.kind(of: directory) != nil else { continue }
      for bundle in ServiceRegistry.bundles(in: directory, files: files) {
        whole.insert(bundle.bytes)
        for inner in files.entries(ofDirectory: bundle) ?? []
        where inner.reversed().starts(with: ".lproj".utf8.reversed()) {
          whole.insert(bundle.bytes + [UInt8(ascii: "/")] + inner)
        }
      }
    }
    want(FilePath(bytes: paths.configHomeLocation.bytes + Array("/xdg-share".utf8)))
    // The services' direct targets, published whenever they change.
    want(DirectTargetStore(paths: paths).folder)
    var wanted: [[UInt8]: Set<[UInt8]>?] = [:]
    for (folder, names) in parents { wanted[folder] = .some(names) }
    // A folder watched whole counts every entry, the ones leading to missing folders too.
    for folder in whole { wanted[folder] = .some(nil) }
    // What was asked for, not what the kernel took: a folder that cannot be watched (gone
    // between the look and the watch, or not ours to read) must not look new at every reload.
    guard wanted != lastWanted else { return false }
    let added = wanted.contains { folder, names in
      guard let before = lastWanted[folder] else { return true }
      guard let names else { return before != nil }
      return before.map { !names.isSubset(of: $0) } ?? false
    }
    lastWanted = wanted
    watcher.removeAll()
    for (folder, names) in wanted.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
      watcher.watch(folder, names: names)
    }
    return added
  }

  /// What ``watchFolders(of:)`` asked for last: by folder, the names that count (nil: all).
  private var lastWanted: [[UInt8]: Set<[UInt8]>?] = [:]

  /// `/a/b` → `b`.
  private static func name(of path: FilePath) -> [UInt8] {
    guard let slash = path.bytes.lastIndex(of: UInt8(ascii: "/")) else { return path.bytes }
    return Array(path.bytes[(slash + 1)...])
  }

  /// `/a/b` → `/a`, `/a` → `/`.
  private static func parent(of path: FilePath) -> FilePath {
    guard let slash = path.bytes.lastIndex(of: UInt8(ascii: "/")), slash != path.bytes.startIndex else {
      return FilePath("/")
    }
    return FilePath(bytes: path.bytes[..<slash])
  }
}
