/// What the notification server says back: an action chosen, a notification closed.
extension DesktopNotifications {
  /// A signal of `org.freedesktop.Notifications` about one notification.
  public enum Event: Equatable, Sendable {
    /// `ActionInvoked`: the user chose the action `key` of notification `id`.
    case actionInvoked(id: UInt32, key: String)
    /// `NotificationClosed`: notification `id` is gone (expired, dismissed, closed).
    case closed(id: UInt32)
  }

  /// Subscribes to the server's signals; call once before ``nextEvent(timeout:)``.
  public func watchEvents() {
    try? connection.addMatch(
      "type='signal',interface='org.freedesktop.Notifications',path='/org/freedesktop/Notifications'")
  }

  /// Waits at most `timeout` seconds for the server's next signal; `nil` when none came.
  public func nextEvent(timeout: Double) -> Event? {
    let message = connection.waitForMessage(timeout: timeout) {
      $0.kind == .signal && $0.interface == "org.freedesktop.Notifications"
    }
    guard let message else { return nil }
    let arguments = message.arguments()
    switch (message.member, arguments.first, arguments.dropFirst().first) {
    case ("ActionInvoked", .uint32(let id)?, .string(let key)?): return .actionInvoked(id: id, key: key)
    case ("NotificationClosed", .uint32(let id)?, _): return .closed(id: id)
    default: return nil
    }
  }
}
