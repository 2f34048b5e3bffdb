import Foundation
public import ShareCore

/// The one engine behind `xdg-share list`, `share` and the D-Bus service: the installed
/// services of a desktop and which of them accept a selection.
public struct ServiceCatalog: Sendable {
  public let paths: SearchPaths
  public let registry: ServiceRegistry
  public let types: TypeSystem
  /// The services to offer: not hidden, requirements met.
  public let offered: [ShareService]

  /// Loads the services of the desktop described by `environment`.
  ///
  /// - Parameter serviceEnvironment: answers the requirements of the loaded services (programs on
  ///   `PATH`, names on the bus); called once.
  public init(
    environment: [String: String], types: TypeSystem,
    serviceEnvironment: ([ShareService]) -> any ServiceEnvironment
  ) {
    paths = SearchPaths(environment: environment)
    let settings = (try? String(contentsOfFile: paths.settingsFile, encoding: .utf8)).map(
      UserSettings.init(parsing:))
    registry = ServiceRegistry.load(
      from: paths.extensionDirectories,
      loader: BundleLoader(languages: Localization.preferredLanguages(environment: environment)),
      hiddenServices: settings?.hiddenServices ?? [])
    self.types = types
    let serviceEnvironment = serviceEnvironment(registry.services)
    self.serviceEnvironment = serviceEnvironment
    offered = registry.offered(in: serviceEnvironment)
  }

  private let serviceEnvironment: any ServiceEnvironment

  /// The installed services that are not offered, and why; worked out when asked (the service
  /// reloads often and never asks).
  public var withheld: [Withheld] {
    registry.services.compactMap { service in
      if registry.hiddenServices.contains(service.id) { return Withheld(service: service, reason: .hidden) }
      let missing = serviceEnvironment.unmet(service.requirements)
      return missing.isEmpty ? nil : Withheld(service: service, reason: .missing(missing))
    }
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

  /// The offered services whose rules accept `selection`, in the registry's order.
  public func services(accepting selection: ActivationSelection) -> [ShareService] {
    offered.filter { $0.rule.accepts(selection) }
  }

  /// The attachments of `items`, files looked at by `inspector`.
  public func attachments(
    for items: [RequestedItem], inspector: some FileInspector
  ) -> (attachments: [Attachment], problems: [FileProblem]) {
    types.attachments(for: items, inspector: inspector)
  }
}
