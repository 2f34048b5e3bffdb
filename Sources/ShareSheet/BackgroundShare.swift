import ShareDBus
import SharePOSIX
import Synchronization

/// A share that goes on without its window: the plugin said it was posted (its sheet is gone, as
/// Apple's background upload), or the user closed the picker while it ran. Its progress shows in
/// a desktop notification with a Cancel action, and its end in a last notification that replaces
/// it. Held by the share's own handlers, not by the window, which is freed once closed.
@MainActor
final class BackgroundShare {
  /// The shares going on without a window, for ``SheetApp/terminate(signal:)``.
  static var running: [BackgroundShare] = []

  /// The share; weak, as the share holds the handlers that hold this.
  weak var run: ShareRun?
  /// Whether the plugin said it was posted.
  var isPosted = false
  /// Whether the user cancelled it while its window was open: it ends soon, nothing to follow.
  var isCancelled = false
  private var notification: BackgroundNotification?

  /// Shows the share's progress in a notification from now on, with a Cancel action.
  func start(summary: String, cancelLabel: String) {
    guard notification == nil else { return }
    notification = BackgroundNotification(summary: summary, cancelLabel: cancelLabel) { [weak self] in
      self?.cancel()
    }
    Self.running.append(self)
  }

  var isInBackground: Bool { notification != nil }

  func progress(_ fraction: Double?, _ message: String?) {
    notification?.progress(fraction, message)
  }

  func cancel() {
    run?.cancel()
  }

  /// Tells how the share ended, in place of its progress, then calls `done`.
  func finish(
    summary: String, body: String, critical: Bool, then done: @escaping @MainActor @Sendable () -> Void
  ) {
    guard let notification else {
      DesktopCalls.notify(summary: summary, body: body, critical: critical)
      done()
      return
    }
    notification.finish(summary: summary, body: body, critical: critical) { [weak self] in
      Self.running.removeAll { $0 === self }
      done()
    }
  }
}

/// One notification that follows a share (`org.freedesktop.Notifications`, over ShareDBus: GIO's
/// `GNotification` would route its actions through the application's well-known bus name, which
/// a non-unique application never owns). A thread of its own owns the connection: every call
/// blocks, and the server's `ActionInvoked` is waited for there.
final class BackgroundNotification: Sendable {
  private struct Pending {
    var update: (fraction: Double?, message: String?)?
    var end: (summary: String, body: String, critical: Bool, done: @MainActor @Sendable () -> Void)?
  }

  private let pending = Mutex(Pending())
  /// The least time between two updates of the progress, in seconds: a plugin may report
  /// thousands of times a second, a notification server redraws each.
  static let updateInterval = 0.5

  init(summary: String, cancelLabel: String, onCancel: @escaping @MainActor @Sendable () -> Void) {
    // The thread holds this until the last notification is sent.
    DetachedThread.start { self.serve(summary: summary, cancelLabel: cancelLabel, onCancel: onCancel) }
  }

  /// The latest progress; shown at most every ``updateInterval``.
  func progress(_ fraction: Double?, _ message: String?) {
    pending.withLock { pending in
      let earlier = pending.update?.message
      pending.update = (fraction, message ?? earlier)
    }
  }

  /// The last notification, replacing the progress; `done` runs on the main actor once it is sent.
  func finish(summary: String, body: String, critical: Bool, done: @escaping @MainActor @Sendable () -> Void)
  {
    pending.withLock { $0.end = (summary, body, critical, done) }
  }

  private func serve(
    summary: String, cancelLabel: String, onCancel: @escaping @MainActor @Sendable () -> Void
  ) {
    let notifications = DesktopNotifications(applicationName: "xdg-share")
    notifications?.watchEvents()
    var id: UInt32 = 0
    var fraction: Double?
    var message = ""
    var changed = true
    var lastSent = -Double.infinity
    var dismissed = false
    while true {
      let (update, end) = pending.withLock { pending in
        defer { (pending.update, pending.end) = (nil, nil) }
        return (pending.update, pending.end)
      }
      if let update {
        fraction = update.fraction
        message = update.message ?? message
        changed = true
      }
      if let end {
        notifications?.notify(
          summary: end.summary, body: end.body, icon: end.critical ? "dialog-error" : "document-send",
          replacing: id, urgency: end.critical ? .critical : .normal)
        Task { @MainActor in end.done() }
        return
      }
      if changed, !dismissed, MonotonicClock.now - lastSent >= Self.updateInterval {
        changed = false
        lastSent = MonotonicClock.now
        // Shown until replaced (timeout 0): the share is not over while it runs.
        id =
          notifications?.notify(
            summary: summary, body: message, icon: "document-send", replacing: id,
            progress: fraction.map { Int(($0 * 100).rounded()) }, urgency: .low, timeout: 0,
            actions: [("cancel", cancelLabel)]) ?? id
      }
      guard let notifications else {
        DetachedThread.sleep(seconds: 0.1)
        continue
      }
      switch notifications.nextEvent(timeout: 0.1) {
      case .actionInvoked(let invoked, "cancel") where invoked == id && id != 0:
        Task { @MainActor in onCancel() }
      case .closed(let closed) where closed == id && id != 0:
        // Dismissed: no more progress, which would bring it back; the end still shows.
        dismissed = true
      default:
        break
      }
    }
  }
}
