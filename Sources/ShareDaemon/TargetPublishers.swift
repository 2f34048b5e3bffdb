import ShareCore
import ShareDBus
import ShareHost
import SharePOSIX

/// Keeps the services' direct targets current while the service runs: for each service whose
/// bundle names signals (`XDGShareTargetSignals`), the rules are added to the bus, and when one
/// of those signals arrives (a device paired, gone out of reach) the service's program is run to
/// publish its targets again (`XDG_SHARE_PUBLISH_TARGETS=1`, no request). Once at start too, so
/// that targets published while the service was not running are brought up to date.
///
/// Signals come in bursts: a run waits ``settle`` seconds after the first, and a signal during
/// a run asks for one more after it. A run that takes longer than ``timeLimit`` is stopped.
final class TargetPublishers {
  /// A service that publishes, and the rules it listens to.
  private struct Publisher {
    var service: ShareService
    var rules: [SignalMatchRule]
  }

  private var publishers: [String: Publisher] = [:]
  /// When each service's next run is due.
  private var due: [String: Double] = [:]
  /// The runs going on, and when each must end.
  private var running: [String: (child: ChildProcess, deadline: Double)] = [:]
  /// Services asked for again while they ran.
  private var again: Set<String> = []
  private var addedRules: Set<String> = []
  private let connection: BusConnection
  private let environment: [String: String]

  static let settle = 0.3
  static let timeLimit = 15.0

  init(connection: BusConnection, environment: [String: String]) {
    self.connection = connection
    self.environment = environment
  }

  /// Takes in the services now offered: new publishers' rules are added to the bus, and each
  /// new publisher runs once.
  func update(_ services: [ShareService]) {
    var fresh: [String: Publisher] = [:]
    for service in services where !service.targetSignals.isEmpty {
      fresh[service.id] = Publisher(
        service: service, rules: service.targetSignals.compactMap(SignalMatchRule.init))
    }
    let now = MonotonicClock.now
    for (id, publisher) in fresh {
      for rule in publisher.rules where addedRules.insert(rule.text).inserted {
        // A rule the bus refuses only means no updates for that service: it still publishes when
        // it runs.
        try? connection.addMatch(rule.text)
      }
      if publishers[id]?.service != publisher.service { schedule(id, at: now) }
    }
    publishers = fresh
  }

  /// Looks at a signal that arrived: a publisher's rule asks for it, its run is scheduled.
  func note(_ message: DBusMessage) {
    guard !publishers.isEmpty else { return }
    var firstArgument: String?
    if case .string(let argument)? = message.arguments().first { firstArgument = argument }
    for (id, publisher) in publishers
    where publisher.rules.contains(where: {
      $0.matches(
        interface: message.interface, member: message.member, path: message.path, firstArgument: firstArgument
      )
    }) {
      schedule(id, at: MonotonicClock.now + Self.settle)
    }
  }

  private func schedule(_ id: String, at time: Double) {
    if running[id] != nil {
      again.insert(id)
    } else if due[id] == nil {
      due[id] = time
    }
  }

  /// The next time something is to be done.
  var deadline: Double? {
    let times = Array(due.values) + running.values.map(\.deadline)
    // While runs go on, they are looked at often: their end is not signalled to the loop.
    return running.isEmpty ? times.min() : min(times.min() ?? .infinity, MonotonicClock.now + 0.1)
  }

  /// Starts the runs due, collects the ones ended, stops the ones past their time.
  func handleDeadlines(now: Double) {
    for (id, run) in running {
      if run.child.hasEnded {
        _ = run.child.wait()
      } else if now >= run.deadline {
        run.child.signalLeader(Signal.kill)
        _ = run.child.wait()
      } else {
        continue
      }
      running[id] = nil
      if again.remove(id) != nil { due[id] = now + Self.settle }
    }
    for (id, time) in due where time <= now {
      due[id] = nil
      guard let publisher = publishers[id] else { continue }
      start(publisher.service, now: now)
    }
  }

  private func start(_ service: ShareService, now: Double) {
    var environment = service.programEnvironment(self.environment)
    environment["XDG_SHARE_PUBLISH_TARGETS"] = "1"
    environment["XDG_SHARE_REQUEST_ID"] = nil
    guard
      let child = try? ChildProcess.spawn(
        [service.executableLocation.bytes], environment: environment,
        environmentBytes: service.programEnvironmentBytes,
        workingDirectory: service.bundleLocation.bytes, standardInput: .null, standardOutput: .null,
        standardError: .null, newProcessGroup: true)
    else { return }
    running[service.id] = (child, now + Self.timeLimit)
  }

  /// Ends the runs going on (the service is stopping).
  func stopAll() {
    for run in running.values {
      run.child.signalLeader(Signal.kill)
      _ = run.child.wait()
    }
    running = [:]
  }
}
