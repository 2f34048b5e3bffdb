import Glibc
import ShareDBus
import SharePOSIX

/// The bench's own libdbus client: calls are built before the clock starts, so a round trip
/// times only sending, routing, the service's work and the reply.
struct Client {
  static let service = "org.xdgshare.Share"
  static let path = "/org/xdgshare/Share"
  static let interface = "org.xdgshare.Share1"

  let connection: BusConnection

  init(address: String) throws {
    connection = try BusConnection.connect(address: address)
  }

  // MARK: Messages

  static func bus(_ member: String, _ arguments: [DBusValue] = []) -> DBusMessage {
    let message = DBusMessage.methodCall(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
      member: member)
    message.append(arguments)
    return message
  }

  /// `org.freedesktop.DBus.Peer.Ping` to the service; libdbus answers it inside the service's
  /// connection, so it is the floor of any call routed to the service. `payload` makes it carry
  /// the same bytes as another call (libdbus ignores a Ping's arguments).
  static func ping(payload: [DBusValue] = []) -> DBusMessage {
    let message = DBusMessage.methodCall(
      destination: service, path: path, interface: "org.freedesktop.DBus.Peer", member: "Ping")
    message.append(payload)
    message.setAutoStart(false)
    return message
  }

  static func call(_ member: String, _ arguments: [DBusValue] = []) -> DBusMessage {
    let message = DBusMessage.methodCall(
      destination: service, path: path, interface: interface, member: member)
    message.append(arguments)
    message.setAutoStart(false)
    return message
  }

  /// The arguments of `QueryItems` for files at `paths`, asking for `fields` when given.
  static func queryArguments(paths: [String], fields: [String]? = nil) -> [DBusValue] {
    [
      .array(elementSignature: "a{sv}", paths.map { .vardict([("path", .bytes(Array($0.utf8)))]) }),
      .vardict(fields.map { [("fields", .array(elementSignature: "s", $0.map(DBusValue.string)))] } ?? []),
    ]
  }

  static func query(paths: [String], fields: [String]? = nil) -> DBusMessage {
    call("QueryItems", queryArguments(paths: paths, fields: fields))
  }

  // MARK: Calls

  /// Sends `message` and returns the round trip in seconds; an error reply is thrown.
  func roundTrip(_ message: DBusMessage) throws -> Double {
    let start = MonotonicClock.now
    let reply = try connection.call(message, timeout: 30)
    let end = MonotonicClock.now
    withExtendedLifetime(reply) {}
    return end - start
  }

  /// The service identifiers of a `ListServices`/`QueryItems` reply.
  static func serviceIDs(_ reply: DBusMessage) -> [String] {
    guard case .array(_, let services)? = reply.arguments().first else { return [] }
    return services.compactMap { service in
      service.vardictEntries?.first { $0.key == "id" }.flatMap { $0.value.stringValue }
    }
  }

  func listServices() throws -> [String] {
    Self.serviceIDs(try connection.call(Self.call("ListServices"), timeout: 30))
  }

  func queryIDs(paths: [String]) throws -> [String] {
    Self.serviceIDs(try connection.call(Self.query(paths: paths), timeout: 30))
  }

  func nameHasOwner(_ name: String) throws -> Bool {
    try connection.call(Self.bus("NameHasOwner", [.string(name)])).arguments().first == .boolean(true)
  }

  /// Waits for a signal; `nil` after `timeout` seconds. Returns the time it was read.
  func waitForSignal(timeout: Double, where matches: (DBusMessage) -> Bool) -> (DBusMessage, Double)? {
    guard
      let message = connection.waitForMessage(timeout: timeout, where: { $0.kind == .signal && matches($0) })
    else { return nil }
    return (message, MonotonicClock.now)
  }

  /// Throws away whatever arrived so far.
  func drain() {
    connection.ingest()
    while connection.popMessage() != nil {}
  }
}

/// Seconds per operation, sorted.
struct Samples {
  private(set) var values: [Double]

  init(_ values: [Double]) {
    self.values = values.sorted()
  }

  var count: Int { values.count }
  var median: Double { quantile(0.5) }
  var p90: Double { quantile(0.9) }
  var minimum: Double { values.first ?? .nan }

  /// Linear interpolation between closest ranks.
  func quantile(_ q: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let position = q * Double(values.count - 1)
    let lower = Int(position.rounded(.down))
    let upper = min(values.count - 1, lower + 1)
    return values[lower] + (values[upper] - values[lower]) * (position - Double(lower))
  }
}

/// The marshalled size of message bodies (the D-Bus wire format's alignment rules), for reports.
enum WireSize {
  static func body(_ values: [DBusValue]) -> Int {
    values.reduce(0) { add($1, at: $0) }
  }

  private static func align(_ offset: Int, _ boundary: Int) -> Int {
    (offset + boundary - 1) / boundary * boundary
  }

  private static func alignment(_ value: DBusValue) -> Int {
    switch value {
    case .byte, .signature, .variant: 1
    case .int16, .uint16: 2
    case .boolean, .int32, .uint32, .string, .objectPath, .array, .bytes, .dictionary: 4
    case .int64, .uint64, .double, .structure: 8
    }
  }

  /// The offset after `value` marshalled at `offset`.
  private static func add(_ value: DBusValue, at offset: Int) -> Int {
    let start = align(offset, alignment(value))
    switch value {
    case .byte: return start + 1
    case .int16, .uint16: return start + 2
    case .boolean, .int32, .uint32: return start + 4
    case .int64, .uint64, .double: return start + 8
    case .string(let text), .objectPath(let text): return start + 4 + text.utf8.count + 1
    case .signature(let text): return start + 1 + text.utf8.count + 1
    case .bytes(let bytes): return start + 4 + bytes.count
    case .array(let element, let values):
      let first = align(
        start + 4,
        element.first == "(" || element.first == "{" || "xtd".contains(element.first ?? "s") ? 8 : 1)
      return values.reduce(first) { add($1, at: $0) }
    case .dictionary(_, _, let entries):
      return entries.reduce(align(start + 4, 8)) { offset, entry in
        add(entry.value, at: add(entry.key, at: align(offset, 8)))
      }
    case .structure(let fields): return fields.reduce(start) { add($1, at: $0) }
    case .variant(let inner): return add(inner, at: start + 1 + inner.signature.utf8.count + 1)
    }
  }
}
