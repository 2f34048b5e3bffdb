public import ShareDBus

/// A ``BusCalls`` that records every call and answers from a script instead of a bus.
///
/// Use it to test what the D-Bus service asks of other services (the document portal, the bus
/// itself) without a bus: which methods are called, in which order, with which arguments, and
/// what the code makes of each reply or error.
///
/// ```swift
/// let bus = RecordingBus()
/// bus.answer("GetConnectionUnixProcessID", with: [.uint32(4242)])
/// bus.answer("NameHasOwner", with: .failure(DBusFailure(name: "org.example.Error", message: "no")))
/// let caller = CallerDirectory().caller(":1.7", on: bus)
/// #expect(bus.calls.map(\.member) == ["GetConnectionUnixProcessID"])
/// #expect(bus.calls[0].arguments == [.string(":1.7")])
/// ```
///
/// The contract:
/// - A call is answered by the script of its member: the replies given for it in turn, the last
///   one again once they are used up. A member with no script fails with
///   `org.freedesktop.DBus.Error.ServiceUnknown`, as a call to a service that is not there does.
/// - Every call is recorded, in order and whatever its answer, with its destination, path,
///   interface, member, signature and the arguments it carries (a file descriptor, `h`, is in
///   the signature only: ``DBusMessage/arguments()`` does not decode one).
/// - Match rules asked for are recorded in ``matchRules``; a rule listed in ``refusedRules`` is
///   refused with `org.freedesktop.DBus.Error.MatchRuleInvalid`.
/// - Not thread-safe, like the connection it stands for: one thread uses it.
public final class RecordingBus: BusCalls {
  /// One call as it was made.
  public struct Call: Equatable, Sendable {
    public var destination: String?
    public var path: String?
    public var interface: String?
    public var member: String?
    public var signature: String
    public var arguments: [DBusValue]
    public var timeout: Double

    public init(
      destination: String?, path: String?, interface: String?, member: String?, signature: String,
      arguments: [DBusValue], timeout: Double
    ) {
      self.destination = destination
      self.path = path
      self.interface = interface
      self.member = member
      self.signature = signature
      self.arguments = arguments
      self.timeout = timeout
    }
  }

  /// The calls made, in order.
  public private(set) var calls: [Call] = []
  /// The match rules asked for, in order.
  public private(set) var matchRules: [String] = []
  /// Rules the bus refuses.
  public var refusedRules: Set<String> = []
  private var script: [String: [Result<[DBusValue], DBusFailure>]] = [:]
  private var serial: UInt32 = 0

  public init() {}

  /// Answers calls of `member` with a reply carrying `values` (after the answers already given).
  public func answer(_ member: String, with values: [DBusValue]) {
    answer(member, with: .success(values))
  }

  /// Answers calls of `member` with `result`: a reply's values or an error (after the answers
  /// already given).
  public func answer(_ member: String, with result: Result<[DBusValue], DBusFailure>) {
    script[member, default: []].append(result)
  }

  /// The calls of `member`.
  public func calls(of member: String) -> [Call] {
    calls.filter { $0.member == member }
  }

  public func call(_ message: DBusMessage, timeout: Double) throws(DBusFailure) -> DBusMessage {
    calls.append(
      Call(
        destination: message.destination, path: message.path, interface: message.interface,
        member: message.member, signature: message.signature, arguments: message.arguments(),
        timeout: timeout))
    let member = message.member ?? ""
    guard var answers = script[member], let next = answers.first else {
      throw DBusFailure(
        name: "org.freedesktop.DBus.Error.ServiceUnknown",
        message: "no answer scripted for \(member)")
    }
    if answers.count > 1 {
      answers.removeFirst()
      script[member] = answers
    }
    // A reply answers a call that was sent, which has a serial.
    serial += 1
    message.assignSerial(serial)
    return try message.reply(next.get())
  }

  public func addMatch(_ rule: String) throws(DBusFailure) {
    matchRules.append(rule)
    if refusedRules.contains(rule) {
      throw DBusFailure(name: "org.freedesktop.DBus.Error.MatchRuleInvalid", message: "refused: \(rule)")
    }
  }
}
