import Foundation
import ShareCore
import ShareDBus
import ShareDesktop
import ShareGLib
import ShareHost
import SharePOSIX
import ShareProtocol
import Synchronization

/// `xdg-share daemon`: owns `org.xdgshare.Share` on the session bus, answers queries from the
/// installed bundles (reloaded when they change), and runs shares as request objects.
///
/// One thread, the one that calls ``run()``, owns the bus connection and all state; plugin
/// processes run on threads of their own and hand their events back through ``Outbox``.
public final class ShareDaemon {
  public static let busName = "org.xdgshare.Share"
  public static let objectPath = "/org/xdgshare/Share"
  public static let interface = "org.xdgshare.Share1"
  public static let requestInterface = "org.xdgshare.Request1"
  static let requestPrefix = objectPath + "/request"
  /// `Version` of the interface.
  static let version: UInt32 = 1

  public struct Configuration: Sendable {
    public var environment: [String: String]
    /// Seconds without calls or requests in flight before the service exits; 0 never.
    public var idleTimeout: Double
    /// A change is taken in once the folders have been quiet this long...
    public var quietPeriod: Double = 0.05
    /// ...or this long after the first change, whichever comes first.
    public var maximumDelay: Double = 0.25
    public var maximumRequestsPerCaller = 64
    /// Callers come and go under new names: the whole service has a limit too.
    public var maximumRequests = 256

    public init(environment: [String: String], idleTimeout: Double) {
      self.environment = environment
      self.idleTimeout = idleTimeout
    }
  }

  /// Why the service could not start.
  public enum StartError: Error, Equatable {
    case noBus(String)
    case nameTaken
    case system(String)
  }

  private let configuration: Configuration
  private let connection: BusConnection
  private let loop: EventLoop
  private let watcher: DirectoryWatcher
  private let types: TypeSystem
  private let history: HistoryStore
  private var catalog: ServiceCatalog
  /// Each service's dictionary entries, by service identifier, in the interface's order.
  private var dictionaries: [String: [(String, DBusValue)]] = [:]
  /// Replies by the services they list and the keys asked for: their marshalled bodies are
  /// copied, not rebuilt.
  private var replyCache: [ReplyKey: DBusMessage] = [:]
  /// What a `QueryItems` reply lists, by the shape of the selection (see `QueryItems`).
  private var listingByShape: [[String]: Listing] = [:]
  /// What `ListServices` lists.
  private var everyService = Listing(services: [])
  /// The bus names some service needs: whose owner changing may change what is offered.
  private var neededBusNames: Set<String> = []
  private var requests: [String: ActiveRequest] = [:]
  private let outbox = Outbox()
  private var lastActivity = Clock.now
  private var changeFirstSeen: Double?
  private var changeLastSeen: Double?
  private var tokenCounter = 0
  private var stopping = false
  /// Work that must wait until the reply being built is queued.
  private var afterReply: (() -> Void)?

  /// Connects, owns the name and loads the services.
  public init(configuration: Configuration) throws(StartError) {
    self.configuration = configuration
    do {
      connection = try BusConnection.session()
    } catch {
      throw .noBus(error.message)
    }
    do {
      loop = try EventLoop()
      watcher = try DirectoryWatcher()
    } catch {
      throw .system(error.description)
    }
    types = SharedMIMEDatabase.typeSystem()
    let environment = configuration.environment
    catalog = ServiceCatalog(environment: environment, types: types) {
      DesktopServiceEnvironment(environment: environment, services: $0)
    }
    history = HistoryStore(stateHome: catalog.paths.stateHome)
    rebuildDictionaries()
    connection.setMessageHandler { [unowned self] message in self.handle(message) }
    guard (try? connection.requestName(Self.busName)) == .primaryOwner else { throw .nameTaken }
    try? connection.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged'")
    watchFolders()
  }

  /// Serves until idle (or the bus goes away); returns the exit status.
  public func run() -> Int32 {
    guard let socket = connection.pollDescriptor else { return 1 }
    ProcessSignals.ignoreBrokenPipes()
    loop.watch(descriptor: socket) { [unowned self] in
      if !connection.ingest() { stopping = true }
      connection.dispatchPending()
    }
    loop.watch(descriptor: watcher.descriptorNumber) { [unowned self] in
      if !watcher.changedFolders().isEmpty { noteChange() }
    }
    loop.onWake { [unowned self] in drainOutbox() }
    connection.dispatchPending()
    loop.run(
      nextTimeout: { [unowned self] in nextDeadline().map { $0 - Clock.now } },
      onTimeout: { [unowned self] in handleDeadlines() },
      shouldStop: { [unowned self] in
        connection.flush()
        return stopping
      })
    // Answer whatever arrived before the name went (a Share is refused now), then end the
    // shares in flight, so that each caller still hears its Response and no plugin is left behind.
    connection.releaseName(Self.busName)
    connection.ingest()
    connection.dispatchPending()
    for request in requests.values { request.session.cancel() }
    let deadline = Clock.now + PluginRunner.terminationGrace + 3
    while !requests.isEmpty, Clock.now < deadline {
      Thread.sleep(forTimeInterval: 0.01)
      drainOutbox()
    }
    connection.flush()
    return 0
  }

  // MARK: Time

  private func nextDeadline() -> Double? {
    var deadlines: [Double] = []
    if let first = changeFirstSeen, let last = changeLastSeen {
      deadlines.append(min(last + configuration.quietPeriod, first + configuration.maximumDelay))
    }
    if configuration.idleTimeout > 0 && requests.isEmpty {
      deadlines.append(lastActivity + configuration.idleTimeout)
    }
    return deadlines.min()
  }

  private func handleDeadlines() {
    let now = Clock.now
    if let first = changeFirstSeen, let last = changeLastSeen,
      now >= min(last + configuration.quietPeriod, first + configuration.maximumDelay)
    {
      changeFirstSeen = nil
      changeLastSeen = nil
      reload()
    }
    if configuration.idleTimeout > 0, requests.isEmpty, now >= lastActivity + configuration.idleTimeout {
      // Give the name back first: a call from now on starts a new instance by activation.
      connection.releaseName(Self.busName)
      stopping = true
    }
  }

  private func noteChange() {
    let now = Clock.now
    if changeFirstSeen == nil { changeFirstSeen = now }
    changeLastSeen = now
  }

  // MARK: Services

  private func reload() {
    let environment = configuration.environment
    let fresh = ServiceCatalog(environment: environment, types: types) {
      DesktopServiceEnvironment(environment: environment, services: $0)
    }
    // A folder watched only from now on (a bundle being copied in) may have changed between the
    // scan and the watch: look once more after the quiet period.
    if watchFolders(for: fresh) { noteChange() }
    guard fresh.offered != catalog.offered || fresh.registry.services != catalog.registry.services else {
      catalog = fresh
      return
    }
    catalog = fresh
    rebuildDictionaries()
    connection.send(
      DBusMessage.signal(path: Self.objectPath, interface: Self.interface, member: "ServicesChanged"))
    // File-manager entries follow the services, when the user registered them.
    FileManagerIntegration.sync(
      services: fresh.offered,
      catalog: MIMECatalog.load(types: types, mimeDirectories: SharedMIMEDatabase.directories()),
      paths: fresh.paths)
  }

  private func rebuildDictionaries() {
    replyCache = [:]
    listingByShape = [:]
    everyService = Listing(services: catalog.offered)
    neededBusNames = Set(catalog.registry.services.flatMap(\.requirements.busNames))
    dictionaries = Dictionary(
      uniqueKeysWithValues: catalog.registry.services.map { service in
        var entries: [(String, DBusValue)] = [
          ("id", .string(service.id)), ("name", .string(service.name)), ("icon", .string(service.icon)),
        ]
        if let description = service.description { entries.append(("description", .string(description))) }
        if let version = service.version { entries.append(("version", .string(version))) }
        return (service.id, entries)
      })
  }

  /// Watches every extensions folder, each bundle in them, and for a folder that does not exist
  /// yet its nearest existing parent, so that creating it is noticed.
  /// Returns whether a folder is watched that was not before.
  @discardableResult
  private func watchFolders(for catalog: ServiceCatalog? = nil) -> Bool {
    let catalog = catalog ?? self.catalog
    var folders: Set<String> = []
    for directory in catalog.paths.extensionDirectories {
      var existing = directory
      while !FileManager.default.fileExists(atPath: existing), existing != "/" {
        existing = (existing as NSString).deletingLastPathComponent
      }
      folders.insert(existing)
      guard existing == directory else { continue }
      for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
      where name.hasSuffix(".shareext") {
        let bundle = directory + "/" + name
        folders.insert(bundle)
        for inner in (try? FileManager.default.contentsOfDirectory(atPath: bundle)) ?? []
        where inner.hasSuffix(".lproj") {
          folders.insert(bundle + "/" + inner)
        }
      }
    }
    folders.insert(catalog.paths.configHome + "/xdg-share")
    guard folders != watcher.paths else { return false }
    let added = !folders.subtracting(watcher.paths).isEmpty
    watcher.removeAll()
    for folder in folders.sorted() { watcher.watch(folder) }
    return added
  }

  // MARK: Calls

  private func handle(_ message: DBusMessage) -> Bool {
    switch message.kind {
    case .signal:
      if message.member == "NameOwnerChanged", message.sender == "org.freedesktop.DBus",
        case .string(let name)? = message.arguments().first, neededBusNames.contains(name)
      {
        noteChange()
      }
      return false
    case .methodCall:
      break
    default:
      return false
    }
    guard let path = message.path else { return false }
    lastActivity = Clock.now
    let reply: DBusMessage?
    do {
      if path == Self.objectPath {
        reply = try handleServiceCall(message)
      } else if path.hasPrefix(Self.requestPrefix + "/") {
        reply = try handleRequestCall(message, path: path)
      } else if let child = Self.childOnTheWay(to: path), message.member == "Introspect" {
        reply = message.reply([.string(InterfaceXML.parent(child: child))])
      } else {
        return false
      }
    } catch {
      reply = message.errorReply(name: error.name, message: error.message)
    }
    guard let reply else { return false }
    if !message.expectsNoReply { connection.enqueue(reply) }
    afterReply?()
    afterReply = nil
    return true
  }

  /// `/` → `org`, `/org` → `xdgshare`, `/org/xdgshare` → `Share`.
  private static func childOnTheWay(to path: String) -> String? {
    ["/": "org", "/org": "xdgshare", "/org/xdgshare": "Share"][path]
  }

  private func handleServiceCall(_ message: DBusMessage) throws(BusError) -> DBusMessage? {
    switch (message.interface, message.member) {
    case (Self.interface?, "ListServices"), (nil, "ListServices"):
      try expect(message, "", names: "()")
      return reply(message, listing: everyService, fields: nil)
    case (Self.interface?, "QueryItems"), (nil, "QueryItems"):
      try expect(message, "aa{sv}a{sv}", names: "(aa{sv} items, a{sv} options)")
      let arguments = message.arguments()
      let items = try ItemArguments.decode(arguments[0], argument: "items")
      let fields = try Self.fields(in: arguments[1])
      let (attachments, problems) = catalog.attachments(for: items, inspector: GIOFileInspector())
      guard problems.isEmpty else { throw BusError(.unreadableFiles(problems)) }
      // What rules see of a selection (each attachment's kind and identifiers, and any text)
      // decides every answer: equal shapes get the answer already worked out.
      // One string per attachment: its kind, its identifiers and, for a text, the text itself,
      // separated by NUL, which no D-Bus string holds; long texts are not worth keeping.
      var shape: [String] = []
      var cacheable = true
      shape.reserveCapacity(attachments.count)
      for attachment in attachments {
        var key: String
        switch attachment.item {
        case .file: key = "f"
        case .webURL: key = "u"
        case .text(let text):
          key = "t"
          cacheable = cacheable && text.utf8.count <= 256
        }
        for identifier in attachment.typeIdentifiers { key += "\u{0}" + identifier }
        if case .text(let text) = attachment.item { key += "\u{0}\u{0}" + text }
        shape.append(key)
      }
      if let known = listingByShape[shape] { return reply(message, listing: known, fields: fields) }
      let accepted = Listing(
        services: catalog.services(accepting: ActivationSelection(attachments: attachments, types: types)))
      if cacheable {
        if listingByShape.count >= 1024 { listingByShape.removeAll(keepingCapacity: true) }
        listingByShape[shape] = accepted
      }
      return reply(message, listing: accepted, fields: fields)
    case (Self.interface?, "Share"), (nil, "Share"):
      try expect(message, "saa{sv}a{sv}", names: "(s service_id, aa{sv} items, a{sv} options)")
      return try share(message)
    case ("org.freedesktop.DBus.Introspectable"?, "Introspect"):
      return message.reply([.string(InterfaceXML.share)])
    case ("org.freedesktop.DBus.Properties"?, let member?):
      return try properties(message, member: member)
    default:
      return nil
    }
  }

  /// The keys a service's dictionary may hold, in the interface's order.
  static let dictionaryKeys = ["id", "name", "icon", "description", "version"]

  /// The keys a caller asked for in `options["fields"]` (`as`) that a dictionary may hold, sorted,
  /// with `id` always among them; nil for all of them, asked or not. Names this version does not
  /// know are left out, so that a caller cannot make the reply cache hold one reply per name.
  static func fields(in options: DBusValue) throws(BusError) -> [String]? {
    guard let value = options.vardictEntries?.last(where: { $0.key == "fields" })?.value else { return nil }
    guard case .array("s", let names) = value else {
      throw .invalidArgument("options.fields", expected: "type 'as'", found: "'\(value.signature)'")
    }
    var fields: Set = ["id"]
    for case .string(let name) in names where dictionaryKeys.contains(name) { fields.insert(name) }
    return fields.count == dictionaryKeys.count ? nil : fields.sorted()
  }

  /// The reply listing `listing`'s services, each as its dictionary cut down to `fields`.
  private func reply(_ message: DBusMessage, listing: Listing, fields: [String]?) -> DBusMessage {
    let key = ReplyKey(services: listing.key, fields: fields)
    if let template = replyCache[key] { return message.replyCopying(template) }
    let services = listing.services.compactMap { service -> DBusValue? in
      guard let entries = dictionaries[service.id] else { return nil }
      guard let fields else { return .vardict(entries) }
      return .vardict(entries.filter { fields.contains($0.0) })
    }
    let reply = message.reply([.array(elementSignature: "a{sv}", services)])
    // Bounded: selections of many different shapes start it over rather than grow it.
    if replyCache.count >= 256 { replyCache.removeAll(keepingCapacity: true) }
    replyCache[key] = reply
    return message.replyCopying(reply)
  }

  private func properties(_ message: DBusMessage, member: String) throws(BusError) -> DBusMessage? {
    let arguments = message.arguments()
    switch member {
    case "Get":
      try expect(message, "ss", names: "(s interface_name, s property_name)")
      // An empty name means "whichever has it" (the D-Bus specification).
      guard arguments[0] == .string(Self.interface) || arguments[0] == .string("") else {
        throw .unknownInterface(arguments[0].stringValue ?? "")
      }
      guard arguments[1] == .string("Version") else { throw .unknownProperty(arguments[1].stringValue ?? "") }
      return message.reply([.variant(.uint32(Self.version))])
    case "GetAll":
      try expect(message, "s", names: "(s interface_name)")
      guard arguments[0] == .string(Self.interface) || arguments[0] == .string("") else {
        throw .unknownInterface(arguments[0].stringValue ?? "")
      }
      return message.reply([.vardict([("Version", .uint32(Self.version))])])
    case "Set":
      try expect(message, "ssv", names: "(s interface_name, s property_name, v value)")
      throw .readOnlyProperty(arguments[1].stringValue ?? "")
    default:
      return nil
    }
  }

  private func expect(_ message: DBusMessage, _ signature: String, names: String) throws(BusError) {
    guard message.signature == signature else {
      throw .invalidArgument(
        message.member ?? "call", expected: "arguments \(names)", found: "(\(message.signature))")
    }
  }

  // MARK: Requests

  private func share(_ message: DBusMessage) throws(BusError) -> DBusMessage {
    let arguments = message.arguments()
    guard case .string(let serviceID) = arguments[0] else {
      throw .invalidArgument("service_id", expected: "a string")
    }
    let items = try ItemArguments.decode(arguments[1], argument: "items")
    let options = arguments[2].vardictEntries ?? []
    let sender = message.sender ?? ""
    var token: String?
    for (key, value) in options where key == "handle_token" {
      guard case .string(let given) = value else {
        throw .invalidArgument("options.handle_token", expected: "type 's'", found: "'\(value.signature)'")
      }
      guard !given.isEmpty,
        given.utf8.allSatisfy({
          $0 == UInt8(ascii: "_") || ($0 < 128 && Character(Unicode.Scalar($0)).isLetter)
            || ($0 >= 48 && $0 <= 57)
        })
      else {
        throw .invalidArgument(
          "options.handle_token", expected: "letters, digits and '_'", found: "'\(given)'")
      }
      token = given
    }
    guard !stopping else {
      throw .stopping
    }
    guard requests.count < configuration.maximumRequests else {
      throw .tooManyRequests(inFlight: requests.count, limit: configuration.maximumRequests)
    }
    let inFlight = requests.values.filter { $0.owner == sender }.count
    guard inFlight < configuration.maximumRequestsPerCaller else {
      throw .tooManyRequestsOfCaller(inFlight: inFlight, limit: configuration.maximumRequestsPerCaller)
    }
    let path = requestPath(sender: sender, token: token)
    guard requests[path] == nil else {
      throw .tokenInUse(token ?? "")
    }
    let session: ShareSession
    do {
      session = try ShareSession(
        serviceID: serviceID, requested: items, registry: catalog.registry, types: types,
        inspector: GIOFileInspector(), history: history, environment: configuration.environment)
    } catch {
      throw BusError(error)
    }
    requests[path] = ActiveRequest(owner: sender, session: session)
    // The plugin starts once the handle is queued: its signals can only follow it.
    let outbox = self.outbox
    let waker = loop.waker
    afterReply = {
      Thread.detachNewThread {
        let outcome = session.run { fraction, text in
          outbox.post(.progress(path: path, fraction: fraction ?? -1, message: text ?? ""))
          waker.wake()
        }
        outbox.post(.finished(path: path, requestID: session.id, outcome: outcome))
        waker.wake()
      }
    }
    return message.reply([.objectPath(path)])
  }

  private func requestPath(sender: String, token: String?) -> String {
    let senderPart = sender.drop { $0 == ":" }.replacingOccurrences(of: ".", with: "_")
    if let token { return "\(Self.requestPrefix)/\(senderPart)/\(token)" }
    // A generated token skips any a caller chose itself.
    while true {
      tokenCounter += 1
      let path = "\(Self.requestPrefix)/\(senderPart)/xdgshare\(tokenCounter)"
      if requests[path] == nil { return path }
    }
  }

  private func handleRequestCall(_ message: DBusMessage, path: String) throws(BusError) -> DBusMessage? {
    switch (message.interface, message.member) {
    case (Self.requestInterface?, "Cancel"), (nil, "Cancel"):
      guard let request = requests[path] else {
        throw .noRequestInFlight(path: path)
      }
      guard request.owner == message.sender else {
        throw .notRequestOwner
      }
      request.session.cancel()
      return message.reply()
    case ("org.freedesktop.DBus.Introspectable"?, "Introspect"):
      return requests[path] == nil ? nil : message.reply([.string(InterfaceXML.request)])
    default:
      return nil
    }
  }

  private func drainOutbox() {
    for event in outbox.takeAll() {
      switch event {
      case .progress(let path, let fraction, let text):
        guard requests[path] != nil else { continue }
        let signal = DBusMessage.signal(path: path, interface: Self.requestInterface, member: "Progress")
        signal.append([.double(fraction), .string(text)])
        connection.enqueue(signal)
      case .finished(let path, let requestID, let outcome):
        let signal = DBusMessage.signal(path: path, interface: Self.requestInterface, member: "Response")
        signal.append(Self.response(outcome, requestID: requestID))
        connection.enqueue(signal)
        requests[path] = nil
        lastActivity = Clock.now
      case .stop:
        stopping = true
      }
    }
    connection.flush()
  }

  /// A handle other threads (a signal watcher) use to stop the service cleanly.
  public var stopHandle: StopHandle { StopHandle(outbox: outbox, waker: loop.waker) }

  static func response(_ outcome: ShareOutcome, requestID: String) -> [DBusValue] {
    var results: [(String, DBusValue)] = [("request-id", .string(requestID))]
    let code: UInt32
    switch outcome {
    case .completed(let items):
      code = 0
      results.append(
        ("returned-items", .array(elementSignature: "a{sv}", items.flatMap(\.attachments).map(returned))))
    case .cancelled(_, let message):
      code = 1
      results.append(("message", .string(message)))
    case .failed(let failure):
      code = 2
      results.append(("message", .string(failure.message)))
    case .timedOut(let seconds):
      code = 2
      results.append(("message", .string(ShareOutcome.timedOutMessage("it", seconds: seconds))))
    }
    return [.uint32(code), .vardict(results)]
  }

  private static func returned(_ attachment: AttachmentPayload) -> DBusValue {
    var entries: [(String, DBusValue)] = [
      ("type-identifiers", .array(elementSignature: "s", attachment.typeIdentifiers.map(DBusValue.string)))
    ]
    if let url = attachment.url {
      if let path = FilePath(fileURL: url) {
        entries.append(("path", .bytes(path.bytes)))
      } else {
        entries.append(("url", .string(url)))
      }
    }
    if let text = attachment.text { entries.append(("text", .string(text))) }
    return .vardict(entries)
  }
}

/// A share in flight, owned by the loop thread.
struct ActiveRequest {
  let owner: String
  let session: ShareSession
}

/// What plugin threads hand to the loop thread.
final class Outbox: Sendable {
  enum Event: Sendable {
    case progress(path: String, fraction: Double, message: String)
    case finished(path: String, requestID: String, outcome: ShareOutcome)
    /// SIGTERM, or the session ending: stop serving.
    case stop
  }

  private let events = Mutex<[Event]>([])

  func post(_ event: Event) {
    events.withLock { events in
      // A plugin may report progress far faster than anyone reads it: keep only the newest
      // progress of a request that waits to be sent.
      if case .progress(let path, _, _) = event,
        let pending = events.lastIndex(where: { if case .progress(path, _, _) = $0 { true } else { false } })
      {
        events[pending] = event
      } else {
        events.append(event)
      }
    }
  }

  func takeAll() -> [Event] {
    events.withLock { events in
      defer { events = [] }
      return events
    }
  }
}

/// Stops a ``ShareDaemon`` from another thread.
public struct StopHandle: Sendable {
  fileprivate let outbox: Outbox
  fileprivate let waker: Waker

  public func stop() {
    outbox.post(.stop)
    waker.wake()
  }
}

/// Services a reply lists, with the key that finds their reply: worked out once per listing.
private struct Listing {
  var services: [ShareService]
  var key: String

  init(services: [ShareService]) {
    self.services = services
    key = services.map(\.id).joined(separator: "\n")
  }
}

/// A reply's services (their identifiers, one a line) and the keys their dictionaries carry.
private struct ReplyKey: Hashable {
  var services: String
  var fields: [String]?
}
