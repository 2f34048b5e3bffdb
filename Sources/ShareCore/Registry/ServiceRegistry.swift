/// The installed share services, found in the extensions folders.
public struct ServiceRegistry: Sendable {
  /// Every valid service, the first bundle of each identifier, sorted by name then identifier.
  public private(set) var services: [ShareService]
  /// Problems of broken bundles (which were skipped) and warnings of loaded ones.
  public private(set) var problems: [BundleProblem]
  /// Services the user hid; still usable by identifier, never offered.
  public var hiddenServices: Set<String>

  public init(services: [ShareService], problems: [BundleProblem] = [], hiddenServices: Set<String> = []) {
    self.services = services.sorted(by: Self.order)
    self.problems = problems
    self.hiddenServices = hiddenServices
  }

  /// Loads every `*.shareext` bundle in `directories`, in order; a later bundle with an identifier
  /// already seen is skipped, so a user's bundle overrides or hides a system one.
  public static func load(
    from directories: [String], loader: BundleLoader, hiddenServices: Set<String> = []
  ) -> ServiceRegistry {
    load(from: directories.map(FilePath.init), loader: loader, hiddenServices: hiddenServices)
  }

  /// ``load(from:loader:hiddenServices:)`` from folders named by bytes; the folders are listed
  /// through the loader's ``BundleLoader/files``, so that no name is changed on the way.
  public static func load(
    from directories: [FilePath], loader: BundleLoader, hiddenServices: Set<String> = []
  ) -> ServiceRegistry {
    var services: [ShareService] = []
    var problems: [BundleProblem] = []
    var owner: [String: String] = [:]
    for directory in directories {
      for bundle in bundles(in: directory, files: loader.files) {
        let outcome = loader.load(bundleAt: bundle)
        problems += outcome.problems
        guard let service = outcome.service else { continue }
        if let first = owner[service.id] {
          problems.append(
            BundleProblem(
              file: service.bundlePath, key: InfoPlistKey.identifier, kind: .shadowed(by: first),
              severity: .warning))
          continue
        }
        owner[service.id] = service.bundlePath
        services.append(service)
      }
    }
    return ServiceRegistry(services: services, problems: problems, hiddenServices: hiddenServices)
  }

  /// The service with `id` as ``load(from:loader:hiddenServices:)`` would find it, loading bundles
  /// only until it is found: what a share with a named service needs.
  public static func first(withID id: String, in directories: [String], loader: BundleLoader) -> ShareService?
  {
    first(withID: id, in: directories.map(FilePath.init), loader: loader)
  }

  /// ``first(withID:in:loader:)`` in folders named by bytes.
  public static func first(withID id: String, in directories: [FilePath], loader: BundleLoader)
    -> ShareService?
  {
    for directory in directories {
      for bundle in bundles(in: directory, files: loader.files) {
        if let service = loader.load(bundleAt: bundle).service, service.id == id { return service }
      }
    }
    return nil
  }

  /// The `*.shareext` entries of `directory`, in the order of their names as text (as before
  /// names were read as bytes), bytes settling names that read alike.
  public static func bundles(in directory: FilePath, files: any BundleFiles) -> [FilePath] {
    let suffix = Array(".shareext".utf8)
    let names = (files.entries(ofDirectory: directory) ?? []).filter {
      $0.count >= suffix.count && $0.suffix(suffix.count).elementsEqual(suffix)
    }
    let keyed = names.map { (text: String(decoding: $0, as: UTF8.self), bytes: $0) }
    return keyed.sorted {
      $0.text != $1.text ? $0.text < $1.text : $0.bytes.lexicographicallyPrecedes($1.bytes)
    }.map { FilePath(bytes: directory.bytes + [UInt8(ascii: "/")] + $0.bytes) }
  }

  /// The service with `id`, hidden or not.
  public func service(withID id: String) -> ShareService? {
    services.first { $0.id == id }
  }

  /// The services to offer: not hidden, requirements met.
  public func offered(in environment: some RequirementChecker) -> [ShareService] {
    services.filter { !hiddenServices.contains($0.id) && environment.satisfies($0.requirements) }
  }

  /// The services to offer whose activation rule accepts `selection`.
  public func offered(
    accepting selection: ActivationSelection, in environment: some RequirementChecker
  ) -> [ShareService] {
    services.filter {
      !hiddenServices.contains($0.id) && environment.satisfies($0.requirements) && $0.rule.accepts(selection)
    }
  }

  /// Name first, as people look for it; the identifier settles ties so the order is stable.
  private static func order(_ a: ShareService, _ b: ShareService) -> Bool {
    let (left, right) = (a.name.lowercased(), b.name.lowercased())
    return left != right ? left < right : a.id < b.id
  }
}
