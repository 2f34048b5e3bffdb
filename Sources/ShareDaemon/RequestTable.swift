import FoundationEssentials
import ShareCore
import ShareDBus
import ShareGLib
import ShareHost
import SharePOSIX
import ShareProtocol
import Synchronization

/// The shares in flight, each a request object on the bus: `Share` starts one, `Cancel` ends it,
/// and its plugin's progress and outcome come back through the ``Outbox`` as signals.
///
/// Owned by the loop thread; plugin processes run on threads of their own.
final class RequestTable {
  static let pathPrefix = ShareDaemon.objectPath + "/request"

  /// By object path.
  var requests: [String: ActiveRequest] = [:]
  private var tokenCounter = 0
  let outbox = Outbox()

  var isEmpty: Bool { requests.isEmpty }

  /// Limits on requests in flight.
  struct Limits {
    var perCaller: Int
    var total: Int
  }

  /// Starts a share for `Share(s service_id, aa{sv} items, a{sv} options)`; returns the reply
  /// (the request's handle) and what starts the share once that reply is queued, so that its
  /// signals can only follow it. The rule is checked first, so that a refusal is this call's
  /// error; a compose sheet comes once the handle is out.
  func share(
    _ message: DBusMessage, catalog: ServiceCatalog, environment: [String: String], secrets: any SecretStore,
    caller: Caller, connection: BusConnection, limits: Limits, stopping: Bool, waker: Waker
  ) throws(BusError) -> (reply: DBusMessage, start: () -> Void) {
    let arguments = message.arguments()
    guard case .string(let serviceID) = arguments[0] else {
      throw .invalidArgument("service_id", .notAString)
    }
    let admitted = try AdmittedItems(message, argument: 1, named: "items", caller: caller)
    let sender = message.sender ?? ""
    let path = try admit(sender: sender, options: arguments[2], limits: limits, stopping: stopping)
    let targetID = try Self.target(in: arguments[2])
    guard let service = catalog.registry.service(withID: serviceID) else {
      throw .refused(.noSuchService(serviceID))
    }
    let (items, files) = try admitted.handedOn(paths: catalog.paths, bus: connection)
    let share: Share
    do {
      let accepted = try Share.prepare(
        service, requested: items, types: catalog.types, inspector: GIOFileInspector())
      let target = try targetID.map { id throws(ShareRefusal) in
        try Share.target(id, of: accepted, store: catalog.directTargetStore, types: catalog.types).payload
      }
      share = Share.desktop(
        accepted, environment: environment, secrets: secrets, caller: caller.identifier, target: target)
      try share.recordAtOnce()
    } catch {
      files?.release(on: connection)
      throw .refused(error)
    }
    requests[path] = ActiveRequest(owner: sender, share: share, files: files)
    let outbox = self.outbox
    let start = {
      DetachedThread.start {
        let end = share.run { event in
          guard case .progress(let fraction, let text) = event else { return }
          outbox.post(.progress(path: path, fraction: fraction ?? -1, message: text ?? ""))
          waker.wake()
        }
        outbox.post(
          .finished(path: path, response: ResponseResults(end, service: serviceID).arguments(for: .share)))
        waker.wake()
      }
    }
    return (message.reply([.objectPath(path)]), start)
  }

  /// The path of a new request of `sender`, once the limits allow one.
  func admit(
    sender: String, options: DBusValue, limits: Limits, stopping: Bool
  ) throws(BusError) -> String {
    let token = try Self.handleToken(in: options)
    guard !stopping else { throw .stopping }
    guard requests.count < limits.total else {
      throw .tooManyRequests(inFlight: requests.count, limit: limits.total)
    }
    let inFlight = requests.values.filter { $0.owner == sender }.count
    guard inFlight < limits.perCaller else {
      throw .tooManyRequestsOfCaller(inFlight: inFlight, limit: limits.perCaller)
    }
    let path = requestPath(sender: sender, token: token)
    guard requests[path] == nil else {
      throw .tokenInUse(token ?? "")
    }
    return path
  }

  /// `options["target"]`: one of the service's direct targets, by its identifier.
  static func target(in options: DBusValue) throws(BusError) -> String? {
    guard let value = options.vardictEntries?.last(where: { $0.key == "target" })?.value else { return nil }
    guard case .string(let id) = value, !id.isEmpty else {
      throw .invalidArgument("options.target", .type(expected: "s", found: value.signature))
    }
    return id
  }

  /// `options["handle_token"]`, checked as xdg-desktop-portal checks it.
  private static func handleToken(in options: DBusValue) throws(BusError) -> String? {
    var token: String?
    for (key, value) in options.vardictEntries ?? [] where key == "handle_token" {
      guard case .string(let given) = value else {
        throw .invalidArgument("options.handle_token", .type(expected: "s", found: value.signature))
      }
      guard !given.isEmpty,
        given.utf8.allSatisfy({
          $0 == UInt8(ascii: "_") || ($0 < 128 && Character(Unicode.Scalar($0)).isLetter)
            || ($0 >= 48 && $0 <= 57)
        })
      else {
        throw .invalidArgument("options.handle_token", .notAHandleToken(given))
      }
      token = given
    }
    return token
  }

  private func requestPath(sender: String, token: String?) -> String {
    let senderPart = sender.drop { $0 == ":" }.replacing(".", with: "_")
    if let token { return "\(Self.pathPrefix)/\(senderPart)/\(token)" }
    // A generated token skips any a caller chose itself.
    while true {
      tokenCounter += 1
      let path = "\(Self.pathPrefix)/\(senderPart)/xdgshare\(tokenCounter)"
      if requests[path] == nil { return path }
    }
  }

  /// A call on a request object: `Cancel` by its owner, or `Introspect`.
  func handle(_ message: DBusMessage, path: String) throws(BusError) -> DBusMessage? {
    switch (message.interface, message.member) {
    case (ShareDaemon.requestInterface?, "Cancel"), (nil, "Cancel"):
      guard let request = requests[path] else {
        throw .noRequestInFlight(path: path)
      }
      guard request.owner == message.sender else {
        throw .notRequestOwner
      }
      request.cancel()
      return message.reply()
    case ("org.freedesktop.DBus.Introspectable"?, "Introspect"):
      return requests[path] == nil ? nil : message.reply([.string(InterfaceXML.request)])
    default:
      return nil
    }
  }

  /// Cancels every share in flight (the service is stopping).
  func cancelAll() {
    for request in requests.values { request.cancel() }
  }

  /// Sends what the plugins reported as signals; returns whether a stop was asked for and
  /// whether a request ended.
  func drainOutbox(into connection: BusConnection) -> (stop: Bool, ended: Bool) {
    var stop = false
    var ended = false
    for event in outbox.takeAll() {
      switch event {
      case .progress(let path, let fraction, let text):
        guard requests[path] != nil else { continue }
        let signal = DBusMessage.signal(
          path: path, interface: ShareDaemon.requestInterface, member: "Progress")
        signal.append([.double(fraction), .string(text)])
        connection.enqueue(signal)
      case .finished(let path, let response):
        let signal = DBusMessage.signal(
          path: path, interface: ShareDaemon.requestInterface, member: "Response")
        signal.append(response)
        connection.enqueue(signal)
        requests[path]?.files?.release(on: connection)
        requests[path] = nil
        ended = true
      case .stop:
        stop = true
      }
    }
    connection.flush()
    return (stop, ended)
  }
}

/// A request in flight, owned by the loop thread: a share, or the share sheet's process
/// (`ShowPicker`), which runs its own.
struct ActiveRequest {
  let owner: String
  let cancel: @Sendable () -> Void
  /// The files the caller handed over as descriptors, released once the request has ended.
  let files: HandedOverFiles?

  init(owner: String, share: Share, files: HandedOverFiles? = nil) {
    self.owner = owner
    cancel = { share.cancel() }
    self.files = files
  }

  /// Closing the sheet cancels what it runs.
  init(owner: String, picker: any RunningSheet, files: HandedOverFiles? = nil) {
    self.owner = owner
    cancel = { picker.cancel() }
    self.files = files
  }
}

/// What plugin threads hand to the loop thread.
final class Outbox: Sendable {
  enum Event: Sendable {
    case progress(path: String, fraction: Double, message: String)
    /// The request ended: its `Response` arguments.
    case finished(path: String, response: [DBusValue])
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
  let outbox: Outbox
  let waker: Waker

  public func stop() {
    outbox.post(.stop)
    waker.wake()
  }
}
