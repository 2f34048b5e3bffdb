import Foundation
import ShareCore
import ShareHost
import SharePOSIX
import ShareTestSupport
import Testing

@testable import ShareDaemon

/// The programs run to publish direct targets, run as a share's are: under the guard, ended with
/// everything they started when they overstay, their standard error in a log `doctor` points at,
/// their end an event of the loop.
@Suite struct TargetPublisherTests {
  let desktop: TemporaryDesktop
  let store: DirectTargetStore

  init() throws {
    desktop = try TemporaryDesktop()
    store = DirectTargetStore(stateHome: FilePath("\(desktop.root)/state"))
  }

  /// A publishing service whose program is the shell script `body`.
  func service(_ body: String) throws -> ShareService {
    let bundle = "\(desktop.root)/data/xdg-share/extensions/publisher.shareext"
    try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
    // Through a close-on-exec descriptor: a program started meanwhile by a test running in
    // parallel must not keep it open ("Text file busy").
    try FileSystem.writeAtomically(
      Array(("#!/bin/sh\n" + body + "\n").utf8), to: Array("\(bundle)/publish".utf8), mode: 0o755)
    var service = ShareService(
      id: "org.example.publisher", name: "Publisher", bundlePath: bundle, executablePath: "\(bundle)/publish",
      rule: .predicate(.constant(true)))
    service.targetSignals = ["type='signal',interface='org.example.Publisher',member='Changed'"]
    // Its programs record into the test's tree, which a sandbox does not show them.
    service.entitlements = Entitlements(unconfined: true)
    return service
  }

  /// Runs `service`'s program once on a loop of its own, as the D-Bus service does, until the run
  /// has ended (at most `limit` seconds).
  func publishOnce(
    _ service: ShareService, timeLimit: Double, bus: RecordingBus = RecordingBus(), limit: Double = 30
  )
    throws -> Bool
  {
    let loop = try EventLoop()
    let publishers = TargetPublishers(
      bus: bus, environment: desktop.environment, loop: loop, logs: store, timeLimit: timeLimit)
    // Weakly: the loop is the publishers', and a closure it keeps must not keep them.
    loop.onWake { [weak publishers] in publishers?.collectEnded() }
    publishers.update([service])
    var started = false
    let end = MonotonicClock.now + limit
    loop.run(
      nextTimeout: { min(publishers.deadline ?? end, end) - MonotonicClock.now },
      onTimeout: {
        publishers.handleDeadlines(now: MonotonicClock.now)
        if !publishers.isIdle { started = true }
      },
      shouldStop: { (started && publishers.isIdle) || MonotonicClock.now >= end })
    return started && publishers.isIdle
  }

  var log: String {
    (try? String(contentsOfFile: store.publishingLog(of: "org.example.publisher").text, encoding: .utf8))
      ?? ""
  }

  @Test func aRunPastItsTimeEndsWithWhatItStartedAndItsErrorsAreLogged() throws {
    let helpers = try StubbornHelpers(records: "\(desktop.root)/helpers")
    defer { helpers.killAll() }
    let program = "\(desktop.root)/program"
    let service = try service(
      """
      echo 'the phone is out of reach' >&2
      \(helpers.script)
      echo $$ > "\(program)"
      exec sleep 60
      """)
    let bus = RecordingBus()
    #expect(try publishOnce(service, timeLimit: 1, bus: bus), "the run did not end")
    #expect(bus.matchRules == service.targetSignals)
    let programPID = try #require(
      Int32(
        (try String(contentsOfFile: program, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)
      ))
    for pid in try helpers.pids() + [programPID] {
      #expect(!StubbornHelpers.isRunning(pid), "\(pid) outlived the run's time limit")
    }
    #expect(
      log == "the phone is out of reach\nxdg-share: the program took longer than 1 second and was stopped\n")
    // What doctor points at.
    #expect(store.publishingLogs().map(\.serviceID) == ["org.example.publisher"])
  }

  @Test func aRunThatFailsSaysHowAndOneThatSucceedsLeavesAnEmptyLog() throws {
    let environment = "\(desktop.root)/environment"
    let failing = try service(
      """
      env > "\(environment)"
      echo 'no devices' >&2
      exit 3
      """)
    #expect(try publishOnce(failing, timeLimit: 10))
    #expect(log == "no devices\nxdg-share: the program exited with status 3\n")
    let seen = try String(contentsOfFile: environment, encoding: .utf8).split(separator: "\n")
    #expect(seen.contains("XDG_SHARE_PUBLISH_TARGETS=1"))
    #expect(seen.contains("XDG_SHARE_SERVICE_ID=org.example.publisher"))
    #expect(seen.contains { $0.hasPrefix("XDG_SHARE_PUBLISH_ID=") })
    #expect(!seen.contains { $0.hasPrefix("XDG_SHARE_REQUEST_ID=") })
    // The log is the last run's.
    #expect(try publishOnce(service("exit 0"), timeLimit: 10))
    #expect(log == "")
    #expect(store.publishingLogs().isEmpty)
  }
}
