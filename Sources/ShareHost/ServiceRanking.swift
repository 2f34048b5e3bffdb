public import FoundationEssentials
public import ShareCore
import ShareProtocol

/// The order in which a picker offers services: the user's pinned services first, in the order
/// they were pinned; then the services the user chose most, and most recently, for this kind of
/// content (frecency); then by name.
///
/// Frecency follows Firefox's: each past use earns points by its age (more within 4 days, fewer
/// within 14, 31, 90 days, a few after that); a service's frecency is the number of its uses
/// times the average points of its 10 most recent ones. A use counts for the content being shared
/// when it shared the same kinds of content (full points) or some of them (half); a use that did
/// not complete earns half as much as one that did (the user still chose the service).
public struct ServiceRanking: Sendable {
  /// What a selection holds, for ranking: images, movies, other files, links, text.
  public typealias Kind = ActivationSelection.Kind

  /// One past use of a service, as much of a history record as ranking needs.
  public struct Use: Sendable, Equatable {
    public var serviceID: String
    /// The kinds of content shared.
    public var kinds: Set<Kind>
    public var date: Date
    public var completed: Bool
    /// The direct target it went to, if one.
    public var targetID: String?

    public init(serviceID: String, kinds: Set<Kind>, date: Date, completed: Bool, targetID: String? = nil) {
      self.serviceID = serviceID
      self.kinds = kinds
      self.date = date
      self.completed = completed
      self.targetID = targetID
    }
  }

  /// Services pinned by the user, in pin order.
  public var pinned: [String]
  private let usesByService: [String: [Use]]
  private let now: Date

  /// How many of a service's most recent uses set the points per use.
  static let sampleSize = 10

  public init(pinned: [String], uses: [Use], now: Date) {
    self.pinned = pinned
    self.now = now
    usesByService = Dictionary(grouping: uses, by: \.serviceID).mapValues { uses in
      uses.sorted { $0.date > $1.date }
    }
  }

  /// `services` in the order to offer them for content of `kinds`.
  public func order(_ services: [ShareService], for kinds: Set<Kind>) -> [ShareService] {
    let pinPosition = Dictionary(
      pinned.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    let keyed = services.map { service in
      (
        service: service, pin: pinPosition[service.id], frecency: frecency(of: service.id, for: kinds),
        name: service.name.lowercased()
      )
    }
    return keyed.sorted { a, b in
      switch (a.pin, b.pin) {
      case (let left?, let right?): return left < right
      case (.some, nil): return true
      case (nil, .some): return false
      case (nil, nil): break
      }
      if a.frecency != b.frecency { return a.frecency > b.frecency }
      if a.name != b.name { return a.name < b.name }
      return a.service.id < b.service.id
    }.map(\.service)
  }

  /// Direct targets in the order to offer them for content of `kinds`: by their service's pin,
  /// then by how much the user shared to the target itself (frecency, as for services), then by
  /// their service's frecency, then by title.
  public func order(
    _ targets: [(service: ShareService, target: DirectTarget)], for kinds: Set<Kind>
  ) -> [(service: ShareService, target: DirectTarget)] {
    let pinPosition = Dictionary(
      pinned.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    let keyed = targets.map { pair in
      (
        pair: pair, pin: pinPosition[pair.service.id],
        own: frecency(of: pair.service.id, for: kinds, target: pair.target.id),
        service: frecency(of: pair.service.id, for: kinds), title: pair.target.title.lowercased()
      )
    }
    return keyed.sorted { a, b in
      switch (a.pin, b.pin) {
      case (let left?, let right?) where left != right: return left < right
      case (.some, nil): return true
      case (nil, .some): return false
      default: break
      }
      if a.own != b.own { return a.own > b.own }
      if a.service != b.service { return a.service > b.service }
      if a.title != b.title { return a.title < b.title }
      return (a.pair.service.id, a.pair.target.id) < (b.pair.service.id, b.pair.target.id)
    }.map(\.pair)
  }

  /// How much the user used `serviceID` for content of `kinds`, recent uses weighing most; 0 for
  /// a service never used for such content. With `target`, only the uses that went to it.
  public func frecency(of serviceID: String, for kinds: Set<Kind>, target: String? = nil) -> Double {
    var count = 0
    var sampledPoints = 0.0
    var sampled = 0
    for use in usesByService[serviceID] ?? [] where target == nil || use.targetID == target {
      let relevance = Self.relevance(of: use.kinds, to: kinds)
      guard relevance > 0 else { continue }
      count += 1
      guard sampled < Self.sampleSize else { continue }
      sampled += 1
      let days = now.timeIntervalSince(use.date) / 86_400
      sampledPoints += Self.agePoints(days: days) * relevance * (use.completed ? 1 : 0.5)
    }
    return sampled == 0 ? 0 : Double(count) * sampledPoints / Double(sampled)
  }

  /// Firefox's age buckets: 100 points within 4 days, 70 within 14, 50 within 31, 30 within 90,
  /// 10 after that. A date in the future (a clock set back) counts as now.
  public static func agePoints(days: Double) -> Double {
    switch days {
    case ..<4: 100
    case ..<14: 70
    case ..<31: 50
    case ..<90: 30
    default: 10
    }
  }

  /// How much a use that shared `used` says about sharing `wanted`: 1 for the same kinds, ½ for
  /// some in common, 0 for none.
  static func relevance(of used: Set<Kind>, to wanted: Set<Kind>) -> Double {
    if used == wanted { return 1 }
    return used.isDisjoint(with: wanted) ? 0 : 0.5
  }

  /// The kinds of content in `selection`.
  public static func kinds(of selection: ActivationSelection) -> Set<Kind> {
    Set(selection.kindCounts.map(\.kind))
  }

  /// The use a history record tells of; `nil` for a record of nothing.
  ///
  /// Files are told apart by name alone (`contentType(forName:)`): a file shared months ago may be
  /// gone, and reading hundreds of old files to rank a list would be slow.
  public static func use(
    of record: HistoryRecord, types: TypeSystem, contentType: (String) -> String
  ) -> Use? {
    let attachments = record.items.compactMap { recorded -> Attachment? in
      switch recorded {
      case .file(let url):
        guard let path = FilePath(fileURL: url) else { return nil }
        let name = String(decoding: path.lastComponent, as: UTF8.self)
        return Attachment(
          item: .file(path), typeIdentifiers: types.typeIdentifiers(forMIMEType: contentType(name)))
      case .webURL(let url):
        return Attachment(item: .webURL(url), typeIdentifiers: TypeSystem.webURLIdentifiers)
      case .text(let text):
        return Attachment(item: .text(text), typeIdentifiers: TypeSystem.textIdentifiers)
      case .handedOver(let name):
        // A file all the same, of the type its name says.
        return Attachment(
          item: .file(FilePath(name)), typeIdentifiers: types.typeIdentifiers(forMIMEType: contentType(name)))
      }
    }
    let kinds = kinds(of: ActivationSelection(attachments: attachments, types: types))
    guard !kinds.isEmpty else { return nil }
    return Use(
      serviceID: record.serviceId, kinds: kinds, date: record.started, completed: record.status == .completed,
      targetID: record.target?.id)
  }
}
