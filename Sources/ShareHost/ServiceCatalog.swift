import FoundationEssentials
public import ShareCore
import ShareGLib
import SharePOSIX

/// The installed services of a desktop, and the one way from items to the services that accept
/// them: `xdg-share list`, `share`, `retry`, the share sheet and the D-Bus service all go
/// through ``match(_:inspector:)`` (or its two halves, ``inspect(_:inspector:)`` and
/// ``match(_:)-(PreparedSelection)``).
public struct ServiceCatalog: Sendable {
  public let paths: SearchPaths
  public let registry: ServiceRegistry
  public let types: TypeSystem
  /// The services to offer: not hidden, requirements met.
  public let offered: [ShareService]
  /// What the user chose: the services hidden and pinned.
  public let settings: UserSettings
  /// The rules of ``offered``, in its order, compiled once per load: matching asks them all.
  private let offeredRules: CompiledRules
  private let requirements: any RequirementChecker
  private let loader: BundleLoader

  /// Loads the services of the desktop described by `environment`.
  ///
  /// - Parameter requirements: answers the requirements of the loaded services (programs on
  ///   `PATH`, names on the bus); called once.
  public init(
    environment: [String: String], types: TypeSystem,
    requirements: ([ShareService]) -> any RequirementChecker
  ) {
    paths = SearchPaths.system(environment: environment)
    settings =
      FileSystem.contents(ofRegularFile: paths.settingsFileLocation.bytes, maximumSize: 1 << 20)
      .flatMap { String(validating: $0, as: UTF8.self) }.map(UserSettings.init(parsing:)) ?? UserSettings()
    loader = .system(environment: environment)
    registry = ServiceRegistry.load(
      from: paths.extensionDirectoryLocations, loader: loader, hiddenServices: settings.hiddenServices)
    self.types = types
    self.requirements = requirements(registry.services)
    offered = registry.offered(in: self.requirements)
    offeredRules = CompiledRules(offered.map(\.rule))
  }

  /// The services of this desktop: shared-mime-info's types, `PATH` and the session bus.
  public static func desktop(environment: [String: String]) -> ServiceCatalog {
    ServiceCatalog(environment: environment, types: SharedMIMEDatabase.typeSystem()) {
      DesktopRequirements(environment: environment, services: $0)
    }
  }

  /// The installed services that are not offered, and why; worked out when asked (the service
  /// reloads often and never asks).
  public var withheld: [Withheld] {
    registry.services.compactMap { service in
      if registry.hiddenServices.contains(service.id) { return Withheld(service: service, reason: .hidden) }
      let missing = requirements.unmet(service.requirements)
      return missing.isEmpty ? nil : Withheld(service: service, reason: .missing(missing))
    }
  }

  /// What `service` needs that this desktop lacks: programs (a `|` list, any one of them) and
  /// bus names.
  public func missing(for service: ShareService) -> (programs: [String], busNames: [String]) {
    let unmet = Set(requirements.unmet(service.requirements))
    return (
      service.requirements.programs.filter(unmet.contains),
      service.requirements.busNames.filter(unmet.contains)
    )
  }

  /// Every bundle of the extension folders, loaded afresh, in the order they are read.
  public func survey() -> BundleSurvey {
    BundleSurvey(directories: paths.extensionDirectoryLocations, loader: loader)
  }

  /// Why service `id` is or is not offered for `selection`: nil when no bundle has that
  /// identifier.
  public func explain(_ id: String, _ selection: PreparedSelection, survey: BundleSurvey)
    -> ServiceExplanation?
  {
    let entries = survey.entries(withID: id)
    guard let first = entries.first else { return nil }
    let others = entries.dropFirst().map {
      ServiceExplanation.OtherBundle(location: $0.location, errors: $0.errors)
    }
    let items = selection.attachments.map { ServiceExplanation.Item($0, types: types) }
    guard let service = first.isLoaded ? first.outcome.service : nil else {
      return ServiceExplanation(
        id: id, name: first.outcome.name, bundle: first.location, obstacles: [.invalid(first.errors)],
        otherBundles: others, items: items, rule: nil, trace: nil)
    }
    return explain(service, selection, otherBundles: others)
  }

  /// Why `service`, which may be no installed one (a bundle being written), is or is not offered
  /// for `selection`.
  public func explain(
    _ service: ShareService, _ selection: PreparedSelection,
    otherBundles: [ServiceExplanation.OtherBundle] = []
  ) -> ServiceExplanation {
    var obstacles: [ServiceExplanation.Obstacle] = []
    if settings.hiddenServices.contains(service.id) {
      obstacles.append(.hidden(settingsFile: paths.settingsFile))
    }
    let missing = missing(for: service)
    if !missing.programs.isEmpty || !missing.busNames.isEmpty {
      obstacles.append(.missing(programs: missing.programs, busNames: missing.busNames))
    }
    var explanation = ServiceExplanation(
      id: service.id, name: service.name, bundle: service.bundleLocation, obstacles: obstacles,
      otherBundles: otherBundles,
      items: selection.attachments.map { ServiceExplanation.Item($0, types: types) },
      rule: service.rule, trace: service.rule.trace(selection.attachments, types: types))
    explanation.entitlements = service.entitlements
    return explanation
  }

  /// The bundle at `location`, loaded as the registry would load it.
  public func load(bundleAt location: FilePath) -> BundleLoader.Outcome {
    loader.load(bundleAt: location)
  }

  /// An installed service that is not offered.
  public struct Withheld: Sendable {
    public enum Reason: Sendable, Equatable {
      /// Listed in `Hidden=` of the user's settings.
      case hidden
      /// Programs or bus names it needs that this desktop lacks.
      case missing([String])
    }

    public var service: ShareService
    public var reason: Reason
  }

  /// Looks at `items` (files by `inspector`) and turns them into attachments.
  ///
  /// - Throws: ``UnreadableFiles`` naming every file that cannot be looked at.
  public func inspect(
    _ items: [RequestedItem], inspector: some FileInspector
  ) throws(UnreadableFiles) -> PreparedSelection {
    try PreparedSelection(items, types: types, inspector: inspector)
  }

  /// The offered services whose rules accept `selection`, in the registry's order.
  public func match(_ selection: PreparedSelection) -> ServiceMatch {
    let activation = ActivationSelection(attachments: selection.attachments, types: types)
    return ServiceMatch(
      selection: selection, activation: activation,
      services: offeredRules.accepting(activation).map { offered[$0] })
  }

  /// The positions in ``offered`` of the services whose rules accept `activation`, in order:
  /// what ``match(_:)`` lists, for a caller that needs the services only now and then (the D-Bus
  /// service, whose replies are kept by what they list).
  public func acceptingPositions(_ activation: ActivationSelection) -> [Int] {
    offeredRules.accepting(activation)
  }

  /// Which offered services accept `items`, together with what was built on the way.
  public func match(
    _ items: [RequestedItem], inspector: some FileInspector
  ) throws(UnreadableFiles) -> ServiceMatch {
    match(try inspect(items, inspector: inspector))
  }
}

extension ServiceCatalog {
  /// The service `id` of the desktop described by `environment`, hidden or not, with the types
  /// to share with it: loads bundles only until it is found, and checks no requirements (the
  /// service itself says what it lacks).
  public static func service(
    withID id: String, environment: [String: String]
  ) -> (service: ShareService, types: TypeSystem)? {
    let paths = SearchPaths.system(environment: environment)
    guard
      let service = ServiceRegistry.first(
        withID: id, in: paths.extensionDirectoryLocations, loader: .system(environment: environment))
    else { return nil }
    return (service, SharedMIMEDatabase.typeSystem())
  }
}

/// A selection made ready to share: the items as they were asked for and their attachments,
/// each file looked at once. What the rules, the request and the history all start from.
public struct PreparedSelection: Sendable {
  /// The items as the caller gave them, in order.
  public let items: [RequestedItem]
  /// One attachment per item, with its type identifiers.
  public let attachments: [Attachment]

  /// Looks at `items`.
  ///
  /// - Throws: ``UnreadableFiles`` naming every file that cannot be looked at.
  public init(
    _ items: [RequestedItem], types: TypeSystem, inspector: some FileInspector
  ) throws(UnreadableFiles) {
    let (attachments, problems) = types.attachments(for: items, inspector: inspector)
    guard problems.isEmpty else { throw UnreadableFiles(problems: problems) }
    self.items = items
    self.attachments = attachments
  }
}

/// Files of a selection that could not be looked at.
public struct UnreadableFiles: Error, Equatable, Sendable {
  public var problems: [FileProblem]

  public init(problems: [FileProblem]) {
    self.problems = problems
  }
}

/// The services that accept a selection, and the selection as the rules saw it.
public struct ServiceMatch: Sendable {
  public let selection: PreparedSelection
  /// The attachments grouped by type, their conformance worked out once.
  public let activation: ActivationSelection
  /// The offered services that accept the selection, in the registry's order.
  public let services: [ShareService]
}
