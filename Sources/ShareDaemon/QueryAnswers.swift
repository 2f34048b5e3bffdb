import ShareCore
import ShareDBus
import ShareHost

/// `ListServices` and `QueryItems`: each service's dictionary built once per reload, and replies
/// kept in one cache, bounded by bytes, by what decides them.
struct QueryAnswers {
  /// Each service's dictionary entries, by service identifier, in ``PublicField`` order.
  private var dictionaries: [String: [(String, DBusValue)]] = [:]
  /// What `ListServices` lists.
  private var everyService: [ShareService] = []
  /// The direct targets the services published, by service; none when the user turned
  /// suggestions off. Read again with the services (the daemon watches their folder).
  private var targets: [String: [DirectTarget]] = [:]
  private var cache: ReplyCache<String>
  /// The same replies by what they list, for selections whose shape is new; a quarter of the
  /// cache's bytes.
  private var answers: ReplyCache<AnswerKey>
  /// GIO's guesses for files, kept across reloads (they do not depend on the services); a
  /// quarter of the reply cache's bytes.
  let detection: DetectionMemo

  /// The keys a service's dictionary may hold, in the interface's order.
  static let dictionaryKeys = PublicField.allCases.map(\.rawValue)

  init(catalog: ServiceCatalog, cacheCapacity: Int) {
    cache = ReplyCache(capacity: cacheCapacity)
    answers = ReplyCache(capacity: cacheCapacity / 4)
    detection = DetectionMemo(capacity: cacheCapacity / 4)
    rebuild(from: catalog)
  }

  /// Starts over from `catalog`'s services.
  mutating func rebuild(from catalog: ServiceCatalog) {
    rebuild(from: catalog, targets: Self.targets(of: catalog))
  }

  /// Takes the direct targets `catalog`'s services publish now; whether they changed the answers.
  mutating func refreshTargets(from catalog: ServiceCatalog) -> Bool {
    let fresh = Self.targets(of: catalog)
    guard fresh != targets else { return false }
    rebuild(from: catalog, targets: fresh)
    return true
  }

  /// The direct targets of `catalog`'s services; none when the user turned suggestions off.
  private static func targets(of catalog: ServiceCatalog) -> [String: [DirectTarget]] {
    catalog.settings.suggestions ? catalog.directTargetStore.targets(of: catalog.offered) : [:]
  }

  private mutating func rebuild(from catalog: ServiceCatalog, targets: [String: [DirectTarget]]) {
    cache.removeAll()
    answers.removeAll()
    everyService = catalog.offered
    self.targets = targets
    dictionaries = Dictionary(
      uniqueKeysWithValues: catalog.registry.services.map { service in
        (service.id, service.publicFields.map { ($0.field.rawValue, DBusValue.string($0.value)) })
      })
  }

  mutating func listServices(_ message: DBusMessage) -> DBusMessage {
    // No selection is the shape "\u{1}", which none has.
    let key = Self.cacheKey(shape: "\u{1}", fields: nil)
    if let template = cache[key] { return message.replyCopying(template) }
    return reply(message, listing: everyService, keys: [key], fields: nil)
  }

  mutating func queryItems(_ message: DBusMessage, catalog: ServiceCatalog, caller: Caller) throws(BusError)
    -> DBusMessage
  {
    // Nothing is shared: a file handed over is looked at through its descriptor.
    let items = try AdmittedItems(message, argument: 0, named: "items", caller: caller).lookedAt()
    let fields = try Self.fields(in: message.cursor(atArgument: 1).value() ?? .vardict([]))
    let selection: PreparedSelection
    do {
      selection = try catalog.inspect(items, inspector: QueryInspector(items: items, memo: detection))
    } catch {
      throw .refused(.unreadableFiles(error.problems))
    }
    let (shape, cacheable) = Self.shape(of: selection.attachments)
    let key = Self.cacheKey(shape: shape, fields: fields)
    if let template = cache[key] { return message.replyCopying(template) }
    let activation = ActivationSelection(attachments: selection.attachments, types: catalog.types)
    let positions = catalog.acceptingPositions(activation)
    // An empty answer costs nothing to build again; keeping one per type never seen (a new one
    // on each call, as file managers' odd files come) would only churn the cache.
    guard !positions.isEmpty else { return reply(message, listing: [], keys: [], fields: fields) }
    // Each service's targets that take the items: what they take is told by the selection's
    // types alone, so the answer is kept under its shape as the rest is.
    var accepting: [String: [DirectTarget]] = [:]
    if !targets.isEmpty, fields?.contains("targets") ?? true {
      for position in positions {
        let id = catalog.offered[position].id
        guard let published = targets[id] else { continue }
        let taking = published.filter { $0.accepts(activation) }
        if !taking.isEmpty { accepting[id] = taking }
      }
    }
    // Selections of many shapes get one answer (every image type never seen, by `image/*`), and
    // building it is most of the call: a reply is kept under what it lists too. A shape met this
    // way is not kept, so that a new type on each call does not push out the answers in use.
    let answer = AnswerKey(
      positions: positions, fields: fields,
      targets: accepting.isEmpty ? [] : positions.map { accepting[catalog.offered[$0].id]?.map(\.id) ?? [] })
    if let template = answers[answer] { return message.replyCopying(template) }
    return reply(
      message, listing: positions.map { catalog.offered[$0] }, keys: cacheable ? [key] : [], answer: answer,
      fields: fields, targets: accepting)
  }

  /// What rules see of a selection (each attachment's kind and identifiers, and any text), which
  /// decides every answer: equal shapes get the answer already worked out. Per run of equal
  /// attachments: the kind; each identifier after a NUL (which no D-Bus string holds) and its
  /// length; for a text, two NULs, its length and the text; for a run longer than one, U+0003
  /// and its length; then U+0001. The lengths are there so that no identifier or text (a caller's
  /// MIME type may hold any character but NUL) can pass for more attachments. Whether the answer
  /// is worth keeping: long texts are not.
  static func shape(of attachments: [Attachment]) -> (shape: String, cacheable: Bool) {
    var shape = ""
    var cacheable = true
    var index = attachments.startIndex
    while index < attachments.endIndex {
      let attachment = attachments[index]
      var end = index + 1
      // Files and links of the same identifiers are alike to rules (texts differ by their text).
      if case .text = attachment.item {
      } else {
        while end < attachments.endIndex, Self.sameShape(attachments[end], attachment) { end += 1 }
      }
      switch attachment.item {
      case .file: shape += "f"
      case .webURL: shape += "u"
      case .text(let text):
        shape += "t"
        cacheable = cacheable && text.utf8.count <= 256
      }
      for identifier in attachment.typeIdentifiers { shape += "\u{0}\(identifier.utf8.count):" + identifier }
      if case .text(let text) = attachment.item { shape += "\u{0}\u{0}\(text.utf8.count):" + text }
      if end - index > 1 { shape += "\u{3}\(end - index)" }
      shape += "\u{1}"
      index = end
    }
    return (shape, cacheable)
  }

  /// Whether two attachments, neither a text, show rules the same thing.
  private static func sameShape(_ other: Attachment, _ attachment: Attachment) -> Bool {
    switch (other.item, attachment.item) {
    case (.file, .file), (.webURL, .webURL): return other.typeIdentifiers == attachment.typeIdentifiers
    default: return false
    }
  }

  /// The keys a caller asked for in `options["fields"]` (`as`) that a dictionary may hold, sorted,
  /// with `id` always among them; nil for all of them, asked or not. Names this version does not
  /// know are left out, so that a caller cannot make the reply cache hold one reply per name.
  static func fields(in options: DBusValue) throws(BusError) -> [String]? {
    guard let value = options.vardictEntries?.last(where: { $0.key == "fields" })?.value else { return nil }
    guard case .array("s", let names) = value else {
      throw .invalidArgument("options.fields", .type(expected: "as", found: value.signature))
    }
    var fields: Set = ["id"]
    for case .string(let name) in names where dictionaryKeys.contains(name) || name == "targets" {
      fields.insert(name)
    }
    return fields.count == dictionaryKeys.count + 1 ? nil : fields.sorted()
  }

  /// Direct targets as `aa{sv}`: `id`, `title`, and `subtitle` and `icon` when published.
  static func value(_ targets: [DirectTarget]) -> DBusValue {
    .array(
      elementSignature: "a{sv}",
      targets.map { target in
        var entries: [(String, DBusValue)] = [("id", .string(target.id)), ("title", .string(target.title))]
        if let subtitle = target.subtitle { entries.append(("subtitle", .string(subtitle))) }
        if let icon = target.icon { entries.append(("icon", .string(icon))) }
        return .vardict(entries)
      })
  }

  private static func cacheKey(shape: String, fields: [String]?) -> String {
    shape + "\u{2}" + (fields?.joined(separator: ",") ?? "*")
  }

  /// The reply listing `services`, each as its dictionary cut down to `fields`, kept under each
  /// of `keys` and under `answer`.
  private mutating func reply(
    _ message: DBusMessage, listing services: [ShareService], keys: [String], answer: AnswerKey? = nil,
    fields: [String]?, targets: [String: [DirectTarget]] = [:]
  ) -> DBusMessage {
    let dictionaries = services.compactMap { service -> DBusValue? in
      guard var entries = self.dictionaries[service.id] else { return nil }
      if let fields { entries = entries.filter { fields.contains($0.0) } }
      if let published = targets[service.id] { entries.append(("targets", Self.value(published))) }
      return .vardict(entries)
    }
    let reply = message.reply([.array(elementSignature: "a{sv}", dictionaries)])
    guard !keys.isEmpty || answer != nil else { return reply }
    // A reply sent is sealed with its serial: what is kept is the one built, and a copy goes out.
    for key in keys { cache.insert(reply, for: key, keyBytes: key.utf8.count) }
    if let answer { answers.insert(reply, for: answer, keyBytes: answer.byteCount) }
    return message.replyCopying(reply)
  }
}

/// What a `QueryItems` reply lists: the offered services by position (the answers are dropped
/// at each reload), the identifiers of each one's targets that take the items (none at all when
/// no target does), and the fields asked for.
struct AnswerKey: Hashable {
  var positions: [Int]
  var fields: [String]?
  var targets: [[String]]

  /// Roughly what the key holds, for the cache's bound.
  var byteCount: Int {
    positions.count * 8 + (fields?.reduce(0) { $0 + $1.utf8.count } ?? 0)
      + targets.reduce(0) { $0 + $1.reduce(8) { $0 + $1.utf8.count } }
  }
}
