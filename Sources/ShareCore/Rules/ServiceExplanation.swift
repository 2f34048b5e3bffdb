package import ShareProtocol

/// Why a service is or is not offered for a selection: what stands in its way (hidden by the
/// user, an invalid bundle, a program or bus name it needs), what it was offered (each item's
/// type identifiers as rules see them, and how its type was found), and its rule's trace.
/// `xdg-share why` prints it, and the D-Bus `Explain` returns it, from ``report``.
public struct ServiceExplanation: Sendable {
  /// The identifier asked about.
  public var id: String
  public var name: String?
  /// The bundle whose rule was traced, or the invalid one found.
  public var bundle: FilePath?
  /// What keeps the service from being offered whatever it is given; first in every report.
  public var obstacles: [Obstacle]
  /// The other bundles with this identifier: shadowed by the one used, or invalid.
  public var otherBundles: [OtherBundle]
  public var items: [Item]
  /// The rule, when the bundle is valid.
  public var rule: ActivationRule?
  public var trace: RuleTrace?
  /// What the service may reach beyond its items (its Entitlements.plist); none for an invalid
  /// bundle.
  public var entitlements: Entitlements = .none

  public init(
    id: String, name: String?, bundle: FilePath?, obstacles: [Obstacle], otherBundles: [OtherBundle] = [],
    items: [Item], rule: ActivationRule?, trace: RuleTrace?
  ) {
    self.id = id
    self.name = name
    self.bundle = bundle
    self.obstacles = obstacles
    self.otherBundles = otherBundles
    self.items = items
    self.rule = rule
    self.trace = trace
  }

  /// Whether the service would be offered for these items: its rule accepts them and nothing
  /// stands in its way.
  public var accepted: Bool { obstacles.isEmpty && trace?.accepted == true }

  /// What keeps a service from being offered.
  public enum Obstacle: Equatable, Sendable {
    /// The user hid it (`Hidden=` of the settings file named).
    case hidden(settingsFile: String)
    /// Its bundle does not load: its errors.
    case invalid([BundleProblem])
    /// Programs (a `|` list: any one of them) and bus names it needs that this desktop lacks.
    case missing(programs: [String], busNames: [String])
  }

  /// Another bundle with the identifier.
  public struct OtherBundle: Equatable, Sendable {
    public var location: FilePath
    /// Shadowed by the bundle used (valid, and read later), or invalid (its errors).
    public var errors: [BundleProblem]

    public init(location: FilePath, errors: [BundleProblem]) {
      self.location = location
      self.errors = errors
    }
  }

  /// One item as the rule was offered it.
  public struct Item: Equatable, Sendable {
    /// The item as people know it (a folder's name with a slash).
    public var name: String
    public var kind: Kind
    /// A file's path.
    public var path: FilePath?
    /// A link.
    public var url: String?
    /// The MIME type found (or given).
    public var mimeType: String?
    public var foundBy: TypeSource
    /// What rules see of it, the most specific first: the UTI, the MIME type, then the MIME
    /// type's parents.
    public var typeIdentifiers: [String]
    /// Everything else it conforms to (UTI ancestors, `type/*` wildcards), sorted.
    public var conformsTo: [String]

    public enum Kind: String, Equatable, Sendable {
      case file, folder, link, text
    }

    /// The item of `attachment`, its types worked out by `types`.
    public init(_ attachment: Attachment, types: TypeSystem) {
      name = ActivationRule.name(of: attachment)
      let mime = attachment.typeIdentifiers.last(where: TypeSystem.isMIMEType)
      switch attachment.item {
      case .file(let path):
        kind = attachment.file?.isDirectory == true ? .folder : .file
        self.path = path
        mimeType = attachment.file?.contentType ?? mime
        foundBy = attachment.file?.typeSource ?? .name
      case .webURL(let url):
        kind = .link
        self.url = url
        mimeType = nil
        foundBy = .kind
      case .text:
        kind = .text
        mimeType = mime
        foundBy = attachment.typeIdentifiers == TypeSystem.textIdentifiers ? .kind : .caller
      }
      var registered = attachment.typeIdentifiers
      for parent in mimeType.map(types.mime.ancestors(of:)) ?? [] where !registered.contains(parent) {
        registered.append(parent)
      }
      typeIdentifiers = registered
      let closure = attachment.typeIdentifiers.reduce(into: Set<String>()) {
        $0.formUnion(types.conformanceClosure(of: $1))
      }
      conformsTo = closure.subtracting(registered).sorted()
    }
  }
}

// MARK: The report

/// A value of a report as both JSON and D-Bus carry it: arrays say what they hold, so that an
/// empty one still has a D-Bus type (`as`, `aa{sv}`).
public indirect enum ReportValue: Equatable, Sendable {
  case string(String)
  case bool(Bool)
  case integer(Int)
  case strings([String])
  case objects([[String: ReportValue]])
  case object([String: ReportValue])

  /// The report as `--json` prints it (``JSONStyle/report``); an empty list as the command line
  /// has always printed one, with a blank line.
  package var jsonText: String {
    json.text(self == .objects([]) ? .encoder : .report)
  }

  /// The value as JSON.
  package var json: JSONValue {
    switch self {
    case .string(let string): .string(string)
    case .bool(let bool): .bool(bool)
    case .integer(let integer): .number(Double(integer))
    case .strings(let strings): .array(strings.map(JSONValue.string))
    case .objects(let objects): .array(objects.map { .object($0.mapValues(\.json)) })
    case .object(let members): .object(members.mapValues(\.json))
    }
  }
}

extension ServiceExplanation {
  /// The explanation as data: `xdg-share why --json` prints it and `Explain` returns it; the
  /// keys are documented in docs/why.md.
  public var report: [String: ReportValue] {
    var report: [String: ReportValue] = [
      "service": .string(id), "accepted": .bool(accepted),
      "obstacles": .objects(obstacles.map(Self.report)),
      "otherBundles": .objects(
        otherBundles.map { other in
          [
            "bundle": .string(other.location.text),
            "state": .string(other.errors.isEmpty ? "shadowed" : "invalid"),
            "problems": .strings(other.errors.map(Diagnostics.line)),
          ]
        }),
      "items": .objects(items.map(Self.report)),
      "entitlements": .object(entitlements.report),
    ]
    if let name { report["name"] = .string(name) }
    if let bundle { report["bundle"] = .string(bundle.text) }
    if let rule { report["rule"] = .object(Self.report(rule)) }
    if let trace {
      report["ruleAccepts"] = .bool(trace.accepted)
      report["clauses"] = .objects(trace.steps.map(Self.report))
      if let clause = trace.refusingClause { report["refusedBy"] = .string(clause) }
    }
    if let message { report["message"] = .string(message) }
    return report
  }

  /// What a person is told: the first obstacle, or the rule's refusal; nil when it is offered.
  public var message: String? {
    if let first = obstacles.first { return Diagnostics.message(for: first, service: name ?? id) }
    guard let refusal = trace?.refusal else { return nil }
    return Diagnostics.message(for: refusal, service: name ?? id)
  }

  private static func report(_ obstacle: Obstacle) -> [String: ReportValue] {
    var object: [String: ReportValue] = ["message": .string(Diagnostics.message(for: obstacle, service: nil))]
    switch obstacle {
    case .hidden(let settingsFile):
      object["reason"] = .string("hidden")
      object["settingsFile"] = .string(settingsFile)
    case .invalid(let problems):
      object["reason"] = .string("invalid")
      object["problems"] = .strings(problems.map(Diagnostics.line))
    case .missing(let programs, let busNames):
      object["reason"] = .string("missing-requirements")
      object["programs"] = .strings(programs)
      object["busNames"] = .strings(busNames)
    }
    return object
  }

  private static func report(_ item: Item) -> [String: ReportValue] {
    var object: [String: ReportValue] = [
      "name": .string(item.name), "kind": .string(item.kind.rawValue),
      "foundBy": .string(item.foundBy.rawValue),
      "typeIdentifiers": .strings(item.typeIdentifiers), "conformsTo": .strings(item.conformsTo),
    ]
    if let path = item.path { object["path"] = .string(path.text) }
    if let url = item.url { object["url"] = .string(url) }
    if let mimeType = item.mimeType { object["mimeType"] = .string(mimeType) }
    return object
  }

  private static func report(_ rule: ActivationRule) -> [String: ReportValue] {
    switch rule {
    case .dictionary: ["form": .string("dictionary"), "text": .string(rule.source)]
    case .predicate: ["form": .string("predicate"), "text": .string(rule.source)]
    }
  }

  static func report(_ step: RuleTrace.Step) -> [String: ReportValue] {
    var object: [String: ReportValue] = [
      "clause": .string(step.clause), "holds": .bool(step.holds),
      "clauses": .objects(step.shownSteps.map(report)),
    ]
    if let found = step.found, !found.isEmpty { object["found"] = .string(found) }
    return object
  }
}

extension ActivationRule {
  /// The rule as its bundle says it: a predicate's format text, or a dictionary's keys as
  /// `Key = value` (those given, in Apple's order).
  public var source: String {
    switch self {
    case .predicate(let predicate): return predicate.source
    case .dictionary(let rule):
      typealias Key = InfoPlistKey.Rule
      var keys: [String] = []
      func add(_ key: String, _ value: Int?) { if let value { keys.append("\(key) = \(value)") } }
      add(Key.maxAttachments, rule.maxAttachments)
      add(Key.minAttachments, rule.minAttachments)
      add(Key.maxFiles, rule.maxFiles)
      add(Key.maxImages, rule.maxImages)
      add(Key.maxMovies, rule.maxMovies)
      if rule.supportsText { keys.append("\(Key.supportsText) = YES") }
      add(Key.maxWebURLs, rule.maxWebURLs)
      add(Key.maxWebPages, rule.maxWebPages)
      keys.append("\(Key.version) = \(rule.version)")
      if rule.usesStrictMatching { keys.append("\(Key.strictMatching) = YES") }
      return keys.joined(separator: "; ")
    }
  }
}

extension Diagnostics {
  /// What stands in a service's way: "hidden: …", with the service named first when given.
  public static func message(for obstacle: ServiceExplanation.Obstacle, service: String?) -> String {
    let subject = service.map { "\($0) is " } ?? ""
    switch obstacle {
    case .hidden(let settingsFile):
      return subject
        + "hidden: you hid it (in the share sheet's Edit mode, where Show brings it back; or remove it from Hidden= in \(settingsFile))"
    case .invalid(let problems):
      let count = problems.count
      return subject
        + "invalid: its bundle does not load (\(count) \(count == 1 ? "error" : "errors"); see xdg-share validate)"
    case .missing(let programs, let busNames):
      var needs = programs.map {
        "the program " + $0.split(separator: "|").joined(separator: " or ") + " (not on PATH)"
      }
      needs += busNames.map { "the bus name \($0) (nothing on the session bus owns or can start it)" }
      return (service.map { "\($0) " } ?? "") + "needs " + listed(needs, "and")
    }
  }
}
