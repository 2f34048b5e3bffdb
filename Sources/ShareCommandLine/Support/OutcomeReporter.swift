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
  private var serviceID = ""
  private var logPath = ""
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

  /// Renders what `share` reports as it runs.
  func show(_ event: ShareEvent, of share: Share) {
    switch event {
    case .composeWarning(let warning): output.error(warning.message)
    case .started:
      serviceName = share.service.name
      serviceID = share.service.id
      logPath = share.logPath
      startedAt = MonotonicClock.now
    case .progress(let fraction, let message): progress(fraction, message)
    case .composed, .posted: break
    }
  }

  private func progress(_ fraction: Double?, _ message: String?) {
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

  /// Tells how a share ended, or why it did not start, and returns its exit status.
  ///
  /// - Parameter known: the identifiers a mistyped one may have meant; asked only then.
  func ended(_ end: ShareEnd, known: () -> [String] = { [] }) -> ExitCode {
    bar?.clear()
    var returned: [String] = []
    switch end {
    case .finished(let outcome, let requestID):
      if case .completed(let items) = outcome { returned = Wording.lines(for: items) }
      if json {
        output.line(
          JSON.encode(
            OutcomeSummary(
              requestId: requestID, serviceId: serviceID, serviceName: serviceName, outcome: outcome)))
      } else {
        for line in returned { output.line(line) }
      }
      if let sentence = end.sentence(service: serviceName) { output.error(sentence) }
      // What the program said on its way down is in its log: point there when it said anything.
      if [.failed, .timedOut].contains(outcome.historyStatus), logIsWritten {
        output.error(Wording.seeLog(logPath))
      }
    case .refused(let refusal):
      if json {
        output.line(
          JSON.encode(["status": end.status.word(in: .commandLine), "message": refusal.message(among: known)])
        )
      }
      for line in refusal.lines(among: known) { output.error(line) }
    case .composeCancelled, .composeFailed:
      if json {
        output.line(
          JSON.encode(["status": end.status.word(in: .commandLine), "message": end.message() ?? ""]))
      }
      output.error(end.message() ?? "")
    case .noServiceAccepts, .notChosen:
      if let sentence = end.sentence(service: serviceName) { output.error(sentence) }
    }
    if let (summary, body) = end.notification(service: serviceName, returned: returned) {
      notify(summary: summary, body: body, critical: end.exitCode != .success)
    }
    return end.exitCode
  }

  /// Whether the program wrote anything on its standard error.
  private var logIsWritten: Bool {
    ((try? FileSystem.status(Array(logPath.utf8)))?.size ?? 0) > 0
  }

  private func notify(summary: String, body: String, critical: Bool) {
    guard let notifications else { return }
    notifications.notify(
      summary: summary, body: body, icon: critical ? "dialog-error" : "document-send",
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
    let end = ShareEnd.finished(outcome, requestID: requestId)
    status = end.status.word(in: .commandLine)
    switch outcome {
    case .completed(let items): returningItems = items.map(Self.lossless)
    case .cancelled(_, let message): self.message = message
    case .failed, .timedOut: message = end.sentence(service: serviceName)
    }
  }
}

extension OutcomeSummary {
  /// `item` with the `name` of each file whose name is not UTF-8 given with the escapes every
  /// printed name has (`caf\xe9 (2).png`), as `list --json` gives such a bundle folder: a
  /// service's `name` is for display, and one made by decoding the bytes as UTF-8 has U+FFFD
  /// where the byte was. The `url` keeps the bytes; a name that is UTF-8 is as returned.
  static func lossless(_ item: ItemPayload) -> ItemPayload {
    var item = item
    for index in item.attachments.indices {
      guard let url = item.attachments[index].url, let path = FilePath(fileURL: url) else { continue }
      let name = path.lastComponent
      guard String(validating: name, as: UTF8.self) == nil else { continue }
      item.attachments[index].name = FilePath(bytes: name).text
    }
    return item
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
