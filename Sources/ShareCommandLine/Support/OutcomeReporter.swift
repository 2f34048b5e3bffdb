import FoundationEssentials
import ShareCore
import ShareDBus
import ShareHost
import SharePOSIX
import ShareProtocol

/// Tells the user how a share goes, where the user is: on a terminal, messages and a progress bar
/// on standard error; started from a file manager (no terminal), desktop notifications. What a
/// service returns always goes to standard output.
final class OutcomeReporter {
  private let output: Output
  private let json: Bool
  private let bar: ProgressBar?
  private let notifications: DesktopNotifications?
  private var serviceName = ""
  private var notificationID: UInt32 = 0
  private var startedAt = MonotonicClock.now
  private var lastNotified = 0.0

  init(output: Output, json: Bool, terminal: Bool, notifications: DesktopNotifications?) {
    self.output = output
    self.json = json
    self.bar = terminal ? ProgressBar(output: output) : nil
    self.notifications = notifications
  }

  static func make(context: ToolContext, json: Bool) -> OutcomeReporter {
    let terminal = Terminal.isTerminal(2)
    return OutcomeReporter(
      output: context.output, json: json, terminal: terminal,
      notifications: terminal ? nil : DesktopNotifications(applicationName: "xdg-share"))
  }

  func started(_ session: ShareSession) {
    serviceName = session.service.name
    startedAt = MonotonicClock.now
  }

  func progress(_ fraction: Double?, _ message: String?) {
    bar?.draw(fraction: fraction, message: message)
    // Long work shows in a notification that updates itself, twice a second at most.
    guard let notifications, MonotonicClock.now - startedAt > 1, MonotonicClock.now - lastNotified > 0.5
    else { return }
    lastNotified = MonotonicClock.now
    let id = notifications.notify(
      summary: Wording.sharingWith(serviceName), body: message ?? "", icon: "document-send",
      replacing: notificationID, progress: fraction.map { Int($0 * 100) }, urgency: .low)
    notificationID = id ?? notificationID
  }

  func finished(_ session: ShareSession, _ outcome: ShareOutcome) -> ExitCode {
    bar?.clear()
    let code = Wording.exitCode(for: outcome)
    if json {
      output.line(
        JSON.encode(
          OutcomeSummary(
            requestId: session.id, serviceId: session.service.id, serviceName: session.service.name,
            outcome: outcome)))
    } else if case .completed(let items) = outcome {
      for line in Wording.lines(for: items) { output.line(line) }
    }
    switch outcome {
    case .completed: break
    case .cancelled: output.error(Wording.describe(outcome, service: serviceName))
    case .failed, .timedOut:
      output.error(Wording.describe(outcome, service: serviceName))
      // What the program said on its way down is in its log: point there when it said anything.
      let size = (try? FileSystem.status(Array(session.logPath.utf8)))?.size ?? 0
      if size > 0 { output.error(Wording.seeLog(session.logPath)) }
    }
    notify(Wording.notification(for: outcome, service: serviceName), critical: code != .success)
    return code
  }

  /// - Parameter knownServices: the identifiers a mistyped one may have meant; asked only then.
  func refused(_ refusal: ShareRefusal, knownServices: () -> [String]) -> ExitCode {
    let (message, code) = Wording.describe(refusal, knownServices: knownServices)
    if json { output.line(JSON.encode(["status": "refused", "message": message])) }
    output.error(message)
    notify((Wording.cannotShare, message), critical: true)
    return code
  }

  /// The compose sheet was cancelled: the share did not start.
  func composeCancelled() -> ExitCode {
    if json { output.line(JSON.encode(["status": "cancelled", "message": Wording.composeCancelled])) }
    output.error(Wording.composeCancelled)
    return .cancelled
  }

  /// The compose step stopped the share before it started (a value missing, the sheet failed).
  func composeFailed(_ failure: ComposeFailure) -> ExitCode {
    if json { output.line(JSON.encode(["status": "refused", "message": failure.message])) }
    output.error(failure.message)
    notify((Wording.cannotShare, failure.message), critical: true)
    return .failure
  }

  func noServiceAccepts(items: [ShareItem]) {
    let message = Wording.noServiceAccepts(count: items.count)
    output.error(message)
    notify((Wording.cannotShare, message), critical: true)
  }

  private func notify(_ text: (summary: String, body: String), critical: Bool) {
    guard let notifications else { return }
    notifications.notify(
      summary: text.summary, body: text.body, icon: critical ? "dialog-error" : "document-send",
      replacing: notificationID, urgency: critical ? .critical : .normal)
  }
}

/// `--json` output of `share` and `retry`.
struct OutcomeSummary: Encodable {
  var requestId: String
  var serviceId: String
  var status: String
  var message: String?
  var returningItems: [ItemPayload]?

  /// `serviceName` words the message as the terminal does; `serviceId` names the service.
  init(requestId: String, serviceId: String, serviceName: String, outcome: ShareOutcome) {
    self.requestId = requestId
    self.serviceId = serviceId
    switch outcome {
    case .completed(let items):
      status = "completed"
      returningItems = items
    case .cancelled(_, let message):
      status = "cancelled"
      self.message = message
    case .failed:
      status = "failed"
      message = Wording.describe(outcome, service: serviceName)
    case .timedOut:
      status = "timed-out"
      message = Wording.describe(outcome, service: serviceName)
    }
  }
}

/// A one-line bar on standard error: `[#######.............]  35%  Uploading photo.png`.
final class ProgressBar {
  private let output: Output
  private var lastDrawn = 0.0
  private var drawn = false

  init(output: Output) {
    self.output = output
  }

  func draw(fraction: Double?, message: String?) {
    // Redrawing more than ~20 times a second only costs time.
    guard MonotonicClock.now - lastDrawn > 0.05 || fraction == 1 else { return }
    lastDrawn = MonotonicClock.now
    let width = 24
    let columns = Terminal.columns ?? 80
    var line: String
    if let fraction {
      let filled = Int((fraction * Double(width)).rounded(.down))
      line =
        "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
      let percent = "\(Int(fraction * 100))"
      line += String(repeating: " ", count: max(0, 3 - percent.count)) + percent + "%"
    } else {
      line = "[" + String(repeating: ".", count: width) + "]     "
    }
    if let message, !message.isEmpty { line += "  " + message.replacing("\n", with: " ") }
    output.writeError("\r\u{1B}[K" + String(line.prefix(max(10, columns - 1))))
    drawn = true
  }

  func clear() {
    if drawn { output.writeError("\r\u{1B}[K") }
  }
}
