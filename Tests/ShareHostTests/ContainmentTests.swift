import Foundation
import ShareCore
import ShareHost
import SharePOSIX
import ShareProtocol
import ShareTestSupport
import Testing

/// Whatever a plugin starts, in any process group or session, ends with a request that is
/// cancelled or times out; a request that completes releases it.
@Suite struct ContainmentTests {
  let host: HostDesktop
  let records: String
  let helpers: StubbornHelpers

  init() throws {
    host = try HostDesktop()
    records = "\(host.root)/records"
    helpers = try StubbornHelpers(records: "\(host.root)/records/helpers")
  }

  /// A runner for a shell plugin running `body`; `environment` is added to the host's.
  func runner(_ body: String, timeout: Double? = nil, environment: [String: String] = [:]) throws
    -> PluginRunner
  {
    let id = "org.example.contained"
    let bundle = try host.install(
      BundleFixture.anything(id: id, name: id, program: "#!/bin/sh\ncat > /dev/null\n" + body + "\n"))
    var service = ShareService(
      id: id, name: id, bundlePath: bundle, executablePath: "\(bundle)/share",
      rule: .predicate(.constant(true)), timeout: timeout)
    // The guard's own semantics (its group, its parent), which the sandbox's process namespace
    // would hide; the sandbox's own tests are ServiceSandboxTests.
    service.entitlements = .unconfinedForTests
    let request = PluginRequest(requestId: "r-\(UUID().uuidString)", serviceId: id, inputItems: [])
    return PluginRunner(
      service: service, request: request, environment: host.environment.merging(environment) { $1 },
      logPath: nil)
  }

  static func isRunning(_ pid: Int32) -> Bool { StubbornHelpers.isRunning(pid) }

  /// Cancels `runner` once `file` exists.
  func cancel(_ runner: PluginRunner, when file: String) {
    DetachedThread.start {
      while !FileManager.default.fileExists(atPath: file) { usleep(20_000) }
      runner.cancel()
    }
  }

  @Test func theProgramRunsUnderTheGuard() throws {
    // Its parent is xdg-share-guard, which leads the process group the host signals.
    let runner = try runner(
      """
      echo "$PPID $(ps -o pgid= -p $$ | tr -d ' ')" > "\(records)/parent"
      cat /proc/$PPID/comm > "\(records)/parent-name"
      echo '{"complete": {}}'
      """)
    #expect(runner.run() == .completed(returningItems: []))
    let line = try String(contentsOfFile: "\(records)/parent", encoding: .utf8)
    let numbers = line.split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
    #expect(numbers.count == 2 && numbers[0] == numbers[1], "the guard leads the program's group: \(line)")
    let name = try String(contentsOfFile: "\(records)/parent-name", encoding: .utf8)
    #expect(name == "xdg-share-guard\n", "the program's parent is \(name)")
  }

  /// The program is gone at once on SIGTERM (`exec sleep`), orphaning its helpers; the one
  /// without the marker is found because the guard adopted it.
  @Test func aCancelEndsHelpersInOtherGroupsAndSessions() throws {
    let runner = try runner(helpers.script + "\necho ready > \"\(records)/ready\"\nexec sleep 60")
    defer { helpers.killAll() }
    cancel(runner, when: "\(records)/ready")
    let outcome = runner.run()
    #expect(outcome == .cancelled(code: ShareOutcome.userCancelledCode, message: "cancelled"))
    for pid in try helpers.pids() {
      #expect(!Self.isRunning(pid), "helper \(pid) outlived the cancelled request")
    }
  }

  @Test func aTimeOutEndsThemToo() throws {
    let runner = try runner(helpers.script + "\nexec sleep 60", timeout: 1)
    defer { helpers.killAll() }
    let outcome = runner.run()
    #expect(outcome == .timedOut(seconds: 1))
    for pid in try helpers.pids() {
      #expect(!Self.isRunning(pid), "helper \(pid) outlived the timed-out request")
    }
  }

  /// Shell lines that record the guard's pid (the program's parent).
  var recordsGuard: String { "\necho $PPID > \"\(records)/guard\"" }

  /// Expects every helper to be running once the guard is gone: a guard that ended them would
  /// have done so before it exited.
  func expectReleased() throws {
    let text = try String(contentsOfFile: "\(records)/guard", encoding: .utf8)
    let guardPID = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(StubbornHelpers.waitUntilGone(guardPID, timeout: 10), "the guard is still running")
    for pid in try helpers.pids() {
      #expect(Self.isRunning(pid), "helper \(pid) was ended although the request completed")
    }
  }

  @Test func aCompletedRequestReleasesWhatItStarted() throws {
    let runner = try runner(helpers.script + recordsGuard + "\necho '{\"complete\": {}}'")
    defer { helpers.killAll() }
    #expect(runner.run() == .completed(returningItems: []))
    try expectReleased()
  }

  @Test func aCompletedRequestWhoseProgramLingersReleasesToo() throws {
    // The host's SIGTERM to the group, for a program that stays after `complete`, reaches the
    // guard too: it ends the program, never what the program released.
    let runner = try runner(helpers.script + recordsGuard + "\necho '{\"complete\": {}}'\nexec sleep 60")
    defer { helpers.killAll() }
    #expect(runner.run() == .completed(returningItems: []))
    try expectReleased()
  }

  @Test func aProgramThatCompletesAfterACancelReleasesWhatItStarted() throws {
    // The program hears SIGTERM, completes and exits: the host reads `complete`, the guard, told
    // to end the request by the cancel, is told to release it.
    let runner = try runner(
      helpers.script + recordsGuard + """

        trap 'echo "{\\"complete\\": {}}"; exit 0' TERM
        echo ready > "\(records)/ready"
        while :; do sleep 0.05; done
        """)
    defer { helpers.killAll() }
    cancel(runner, when: "\(records)/ready")
    #expect(runner.run() == .completed(returningItems: []))
    try expectReleased()
  }

  @Test(arguments: [0, 3, 7]) func exitStatusesPassThroughTheGuard(status: Int32) throws {
    let runner = try runner("exit \(status)")
    let expected: ShareOutcome = status == 0 ? .failed(.noFinalEvent) : .failed(.exitStatus(status))
    #expect(runner.run() == expected)
  }

  @Test func aSignalThatEndsTheProgramIsReportedAsBefore() throws {
    let runner = try runner("kill -SEGV $$")
    #expect(runner.run() == .failed(.signal(name: "SIGSEGV")))
  }

  @Test func withoutTheGuardACancelStillEndsMarkedHelpers() throws {
    // XDG_SHARE_GUARD set but not a path: no guard, the parent-death signal alone (setpriv).
    let runner = try runner(
      "echo \"$PPID\" > \"\(records)/parent\"\n" + helpers.script
        + "\necho ready > \"\(records)/ready\"\nsleep 60",
      environment: ["XDG_SHARE_GUARD": ""])
    defer { helpers.killAll() }
    cancel(runner, when: "\(records)/ready")
    _ = runner.run()
    let parent = try String(contentsOfFile: "\(records)/parent", encoding: .utf8)
    #expect(Int32(parent.trimmingCharacters(in: .whitespacesAndNewlines)) == getpid())
    // The unmarked one, orphaned as the program ends, is lost without the guard to adopt it.
    for pid in try helpers.pids().prefix(2) {
      #expect(!Self.isRunning(pid), "helper \(pid) outlived the cancelled request")
    }
  }

  @Test func theMarkerFindsAProcessWhoseParentIsGone() throws {
    // An orphan adopted by init, found by its environment alone.
    let marker = "XDG_SHARE_REQUEST_ID=marker-\(UUID().uuidString)"
    let child = try ChildProcess.spawn(
      ["/bin/sh", "-c", "setsid sleep 60 < /dev/null > /dev/null 2>&1 & echo $!"].map { Array($0.utf8) },
      environment: ["PATH": "/usr/bin:/bin", "XDG_SHARE_REQUEST_ID": String(marker.dropFirst(21))],
      standardOutput: .pipe)
    let line = String(decoding: try child.standardOutput!.read(), as: UTF8.self)
    _ = child.wait()
    let orphan = try #require(Int32(line.trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(ProcessTree.members(marked: Array(marker.utf8)).map(\.pid) == [orphan])
    #expect(ProcessTree.end(marked: Array(marker.utf8), grace: 1) == 1)
    #expect(!Self.isRunning(orphan))
  }
}
