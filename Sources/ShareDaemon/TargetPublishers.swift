import ShareCore
import ShareDBus
import ShareHost
import SharePOSIX
import Synchronization

/// Keeps the services' direct targets current while the service runs: for each service whose
/// bundle names signals (`XDGShareTargetSignals`), the rules are added to the bus, and when one
/// of those signals arrives (a device paired, gone out of reach) the service's program is run to
/// publish its targets again (``ServiceProgram/Purpose/publishTargets``, no request). Once at
/// start too, so that targets published while the service was not running are brought up to date.
///
/// Signals come in bursts: a run waits ``settle`` seconds after the first, and a signal during
/// a run asks for one more after it. A program runs as a share's does, under the guard; what it
/// writes on standard error goes to its log (``DirectTargetStore/publishingLog(of:)``), with a
/// line of the host's when the run went wrong. Its end is an event of the service's loop (its
/// pidfd); a run that takes longer than the time limit is ended with everything it started, on
/// a thread of its own, which says so through the loop's waker.
final class TargetPublishers {
  /// A service that publishes, and the rules it listens to.
  private struct Publisher {
    var service: ShareService
    var rules: [SignalMatchRule]
  }

  /// A run going on.
  private struct Run {
    var program: ServiceProgram
    /// When it must end.
    var deadline: Double
    /// Its end, watched on the loop; nil once it is being ended on a thread of its own.
    var watch: EventLoop.ChildWatch?
  }

  private var publishers: [String: Publisher] = [:]
  /// When each service's next run is due.
  private var due: [String: Double] = [:]
  private var running: [String: Run] = [:]
  /// Services asked for again while they ran.
  private var again: Set<String> = []
  private var addedRules: Set<String> = []
  private let bus: any BusCalls
  private let environment: [String: String]
  private let loop: EventLoop
  private let logs: DirectTargetStore
  /// How long a run may take.
  let timeLimit: Double
  /// The runs ended on threads of their own, which the loop collects when woken.
  private let ended = EndedRuns()

  static let settle = 0.3
  static let defaultTimeLimit = 15.0

  /// - Parameters:
  ///   - bus: where the services' signals are asked for.
  ///   - loop: the service's loop, which hears of each run's end and is woken by the threads
  ///     that end a run.
  ///   - logs: where the runs' logs are kept.
  init(
    bus: any BusCalls, environment: [String: String], loop: EventLoop, logs: DirectTargetStore,
    timeLimit: Double = TargetPublishers.defaultTimeLimit
  ) {
    self.bus = bus
    self.environment = environment
    self.loop = loop
    self.logs = logs
    self.timeLimit = timeLimit
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
        try? bus.addMatch(rule.text)
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

  /// The next time something is to be done: a run to start, or one past its time. Ends are
  /// events of the loop, not times.
  var deadline: Double? {
    (Array(due.values) + running.values.filter { $0.watch != nil }.map(\.deadline)).min()
  }

  /// Whether no run goes on.
  var isIdle: Bool { running.isEmpty }

  /// Starts the runs due, and ends the ones past their time.
  func handleDeadlines(now: Double) {
    for (id, run) in running where run.watch != nil && now >= run.deadline {
      append(.timedOut(seconds: timeLimit), toLogOf: id)
      end(id)
    }
    for (id, time) in due where time <= now {
      due[id] = nil
      guard let publisher = publishers[id] else { continue }
      start(publisher.service, now: now)
    }
  }

  /// Collects the runs ended on threads of their own (the loop was woken for them).
  func collectEnded() {
    for id in ended.takeAll() { finished(id, now: MonotonicClock.now) }
  }

  private func start(_ service: ShareService, now: Double) {
    let log = logs.publishingLog(of: service.id)
    try? FileSystem.makeDirectories(logs.publishingLogFolder.bytes)
    // The log of the last run only: what doctor points at is what this run wrote.
    let logFile = try? FileDescriptor.create(log.bytes, mode: 0o600)
    defer { logFile?.close() }
    let program: ServiceProgram
    do throws(ServiceProgram.StartFailure) {
      program = try ServiceProgram.start(
        service, for: .publishTargets, environment: environment, standardInput: .null, standardOutput: .null,
        standardError: logFile.map(ChildProcess.Stream.descriptor) ?? .null)
    } catch {
      try? logFile?.write(Array(PublishingFailure.couldNotStart(reason: error.reason).logLine.utf8))
      return
    }
    let id = service.id
    let watch = loop.onEnd(of: program.process) { [unowned self] in
      if let failure = PublishingFailure(program.process.wait()) { append(failure, toLogOf: id) }
      program.releaseSandbox()
      finished(id, now: MonotonicClock.now)
    }
    running[id] = Run(program: program, deadline: now + timeLimit, watch: watch)
  }

  /// Ends the run of `id` and what it started, on a thread of its own (that takes up to the
  /// programs' grace period); the thread wakes the loop when it is done.
  private func end(_ id: String) {
    guard var run = running[id], let watch = run.watch else { return }
    loop.cancel(watch)
    run.watch = nil
    running[id] = run
    let program = run.program
    let ended = self.ended
    let waker = loop.waker
    DetachedThread.start {
      program.endWhatItStarted()
      _ = program.stop(after: 0.2)
      ended.post(id)
      waker.wake()
    }
  }

  private func finished(_ id: String, now: Double) {
    running[id] = nil
    if again.remove(id) != nil { due[id] = now + Self.settle }
  }

  private func append(_ failure: PublishingFailure, toLogOf id: String) {
    guard let log = try? FileDescriptor.openForAppending(logs.publishingLog(of: id).bytes) else { return }
    defer { log.close() }
    try? log.write(Array(failure.logLine.utf8))
  }

  /// Ends the runs going on (the service is stopping); ``isIdle`` once they have ended and been
  /// collected.
  func stopAll() {
    due = [:]
    again = []
    for id in running.keys { end(id) }
  }
}

/// The runs a thread of their own has ended, handed to the loop's thread.
private final class EndedRuns: Sendable {
  private let ids = Mutex<[String]>([])

  func post(_ id: String) {
    ids.withLock { $0.append(id) }
  }

  func takeAll() -> [String] {
    ids.withLock { ids in
      defer { ids = [] }
      return ids
    }
  }
}
