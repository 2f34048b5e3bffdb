import FoundationEssentials
import ShareCore
import ShareDBus
import ShareDesktop
import ShareGLib
public import ShareHost
import SharePOSIX

/// `xdg-share daemon`: owns `org.xdgshare.Share` on the session bus, answers queries from the
/// installed bundles (reloaded when they change), and runs shares as request objects.
///
/// One thread, the one that calls ``run()``, owns the bus connection and all state; plugin
/// processes run on threads of their own and hand their events back through the request table's
/// outbox. This file is the loop and the service's lifetime; the calls are answered by
/// ``QueryAnswers`` and ``RequestTable``, and ``BundleWatch`` says when to reload.
public final class ShareDaemon {
  public static let busName = "org.xdgshare.Share"
  public static let objectPath = "/org/xdgshare/Share"
  public static let interface = "org.xdgshare.Share1"
  public static let requestInterface = "org.xdgshare.Request1"
  /// `Version` of the interface.
  static let version: UInt32 = 4

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
    /// Bytes the reply cache may hold.
    public var replyCacheCapacity = 1 << 20
    /// Where secure configuration values of compose sheets are kept (the Secret Service).
    public var secrets: any SecretStore
    /// What starts the share sheet for `ShowPicker`: its program, unless another is handed in
    /// (a test's).
    public var sheets: (any SheetLauncher)?
    /// The bus to serve on, by its address: the session bus unless one is given (a test's
    /// private bus).
    public var busAddress: String?

    public init(
      environment: [String: String], idleTimeout: Double, secrets: any SecretStore = UnavailableSecretStore()
    ) {
      self.environment = environment
      self.idleTimeout = idleTimeout
      self.secrets = secrets
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
  private let watch: BundleWatch
  private var catalog: ServiceCatalog
  private var queries: QueryAnswers
  private let requests = RequestTable()
  private let callers = CallerDirectory()
  /// The services' programs run to publish their direct targets when their signals come.
  private let publishers: TargetPublishers
  /// The bus names some service needs: whose owner changing may change what is offered.
  private var neededBusNames: Set<String> = []
  private var lastActivity = MonotonicClock.now
  private var stopping = false
  /// Work that must wait until the reply being built is queued.
  private var afterReply: (() -> Void)?

  /// Connects, owns the name and loads the services.
  public init(configuration: Configuration) throws(StartError) {
    self.configuration = configuration
    do {
      if let address = configuration.busAddress {
        connection = try BusConnection.connect(address: address)
      } else {
        connection = try BusConnection.session()
      }
    } catch {
      throw .noBus(error.message)
    }
    do {
      loop = try EventLoop()
      watch = try BundleWatch(
        quietPeriod: configuration.quietPeriod, maximumDelay: configuration.maximumDelay)
    } catch {
      throw .system(error.description)
    }
    // The folders are watched before the services are read, so that a bundle that arrives
    // meanwhile is a change to reload for rather than one never seen; and the name is owned
    // last, so that a caller who sees it owned is answered with every service.
    watch.watchFolders(of: SearchPaths.system(environment: configuration.environment))
    catalog = ServiceCatalog.desktop(environment: configuration.environment)
    queries = QueryAnswers(catalog: catalog, cacheCapacity: configuration.replyCacheCapacity)
    neededBusNames = Set(catalog.registry.services.flatMap(\.requirements.busNames))
    publishers = TargetPublishers(
      bus: connection, environment: configuration.environment, loop: loop, logs: catalog.directTargetStore)
    connection.setMessageHandler { [unowned self] message in self.handle(message) }
    try? connection.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged'")
    guard (try? connection.requestName(Self.busName)) == .primaryOwner else { throw .nameTaken }
    publishers.update(catalog.offered)
  }

  /// Serves until idle (or the bus goes away); returns the exit status.
  public func run() -> Int32 {
    guard let socket = connection.pollDescriptor else { return 1 }
    ProcessSignals.ignoreBrokenPipes()
    loop.watch(descriptor: socket) { [unowned self] in
      if !connection.ingest() { stopping = true }
      connection.dispatchPending()
    }
    loop.watch(descriptor: watch.descriptor) { [unowned self] in watch.ingest() }
    loop.onWake { [unowned self] in
      drainOutbox()
      publishers.collectEnded()
    }
    connection.dispatchPending()
    loop.run(
      nextTimeout: { [unowned self] in nextDeadline().map { $0 - MonotonicClock.now } },
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
    requests.cancelAll()
    publishers.stopAll()
    // Their ends are events of the loop: a share's Response through the outbox, a publisher's
    // end through its thread's wake. Nothing but them is waited for now: no call is read, no
    // folder looked at.
    loop.stopWatching(descriptor: socket)
    loop.stopWatching(descriptor: watch.descriptor)
    let deadline = MonotonicClock.now + PluginRunner.terminationGrace + 3
    loop.run(
      nextTimeout: { deadline - MonotonicClock.now }, onTimeout: {},
      shouldStop: { [unowned self] in
        (requests.isEmpty && publishers.isIdle) || MonotonicClock.now >= deadline
      })
    connection.flush()
    return 0
  }

  private var limits: RequestTable.Limits {
    RequestTable.Limits(
      perCaller: configuration.maximumRequestsPerCaller, total: configuration.maximumRequests)
  }

  /// A handle other threads (a signal watcher) use to stop the service cleanly.
  public var stopHandle: StopHandle { StopHandle(outbox: requests.outbox, waker: loop.waker) }

  // MARK: Time

  private func nextDeadline() -> Double? {
    var deadlines: [Double] = []
    if let reload = watch.deadline { deadlines.append(reload) }
    if let publishing = publishers.deadline { deadlines.append(publishing) }
    if configuration.idleTimeout > 0 && requests.isEmpty {
      deadlines.append(lastActivity + configuration.idleTimeout)
    }
    return deadlines.min()
  }

  private func handleDeadlines() {
    let now = MonotonicClock.now
    if watch.takeSettledChange(now: now) { reload() }
    publishers.handleDeadlines(now: now)
    if configuration.idleTimeout > 0, requests.isEmpty, now >= lastActivity + configuration.idleTimeout {
      // Give the name back first: a call from now on starts a new instance by activation.
      connection.releaseName(Self.busName)
      stopping = true
    }
  }

  private func drainOutbox() {
    let (stop, ended) = requests.drainOutbox(into: connection)
    if stop { stopping = true }
    if ended { lastActivity = MonotonicClock.now }
  }

  // MARK: Services

  private func reload() {
    let fresh = ServiceCatalog.desktop(environment: configuration.environment)
    // A folder watched only from now on (a bundle being copied in) may have changed between the
    // scan and the watch: look once more after the quiet period.
    if watch.watchFolders(of: fresh.paths) { watch.noteChange() }
    let changed = fresh.offered != catalog.offered || fresh.registry.services != catalog.registry.services
    catalog = fresh
    // Direct targets published anew change the answers, not the services.
    if !changed {
      if queries.refreshTargets(from: fresh) {
        connection.send(
          DBusMessage.signal(path: Self.objectPath, interface: Self.interface, member: "ServicesChanged"))
      }
      return
    }
    queries.rebuild(from: fresh)
    publishers.update(fresh.offered)
    neededBusNames = Set(fresh.registry.services.flatMap(\.requirements.busNames))
    connection.send(
      DBusMessage.signal(path: Self.objectPath, interface: Self.interface, member: "ServicesChanged"))
    // File-manager entries follow the services, when the user registered them.
    FileManagerIntegration.sync(
      services: fresh.offered,
      catalog: MIMECatalog.load(types: fresh.types, mimeDirectories: SharedMIMEDatabase.directories()),
      paths: fresh.paths)
  }

  // MARK: Calls

  private func handle(_ message: DBusMessage) -> Bool {
    switch message.kind {
    case .signal:
      publishers.note(message)
      if message.member == "NameOwnerChanged", message.sender == "org.freedesktop.DBus",
        case .string(let name)? = message.arguments().first
      {
        if neededBusNames.contains(name) { watch.noteChange() }
        // A unique name is never given again: a caller gone is forgotten.
        if name.hasPrefix(":") { callers.forget(name) }
      }
      return false
    case .methodCall:
      break
    default:
      return false
    }
    guard let path = message.path else { return false }
    lastActivity = MonotonicClock.now
    let reply: DBusMessage?
    do {
      if path == Self.objectPath {
        reply = try handleServiceCall(message)
      } else if path.hasPrefix(RequestTable.pathPrefix + "/") {
        reply = try requests.handle(message, path: path)
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

  /// Who sent `message`.
  private func caller(of message: DBusMessage) -> Caller {
    callers.caller(message.sender ?? "", on: connection)
  }

  private func handleServiceCall(_ message: DBusMessage) throws(BusError) -> DBusMessage? {
    switch (message.interface, message.member) {
    case (Self.interface?, "ListServices"), (nil, "ListServices"):
      try Self.expect(message, "", names: "()")
      return queries.listServices(message)
    case (Self.interface?, "QueryItems"), (nil, "QueryItems"):
      try Self.expect(message, "aa{sv}a{sv}", names: "(aa{sv} items, a{sv} options)")
      return try queries.queryItems(message, catalog: catalog, caller: caller(of: message))
    case (Self.interface?, "Explain"), (nil, "Explain"):
      try Self.expect(message, "saa{sv}a{sv}", names: "(s service_id, aa{sv} items, a{sv} options)")
      return try Explanations.explain(
        message, catalog: catalog, caller: caller(of: message), detection: queries.detection)
    case (Self.interface?, "Share"), (nil, "Share"):
      try Self.expect(message, "saa{sv}a{sv}", names: "(s service_id, aa{sv} items, a{sv} options)")
      let (reply, start) = try requests.share(
        message, catalog: catalog, environment: configuration.environment, secrets: configuration.secrets,
        caller: caller(of: message), connection: connection,
        limits: .init(
          perCaller: configuration.maximumRequestsPerCaller, total: configuration.maximumRequests),
        stopping: stopping, waker: loop.waker)
      // The plugin starts once the handle is queued: its signals can only follow it.
      afterReply = start
      return reply
    case (Self.interface?, "ShowPicker"), (nil, "ShowPicker"):
      try Self.expect(message, "saa{sv}a{sv}", names: "(s parent_window, aa{sv} items, a{sv} options)")
      let (reply, start) = try requests.showPicker(
        message, catalog: catalog,
        sheets: configuration.sheets ?? ProcessSheetLauncher(environment: configuration.environment),
        caller: caller(of: message), connection: connection, limits: limits, stopping: stopping,
        waker: loop.waker)
      afterReply = start
      return reply
    case ("org.freedesktop.DBus.Introspectable"?, "Introspect"):
      return message.reply([.string(InterfaceXML.share)])
    case ("org.freedesktop.DBus.Properties"?, let member?):
      return try Self.properties(message, member: member)
    default:
      return nil
    }
  }
}
