/// Every bundle of the extension folders, in the order they are read, with what became of each:
/// what `xdg-share doctor` lists and where `xdg-share why` finds a service that does not load.
/// ``ServiceRegistry`` keeps only what it offers; this keeps everything.
public struct BundleSurvey: Sendable {
  /// One `*.shareext` entry of a folder.
  public struct Entry: Sendable {
    /// The folder it is in, one of the search path's.
    public var folder: FilePath
    public var location: FilePath
    /// What loading it gave: the service when it is valid, and every problem.
    public var outcome: BundleLoader.Outcome
    /// The bundle read before it that has its identifier, and so is used instead; nil when this
    /// one is used (or is invalid).
    public var shadowedBy: FilePath?

    /// Its identifier, when it gives one that is well formed, valid bundle or not.
    public var identifier: String? { outcome.service?.id ?? outcome.identifier }

    /// Whether it is a service of the registry: valid, and not shadowed.
    public var isLoaded: Bool { outcome.service != nil && shadowedBy == nil }

    /// The errors that keep it from loading.
    public var errors: [BundleProblem] { outcome.problems.filter { $0.severity == .error } }
  }

  /// The folders, in the order they are read; missing ones included.
  public var folders: [FilePath]
  public var entries: [Entry]

  /// Reads every bundle of `directories` as ``ServiceRegistry/load(from:loader:hiddenServices:)``
  /// does: a later valid bundle with an identifier already used is shadowed by the first.
  public init(directories: [FilePath], loader: BundleLoader) {
    folders = directories
    entries = []
    var owner: [String: FilePath] = [:]
    for directory in directories {
      for location in ServiceRegistry.bundles(in: directory, files: loader.files) {
        var entry = Entry(folder: directory, location: location, outcome: loader.load(bundleAt: location))
        if let service = entry.outcome.service {
          if let first = owner[service.id] {
            entry.shadowedBy = first
          } else {
            owner[service.id] = location
          }
        }
        entries.append(entry)
      }
    }
  }

  /// The bundles that have identifier `id`, in the order they are read: the one used first when
  /// there is one, then the others.
  public func entries(withID id: String) -> [Entry] {
    let matching = entries.filter { $0.identifier == id }
    return matching.filter(\.isLoaded) + matching.filter { !$0.isLoaded }
  }
}
