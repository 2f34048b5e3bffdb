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

  init() throws {
    host = try HostDesktop()
    records = "\(host.root)/records"
    try FileManager.default.createDirectory(atPath: records, withIntermediateDirectories: true)
  }

  /// Helpers that escape the plugin's process group: one in a session of its own, one in a group
  /// of its own that ignores SIGTERM, each writing its pid.
  var stubbornHelpers: String {
    """
    setsid sh -c 'echo $$ > "\(records)/session"; exec sleep 60' < /dev/null > /dev/null 2>&1 &
    perl -e 'setpgrp(0, 0); $SIG{TERM} = "IGNORE"; open(F, ">", "\(records)/group"); print F $$; close F; sleep 60' \\
      < /dev/null > /dev/null 2>&1 &
    while [ ! -s "\(records)/session" ] || [ ! -s "\(records)/group" ]; do sleep 0.02; done
    """
  }

  func runner(_ body: String, timeout: Double? = nil) throws -> PluginRunner {
    let id = "org.example.contained"
    let bundle = try host.install(
      BundleFixture.anything(id: id, name: id, program: "#!/bin/sh\ncat > /dev/null\n" + body + "\n"))
    let service = ShareService(
      id: id, name: id, bundlePath: bundle, executablePath: "\(bundle)/share",
      rule: .predicate(.constant(true)), timeout: timeout)
    let request = PluginRequest(requestId: "r-\(UUID().uuidString)", serviceId: id, inputItems: [])
    return PluginRunner(service: service, request: request, environment: host.environment, logPath: nil)
  }

  func helperPIDs() throws -> [Int32] {
    try ["session", "group"].map { name in
      let text = try String(contentsOfFile: "\(records)/\(name)", encoding: .utf8)
      return try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
  }

  static func isRunning(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(close, offsetBy: 2)] != "Z"
  }

  @Test func aCancelEndsHelpersInOtherGroupsAndSessions() throws {
    let runner = try runner(stubbornHelpers + "\necho ready > \"\(records)/ready\"\nexec sleep 60")
    let ready = "\(records)/ready"
    DetachedThread.start {
      while !FileManager.default.fileExists(atPath: ready) { usleep(20_000) }
      runner.cancel()
    }
    let outcome = runner.run()
    #expect(outcome == .cancelled(code: ShareOutcome.userCancelledCode, message: "cancelled"))
    for pid in try helperPIDs() {
      #expect(!Self.isRunning(pid), "helper \(pid) outlived the cancelled request")
    }
  }

  @Test func aTimeOutEndsThemToo() throws {
    let runner = try runner(stubbornHelpers + "\nexec sleep 60", timeout: 1)
    let outcome = runner.run()
    #expect(outcome == .timedOut(seconds: 1))
    for pid in try helperPIDs() {
      #expect(!Self.isRunning(pid), "helper \(pid) outlived the timed-out request")
    }
  }

  @Test func aCompletedRequestReleasesWhatItStarted() throws {
    let runner = try runner(stubbornHelpers + "\necho '{\"complete\": {}}'")
    #expect(runner.run() == .completed(returningItems: []))
    let helpers = try helperPIDs()
    defer { for pid in helpers { kill(pid, SIGKILL) } }
    for pid in helpers {
      #expect(Self.isRunning(pid), "helper \(pid) was ended although the request completed")
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
