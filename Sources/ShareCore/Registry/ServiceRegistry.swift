import FoundationEssentials

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
    var services: [ShareService] = []
    var problems: [BundleProblem] = []
    var owner: [String: String] = [:]
    for directory in directories {
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
      for name in names.sorted() where name.hasSuffix(".shareext") {
        let outcome = loader.load(bundleAt: directory + "/" + name)
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

  /// The service with `id`, hidden or not.
  public func service(withID id: String) -> ShareService? {
    services.first { $0.id == id }
  }

  /// The services to offer: not hidden, requirements met.
  public func offered(in environment: some ServiceEnvironment) -> [ShareService] {
    services.filter { !hiddenServices.contains($0.id) && environment.satisfies($0.requirements) }
  }

  /// The services to offer whose activation rule accepts `selection`.
  public func offered(
    accepting selection: ActivationSelection, in environment: some ServiceEnvironment
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
