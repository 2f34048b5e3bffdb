public import ShareCore

/// Which selections a service's file-manager entry is offered for: the file manager's
/// approximation of the activation rule.
///
/// Menus can only test MIME types and counts, so this is coarse by design: `xdg-share share`
/// checks the exact rule again. It is worked out by asking the rule itself about selections of
/// one type at a time, so both rule forms, `NOT`, `SUBQUERY` and counts are all honoured the way
/// the share itself honours them. Selections that mix types with separate limits (a dictionary
/// rule with both `…ImageWithMaxCount` and `…FileWithMaxCount`) get the larger single limit.
public struct FileCoverage: Equatable, Sendable {
  /// The regular-file MIME types accepted, sorted; empty when ``allFiles``.
  public var fileTypes: [String]
  /// Whether every known type of regular file is accepted.
  public var allFiles: Bool
  /// Whether folders are accepted.
  public var folders: Bool
  /// The fewest items a selection may hold, at least 1.
  public var minimumCount: Int
  /// The most items a selection may hold; `nil` for no limit.
  public var maximumCount: Int?

  public init(
    fileTypes: [String], allFiles: Bool = false, folders: Bool = false, minimumCount: Int = 1,
    maximumCount: Int? = nil
  ) {
    self.fileTypes = allFiles ? [] : fileTypes.sorted()
    self.allFiles = allFiles
    self.folders = folders
    self.minimumCount = max(1, minimumCount)
    self.maximumCount = maximumCount
  }

  /// Selections of more files than this count as "no limit" (each probe of n files costs n).
  static let countLimit = 1000

  /// What `rule` accepts in terms of files, or `nil` when it takes no file at all (a service for
  /// text or links only).
  public init?(rule: ActivationRule, catalog: MIMECatalog) {
    // Which types: first as single files; a rule wanting several files at once is tried with
    // up to four.
    var accepted: [String] = []
    for count in 1...4 {
      accepted = catalog.knownTypes.filter { catalog.accepts(rule, $0, count: count) }
      if !accepted.isEmpty { break }
    }
    guard !accepted.isEmpty else { return nil }
    let acceptedSet = Set(accepted)
    let folders = acceptedSet.contains(MIMECatalog.folderType)
    let files = accepted.filter { $0 != MIMECatalog.folderType }
    let allFiles = files.count == catalog.knownTypes.count - 1

    // How many: from one representative of each kind of content the rule takes.
    var representatives: [String] = []
    var seenKinds: Set<ActivationSelection.Kind> = []
    let preferred = ["image/png", "video/mp4", "application/pdf", "text/plain"].filter(acceptedSet.contains)
    for type in preferred + accepted
    where seenKinds.insert(catalog.kind(of: type)).inserted || type == MIMECatalog.folderType {
      if !representatives.contains(type) { representatives.append(type) }
    }
    var minimum = Int.max
    var maximum: Int? = 0
    for type in representatives {
      let range = Self.countRange(of: rule, type: type, catalog: catalog)
      minimum = min(minimum, range.minimum)
      maximum = range.maximum.flatMap { limit in maximum.map { max($0, limit) } }
    }
    self.init(
      fileTypes: files, allFiles: allFiles, folders: folders, minimumCount: minimum, maximumCount: maximum)
  }

  /// The smallest and largest number of files of `type` the rule accepts, assuming it accepts
  /// every number in between, as count limits do: the limit is found by doubling, then halving.
  private static func countRange(
    of rule: ActivationRule, type: String, catalog: MIMECatalog
  ) -> (minimum: Int, maximum: Int?) {
    let minimum = (1...4).first { catalog.accepts(rule, type, count: $0) } ?? 1
    // Accepted at `low`; refused at `high` once one is found.
    var low = minimum
    var high: Int?
    var next = minimum + 1
    while high == nil {
      if catalog.accepts(rule, type, count: next) {
        low = next
        guard next < countLimit else { return (minimum, nil) }
        next = min(next * 2, countLimit)
      } else {
        high = next
      }
    }
    while let refused = high, refused - low > 1 {
      let middle = (low + refused) / 2
      if catalog.accepts(rule, type, count: middle) { low = middle } else { high = middle }
    }
    return (minimum, low)
  }
}
