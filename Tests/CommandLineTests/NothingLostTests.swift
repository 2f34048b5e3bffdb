import Foundation
import ShareCore
import SharePOSIX
import ShareTestSupport
import Testing

/// Nothing the user shared is lost or shared twice: retries name what they retry, a completed
/// share is not repeated by accident, a killed host's request can be run again, and `register`
/// on a full disk leaves every file whole.
@Suite struct NothingLostTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  var historyFolder: String { "\(desktop.root)/state/xdg-share/history" }

  /// A service that fails while `state/fail` exists and completes otherwise, counting its runs.
  func installFlaky() throws {
    let program = """
      #!/bin/sh
      cat >/dev/null
      echo run >>"$XDG_STATE_HOME/runs"
      [ -e "$XDG_STATE_HOME/fail" ] && exit 3
      echo '{"complete": {}}'
      """
    try BundleFixture(
      id: "com.example.flaky", name: "flaky", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      program: program, entitlements: [.unconfined]
    ).write(into: desktop.userExtensions)
  }

  func records() throws -> [[String: Any]] {
    let history = try Tool.run(["history", "--json"], on: desktop)
    #expect(history.status == 0, "\(history.standardError)")
    return try #require(
      try JSONSerialization.jsonObject(with: Data(history.standardOutput.utf8)) as? [[String: Any]])
  }

  var runs: Int {
    ((try? String(contentsOfFile: "\(desktop.root)/state/runs", encoding: .utf8)) ?? "")
      .split(separator: "\n").count
  }

  @Test func aRetryNamesItsOriginalAndACompletedChainIsNotRepeatedWithoutAgain() throws {
    try installFlaky()
    let fail = "\(desktop.root)/state/fail"
    #expect(FileManager.default.createFile(atPath: fail, contents: nil))
    try desktop.writeFile(named: "a.txt", contents: "a")
    #expect(try Tool.run(["--service", "com.example.flaky", "a.txt"], on: desktop).status == 4)
    let original = try #require(try records().first?["id"] as? String)

    // The first retry fails too, the second (of the first retry) completes.
    let first = try Tool.run(["retry", original], on: desktop)
    #expect(first.status == 4, "\(first.standardError)")
    let firstRetry = try #require(
      try records().first { $0["retryOf"] as? String == original }?["id"] as? String)
    try FileManager.default.removeItem(atPath: fail)
    let second = try Tool.run(["retry", firstRetry], on: desktop)
    #expect(second.status == 0, "\(second.standardError)")
    let all = try records()
    #expect(all.count == 3)
    #expect(all[0]["retryOf"] == nil, "the original retries nothing")
    #expect(all[2]["retryOf"] as? String == firstRetry && all[2]["status"] as? String == "completed")
    #expect(runs == 3)

    // Whichever of the chain is named, it completed: exit 1, the message names --again, nothing runs.
    for id in [original, firstRetry, String(original.prefix(8))] {
      let refused = try Tool.run(["retry", id], on: desktop)
      #expect(refused.status == 1)
      #expect(refused.standardError.contains("retry --again"), "\(refused.standardError)")
      #expect(
        refused.standardError.contains(try #require(all[2]["id"] as? String)), "\(refused.standardError)")
    }
    #expect(runs == 3, "a refused retry runs nothing")

    let again = try Tool.run(["retry", "--again", original], on: desktop)
    #expect(again.status == 0, "\(again.standardError)")
    #expect(runs == 4)
    #expect(try records().last?["retryOf"] as? String == original)
  }

  /// Writes a record left `running` by `host` (started at `hostStarted`, when given).
  func writeRunningRecord(id: String, host: Int32, hostStarted: UInt64?) throws {
    let file = try desktop.writeFile(named: "a.txt", contents: "a")
    try FileManager.default.createDirectory(atPath: historyFolder, withIntermediateDirectories: true)
    let started = hostStarted.map { ", \"hostStarted\": \($0)" } ?? ""
    try """
    {"id": "\(id)", "serviceId": "com.example.flaky", "serviceName": "flaky",
     "items": [{"file": "file://\(file)"}], "started": "2026-11-29T10:00:00.000Z", "status": "running",
     "host": \(host)\(started)}
    """.write(toFile: "\(historyFolder)/\(id).json", atomically: true, encoding: .utf8)
  }

  @Test func aRecordWhoseHostPidWasReusedIsInterruptedInJSONAndCanBeRetried() throws {
    try installFlaky()
    // This test process is alive, but it is not the host that started at tick 1.
    let me = ProcessInfo.processInfo.processIdentifier
    let realStart = try #require(ProcessStatus.startTime(of: me))
    try writeRunningRecord(id: "0b0e0c0d-0000-4000-8000-000000000001", host: me, hostStarted: realStart + 1)
    try writeRunningRecord(id: "0b0e0c0d-0000-4000-8000-000000000002", host: me, hostStarted: realStart)
    let shown = try records()
    #expect(shown.map { $0["status"] as? String } == ["interrupted", "running"])
    #expect(try Tool.run(["history"], on: desktop).standardOutput.contains("interrupted  flaky  a.txt"))
    let retried = try Tool.run(["retry", "0b0e0c0d-0000-4000-8000-000000000001"], on: desktop)
    #expect(retried.status == 0, "\(retried.standardError)")
    let running = try Tool.run(["retry", "--again", "0b0e0c0d-0000-4000-8000-000000000002"], on: desktop)
    #expect(
      running.status == 1 && running.standardError.contains("still running"), "\(running.standardError)")
  }

  @Test func aKilledHostLeavesAnInterruptedRequestThatRetryRunsAgain() throws {
    let program = """
      #!/bin/sh
      cat >/dev/null
      echo run >>"$XDG_STATE_HOME/runs"
      [ -e "$XDG_STATE_HOME/runs.1" ] && { echo '{"complete": {}}'; exit 0; }
      touch "$XDG_STATE_HOME/runs.1"
      sleep 30
      """
    try BundleFixture(
      id: "com.example.slow", name: "slow", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      program: program, entitlements: [.unconfined]
    ).write(into: desktop.userExtensions)
    try desktop.writeFile(named: "a.txt", contents: "a")
    let host = try ChildProcess.spawn(
      [Array(Tool.path.utf8), Array("--service".utf8), Array("com.example.slow".utf8), Array("a.txt".utf8)],
      environment: desktop.environment, workingDirectory: Array(desktop.files.utf8), standardInput: .null,
      standardOutput: .null, standardError: .null)
    let deadline = Date().addingTimeInterval(20)
    while runs == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    #expect(try records().first?["status"] as? String == "running")
    kill(host.pid, SIGKILL)
    _ = host.wait()
    let record = try #require(try records().first)
    #expect(record["status"] as? String == "interrupted")
    let retried = try Tool.run(["retry", try #require(record["id"] as? String)], on: desktop)
    #expect(retried.status == 0, "\(retried.standardError)")
    #expect(try records().last?["retryOf"] as? String == record["id"] as? String)
  }

  // MARK: register on a full disk

  /// Runs `mount` (or `umount`) with `arguments`; whether it worked.
  static func mount(_ arguments: [String]) -> Bool {
    guard let run = try? CapturedRun.run(arguments.map { Array($0.utf8) }, environment: [:]) else {
      return false
    }
    return run.status == 0
  }

  /// Every regular file under `root` with its bytes, by path relative to `root`.
  static func files(under root: String) -> [String: Data] {
    var found: [String: Data] = [:]
    for path in FileManager.default.subpaths(atPath: root) ?? [] {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: "\(root)/\(path)", isDirectory: &isDirectory),
        !isDirectory.boolValue
      else { continue }
      found[path] = FileManager.default.contents(atPath: "\(root)/\(path)")
    }
    return found
  }

  /// Bundles for `register`, in a folder of their own (listed in `XDG_DATA_DIRS`).
  func services(_ count: Int, in folder: String) throws -> String {
    let extensions = "\(desktop.root)/\(folder)/xdg-share/extensions"
    for index in 0..<count {
      try BundleFixture(
        id: "com.example.service\(index)", name: "Service number \(index) with a long name",
        ruleXML: BundleFixture.dictionary([
          ("NSExtensionActivationSupportsFileWithMaxCount", "<integer>9</integer>")
        ])
      ).write(into: extensions)
    }
    return "\(desktop.root)/\(folder):\(desktop.root)/system"
  }

  /// `register` writes into a 128 KiB tmpfs that fills up part of the way through (a tmpfs
  /// gives each file a page of 4 KiB: one service's files fill about 90 KiB, six services' 230 KiB,
  /// Purpose's plugins among them): each file it
  /// generates is then either as before or as a successful `register` writes it, and no
  /// temporary file is left. Needs root (or CAP_SYS_ADMIN) to mount; skipped otherwise.
  @Test func registerOnAFullDiskLeavesEveryFileOldOrNew() throws {
    let oldServices = try services(1, in: "one")
    let newServices = try services(6, in: "six")
    var sawFailure = false
    // Free room from none to enough: each run stops at a different file.
    for slack in stride(from: 0, through: 128, by: 8) {
      let data = "\(desktop.root)/full-\(slack)"
      try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
      guard Self.mount(["/usr/bin/mount", "-t", "tmpfs", "-o", "size=128k", "tmpfs", data]) else {
        // Not root, or no CAP_SYS_ADMIN in this container: the tmpfs cannot be made here.
        print("skipped: cannot mount a tmpfs (needs root)")
        return
      }
      defer { _ = Self.mount(["/usr/bin/umount", data]) }
      let old = try Tool.run(
        ["register"], on: desktop, environment: ["XDG_DATA_HOME": data, "XDG_DATA_DIRS": oldServices])
      #expect(old.status == 0, "\(old.standardError)")
      let before = Self.files(under: data)
      #expect(!before.isEmpty)
      // Fill the disk, then free `slack` KiB of it.
      let filler = "\(data)/filler"
      #expect(FileManager.default.createFile(atPath: filler, contents: nil))
      let handle = try #require(FileHandle(forWritingAtPath: filler))
      while (try? handle.write(contentsOf: Data(count: 1024))) != nil {}
      try handle.synchronize()
      let size = try #require(try FileManager.default.attributesOfItem(atPath: filler)[.size] as? Int)
      try handle.truncate(atOffset: UInt64(max(0, size - slack * 1024)))
      try handle.close()

      let full = try Tool.run(
        ["register"], on: desktop, environment: ["XDG_DATA_HOME": data, "XDG_DATA_DIRS": newServices])
      var during = Self.files(under: data)
      during["filler"] = nil
      try FileManager.default.removeItem(atPath: filler)
      #expect(Self.mount(["/usr/bin/mount", "-o", "remount,size=4m", data]))
      let new = try Tool.run(
        ["register"], on: desktop, environment: ["XDG_DATA_HOME": data, "XDG_DATA_DIRS": newServices])
      #expect(new.status == 0, "\(new.standardError)")
      let after = Self.files(under: data)
      if full.status != 0 { sawFailure = true }
      for (path, contents) in during {
        #expect(
          contents == before[path] || contents == after[path],
          "slack \(slack) KiB: \(path) is neither old nor new (exit \(full.status): \(full.standardError))")
      }
      for path in before.keys where after[path] != nil {
        #expect(during[path] != nil, "slack \(slack) KiB: \(path) went missing")
      }
      #expect(during.keys.allSatisfy { !$0.hasSuffix(".tmp") }, "\(during.keys.sorted())")
    }
    #expect(sawFailure, "the disk never filled up: the test tested nothing")
  }
}
