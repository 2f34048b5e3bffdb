import FoundationEssentials

/// `org.freedesktop.Notifications`: how a program started without a terminal tells the user
/// what happened.
public struct DesktopNotifications {
  let connection: BusConnection
  /// The application name the notification server shows.
  public let applicationName: String

  /// Connects to the session bus; `nil` when there is none.
  public init?(applicationName: String) {
    guard let connection = try? BusConnection.session() else { return nil }
    self.connection = connection
    self.applicationName = applicationName
  }

  public enum Urgency: UInt8, Sendable {
    case low = 0, normal = 1, critical = 2
  }

  /// Shows (or, with `replacing`, updates) a notification and returns its id; `nil` when no
  /// notification server answered.
  ///
  /// - Parameters:
  ///   - progress: a percentage for servers that draw a bar (the `value` hint).
  ///   - actions: buttons the server may show, each a key (reported by ``nextEvent(timeout:)``)
  ///     and a label.
  @discardableResult
  public func notify(
    summary: String, body: String, icon: String = "", replacing id: UInt32 = 0, progress: Int? = nil,
    urgency: Urgency = .normal, timeout: Int32 = -1, actions: [(key: String, label: String)] = []
  ) -> UInt32? {
    let message = DBusMessage.methodCall(
      destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
      interface: "org.freedesktop.Notifications", member: "Notify")
    var hints: [(String, DBusValue)] = [("urgency", .byte(urgency.rawValue))]
    if let progress { hints.append(("value", .int32(Int32(max(0, min(100, progress)))))) }
    message.append([
      .string(applicationName), .uint32(id), .string(icon), .string(summary),
      .string(Self.escapeMarkup(body)),
      .array(elementSignature: "s", actions.flatMap { [DBusValue.string($0.key), .string($0.label)] }),
      .vardict(hints), .int32(timeout),
    ])
    guard let reply = try? connection.call(message, timeout: 5),
      case .uint32(let newID)? = reply.arguments().first
    else { return nil }
    return newID
  }

  /// Bodies may be read as markup: `&`, `<` and `>` from a file name must show as themselves.
  static func escapeMarkup(_ text: String) -> String {
    text.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
      .replacing(">", with: "&gt;")
  }
}
