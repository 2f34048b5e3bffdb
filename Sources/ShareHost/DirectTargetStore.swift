public import ShareCore
import SharePOSIX
public import ShareProtocol

/// The services' direct targets, as they published them in `$XDG_STATE_HOME/xdg-share/targets/`:
/// one file per service, named after its identifier. Read when a picker opens, never by starting
/// a service.
public struct DirectTargetStore: Sendable {
  /// The folder of the files.
  public let folder: FilePath

  public init(stateHome: FilePath) {
    folder = stateHome.appending(DirectTargetsFile.folder)
  }

  public init(paths: SearchPaths) {
    self.init(stateHome: paths.stateHomeLocation)
  }

  /// The file of the service `id`.
  public func file(of serviceID: String) -> FilePath {
    folder.appending(serviceID + ".json")
  }

  /// What the service `id` published; nil when it published nothing.
  public func read(_ serviceID: String) -> DirectTargetsFile? {
    Self.read(file(of: serviceID))
  }

  /// The file at `location`, read bounded and as a regular file only (a FIFO must not hold up
  /// the sheet); nil when there is nothing there.
  static func read(_ location: FilePath) -> DirectTargetsFile? {
    if let bytes = FileSystem.contents(
      ofRegularFile: location.bytes, maximumSize: DirectTargetsFile.maximumSize)
    {
      return DirectTargetsFile(parsing: bytes)
    }
    guard let status = try? FileSystem.status(location.bytes) else { return nil }
    let reason: DirectTargetsFile.Problem.Reason =
      status.node == .regular && status.size > DirectTargetsFile.maximumSize
      ? .tooLarge(maximum: DirectTargetsFile.maximumSize) : .unreadable
    return DirectTargetsFile(targets: [], problems: [DirectTargetsFile.Problem(entry: nil, reason: reason)])
  }

  /// The targets of each of `services` that published some.
  public func targets(of services: [ShareService]) -> [String: [DirectTarget]] {
    // One listing of the folder, then only the files that are there.
    guard let names = FileSystem.entries(ofDirectory: folder.bytes) else { return [:] }
    let present = Set(names.map { String(decoding: $0, as: UTF8.self) })
    var targets: [String: [DirectTarget]] = [:]
    for service in services where present.contains(service.id + ".json") {
      if let file = read(service.id), !file.targets.isEmpty { targets[service.id] = file.targets }
    }
    return targets
  }

  /// Every file of the folder with what reading it found, for `doctor`: by file name.
  public func survey() -> [(name: String, file: DirectTargetsFile)] {
    guard let names = FileSystem.entries(ofDirectory: folder.bytes) else { return [] }
    return names.map { String(decoding: $0, as: UTF8.self) }.filter { $0.hasSuffix(".json") }.sorted()
      .compactMap { name in Self.read(folder.appending(name)).map { (name, $0) } }
  }
}

extension DirectTarget {
  /// The target as the request carries it.
  public var payload: TargetPayload { TargetPayload(id: id, title: title, subtitle: subtitle) }
}

extension Share {
  /// The direct target `id` of `service`, checked against what is shared.
  ///
  /// - Throws: ``ShareRefusal/noSuchTarget(_:service:known:)`` when the service published none
  ///   with that identifier, ``ShareRefusal/targetRefuses(_:service:)`` when it does not take the
  ///   items.
  public static func target(
    _ id: String, of accepted: AcceptedSelection, store: DirectTargetStore, types: TypeSystem
  ) throws(ShareRefusal) -> DirectTarget {
    let targets = store.read(accepted.service.id)?.targets ?? []
    guard let target = targets.first(where: { $0.id == id }) else {
      throw .noSuchTarget(id, service: accepted.service.id, known: targets.map(\.id))
    }
    guard target.accepts(ActivationSelection(attachments: accepted.selection.attachments, types: types))
    else {
      throw .targetRefuses(target, service: accepted.service)
    }
    return target
  }
}

extension ServiceCatalog {
  /// Where the services' direct targets are.
  public var directTargetStore: DirectTargetStore { DirectTargetStore(paths: paths) }

  /// The direct targets of `services` that take `activation`, service by service in their order.
  public func directTargets(
    of services: [ShareService], accepting activation: ActivationSelection
  ) -> [(service: ShareService, target: DirectTarget)] {
    let published = directTargetStore.targets(of: services)
    guard !published.isEmpty else { return [] }
    return services.flatMap { service in
      (published[service.id] ?? []).filter { $0.accepts(activation) }.map { (service, $0) }
    }
  }

  /// The offered services that published a target `id`: for a target named without its service.
  public func services(withTarget id: String) -> [ShareService] {
    let published = directTargetStore.targets(of: offered)
    return offered.filter { published[$0.id]?.contains { $0.id == id } == true }
  }
}
