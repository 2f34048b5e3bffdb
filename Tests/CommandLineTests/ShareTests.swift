// Longer than 400 lines on purpose: the share command's cases, one per outcome and exit status.

import Foundation
import ShareCore
import SharePOSIX
import ShareTestSupport
import Testing

/// `xdg-share share` end to end: real plugin processes reading the documented request.
@Suite struct ShareTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  /// Installs a plugin written in Python that runs `body` after reading the request into `request`.
  @discardableResult
  func plugin(
    _ id: String, rule: String = BundleFixture.predicate("TRUEPREDICATE"), extraXML: String = "", body: String
  ) throws -> String {
    let program = """
      #!/usr/bin/python3
      import json, os, sys, time, signal
      raw = sys.stdin.buffer.read()
      open(os.path.join(os.environ["XDG_STATE_HOME"], "request-\(id).json"), "wb").write(raw)
      request = json.loads(raw)
      def emit(event):
          sys.stdout.write(json.dumps(event) + "\\n")
          sys.stdout.flush()
      \(body.split(separator: "\n").joined(separator: "\n"))

      """
    return try BundleFixture(
      id: id, name: id.split(separator: ".").last.map(String.init) ?? id, ruleXML: rule, extraXML: extraXML,
      program: program, entitlements: [.unconfined]
    )
    .write(into: desktop.userExtensions)
  }

  func receivedRequest(_ id: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: "\(desktop.root)/state/request-\(id).json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  func attachments(_ request: [String: Any]) -> [[String: Any]] {
    ((request["inputItems"] as? [[String: Any]])?.first?["attachments"] as? [[String: Any]]) ?? []
  }

  @Test func hostileNamesArriveByteForByte() throws {
    try plugin("com.example.echo", body: "emit({'complete': {'returningItems': []}})")
    let names: [[UInt8]] = [
      Array("$(touch pwned) `x` 'q' \"d\";|&.png".utf8), Array("new\nline.txt".utf8),
      [0x6C, 0x61, 0x74, 0x69, 0x6E, 0x2D, 0xE9, 0xFF, 0x2E, 0x74, 0x78, 0x74], Array("-leading-dash".utf8),
      Array(String(repeating: "long", count: 60).utf8), Array("%20 percent%.txt".utf8),
    ]
    var paths: [[UInt8]] = []
    for name in names { paths.append(try desktop.writeFile(named: name, contents: Array("x".utf8))) }
    let result = try Tool.run(
      [Array("--service".utf8), Array("com.example.echo".utf8), Array("--".utf8)] + paths, on: desktop)
    #expect(result.status == 0, "\(result.standardError)")
    let received = attachments(try receivedRequest("com.example.echo"))
    #expect(received.count == names.count)
    for (attachment, path) in zip(received, paths) {
      let url = try #require(attachment["url"] as? String)
      #expect(FilePath(fileURL: url)?.bytes == path)
      #expect(
        (attachment["path"] as? String).map { Array($0.utf8) }
          == FilePath(bytes: path).string.map { Array($0.utf8) })
      #expect(attachment["size"] as? Int == 1)
      #expect(attachment["name"] as? String != nil)
    }
    #expect(received[2]["path"] == nil)
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.files)/pwned"))
  }

  @Test func requestCarriesTheDocumentedFields() throws {
    try plugin("com.example.echo", body: "emit({'complete': {}})")
    try desktop.writeFile(named: "photo.png", contents: "")
    let png = try desktop.writeFile(named: Array("p.png".utf8), contents: tinyPNG)
    let result = try Tool.run(
      [
        "share", "--service", "com.example.echo", "--text", "hello", "--url", "https://example.org/a?b=1",
        String(decoding: png, as: UTF8.self),
      ], on: desktop)
    #expect(result.status == 0, "\(result.standardError)")
    let request = try receivedRequest("com.example.echo")
    #expect(request["version"] as? Int == 1)
    #expect(request["serviceId"] as? String == "com.example.echo")
    #expect((request["requestId"] as? String)?.isEmpty == false)
    let item = try #require((request["inputItems"] as? [[String: Any]])?.first)
    #expect(item["attributedContentText"] as? String == "hello")
    let attachments = self.attachments(request)
    #expect(attachments[0]["text"] as? String == "hello")
    #expect(attachments[0]["typeIdentifiers"] as? [String] == ["public.plain-text", "text/plain"])
    #expect(attachments[1]["url"] as? String == "https://example.org/a?b=1")
    #expect(attachments[1]["typeIdentifiers"] as? [String] == ["public.url"])
    #expect(attachments[2]["typeIdentifiers"] as? [String] == ["public.png", "image/png"])
    #expect(attachments[2]["path"] as? String == String(decoding: png, as: UTF8.self))
  }

  @Test func completionPrintsWhatTheServiceReturned() throws {
    try plugin(
      "com.example.upload",
      body: """
        emit({'progress': 0.5, 'message': 'halfway'})
        emit({'complete': {'returningItems': [{'attachments': [{'typeIdentifiers': ['public.url'], 'url': 'https://example.org/f/1'}]}]}})
        """)
    try desktop.writeFile(named: "a.txt", contents: "a")
    let result = try Tool.run(["--service", "com.example.upload", "a.txt"], on: desktop)
    #expect(result.status == 0)
    #expect(result.standardOutput == "https://example.org/f/1\n")
    let json = try Tool.run(["--service", "com.example.upload", "--json", "a.txt"], on: desktop)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect(object["status"] as? String == "completed")
    #expect(object["serviceId"] as? String == "com.example.upload")
  }

  @Test func cancellingPluginExitsWithThreeAndShowsItsMessage() throws {
    try plugin(
      "com.example.no",
      body: "emit({'cancel': {'error': {'code': 7, 'message': 'Not signed in'}}})\nsys.exit(1)")
    try desktop.writeFile(named: "a.txt", contents: "a")
    let result = try Tool.run(["--service", "com.example.no", "a.txt"], on: desktop)
    #expect(result.status == 3)
    #expect(result.standardError == "xdg-share: no cancelled: Not signed in\n")
  }

  @Test(arguments: [
    ("os.kill(os.getpid(), signal.SIGSEGV)", "xdg-share: crash failed: it was killed by SIGSEGV\n"),
    ("sys.exit(9)", "xdg-share: crash failed: it exited with status 9 without finishing the request\n"),
    ("sys.exit(0)", "xdg-share: crash failed: it exited without saying whether it completed or cancelled\n"),
    (
      "print('hello there', flush=True)",
      "xdg-share: crash failed: it wrote output that is not a protocol event (not JSON): \"hello there\"\n"
    ),
    (
      "emit({'complete': {'returningItems': [{'attachments': [{'url': 'https://x/'}]}]}})",
      "xdg-share: crash failed: it wrote output that is not a protocol event "
        + "('complete.returningItems[0].attachments[0].typeIdentifiers' is missing): "
        + "\"{\\\"complete\\\": {\\\"returningItems\\\": [{\\\"attachments\\\": [{\\\"url\\\": \\\"https://x/\\\"}]}]}}\"\n"
    ),
    (
      "emit({'progress': '50%'})",
      "xdg-share: crash failed: it wrote output that is not a protocol event ('progress' has a wrong value): "
        + "\"{\\\"progress\\\": \\\"50%\\\"}\"\n"
    ),
  ])
  func failingPluginExitsWithFour(_ body: String, _ message: String) throws {
    try plugin("com.example.crash", body: body)
    try desktop.writeFile(named: "a.txt", contents: "a")
    let result = try Tool.run(["--service", "com.example.crash", "a.txt"], on: desktop)
    #expect(result.status == 4)
    #expect(result.standardError == message)
  }

  @Test func aFailureWithOutputOnStandardErrorPointsToTheLog() throws {
    try plugin("com.example.noisy", body: "sys.stderr.write('Traceback: it broke\\n')\nsys.exit(2)")
    try desktop.writeFile(named: "a.txt", contents: "a")
    let result = try Tool.run(["--service", "com.example.noisy", "a.txt"], on: desktop)
    #expect(result.status == 4)
    let lines = result.standardError.split(separator: "\n")
    #expect(lines.count == 2, "\(result.standardError)")
    let log = try #require(lines.last?.components(separatedBy: ": ").last)
    #expect(lines.last?.hasPrefix("xdg-share: what it wrote on standard error: ") == true)
    #expect(try String(contentsOfFile: log, encoding: .utf8) == "Traceback: it broke\n")
  }

  @Test func timeoutStopsTheWholeProcessGroup() throws {
    try plugin(
      "com.example.slow", extraXML: "<key>XDGShareTimeout</key><real>1</real>",
      body: """
        import subprocess
        child = subprocess.Popen(["sleep", "60"])
        open(os.path.join(os.environ["XDG_STATE_HOME"], "child.pid"), "w").write(str(child.pid))
        emit({'progress': 0.1})
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(60)
        """)
    try desktop.writeFile(named: "a.txt", contents: "a")
    let started = Date()
    let result = try Tool.run(["--service", "com.example.slow", "a.txt"], on: desktop)
    #expect(result.status == 5)
    #expect(result.standardError == "xdg-share: slow took longer than 1 second and was stopped\n")
    #expect(Date().timeIntervalSince(started) < 10)
    let pid = try #require(
      Int32(try String(contentsOfFile: "\(desktop.root)/state/child.pid", encoding: .utf8)))
    // Gone, or a zombie waiting for a reaper that this container may not have.
    let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ")[2]
    #expect(state == nil || state == "Z", "the plugin's child must be gone with its group")
  }

  /// A helper the program starts in the background (an `xdg-open`, a notifier) may keep its
  /// standard output open: the program's own end must still end the request, at once.
  @Test(arguments: [
    (
      "sys.exit(1)", Int32(4),
      "xdg-share: background failed: it exited with status 1 without finishing the request\n"
    ),
    ("emit({'complete': {}})", Int32(0), ""),
  ])
  func aBackgroundHelperHoldingTheOutputDoesNotHoldTheRequest(
    _ ending: String, _ status: Int32, _ message: String
  )
    throws
  {
    try plugin(
      "com.example.background", extraXML: "<key>XDGShareTimeout</key><real>30</real>",
      body: """
        import subprocess
        subprocess.Popen(["sleep", "10"])  # inherits standard output
        \(ending)
        """)
    try desktop.writeFile(named: "a.txt", contents: "a")
    let started = Date()
    let result = try Tool.run(["--service", "com.example.background", "a.txt"], on: desktop)
    #expect(result.status == status)
    #expect(result.standardError == message)
    #expect(Date().timeIntervalSince(started) < 4)
  }

  /// A program that never stops writing still meets its time limit.
  @Test func aPluginThatNeverStopsWritingIsStoppedAtItsLimit() throws {
    try plugin(
      "com.example.chatty", extraXML: "<key>XDGShareTimeout</key><real>1</real>",
      body: """
        while True:
            emit({'progress': 0.5, 'message': 'still going'})
        """)
    try desktop.writeFile(named: "a.txt", contents: "a")
    let started = Date()
    let result = try Tool.run(["--service", "com.example.chatty", "a.txt"], on: desktop)
    #expect(result.status == 5)
    #expect(Date().timeIntervalSince(started) < 6)
  }

  @Test func interruptingTheHostStopsThePlugin() throws {
    try plugin(
      "com.example.slow",
      body: """
        open(os.path.join(os.environ["XDG_STATE_HOME"], "plugin.pid"), "w").write(str(os.getpid()))
        emit({'progress': 0.1})
        time.sleep(60)
        """)
    try desktop.writeFile(named: "a.txt", contents: "a")
    let host = try ChildProcess.spawn(
      [Tool.path, "--service", "com.example.slow", "a.txt"].map { Array($0.utf8) },
      environment: desktop.environment,
      workingDirectory: Array(desktop.files.utf8), standardInput: .null, standardOutput: .null,
      standardError: .null)
    let pidFile = "\(desktop.root)/state/plugin.pid"
    let deadline = Date().addingTimeInterval(10)
    func pluginPID() -> Int32? {
      (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { Int32($0) }
    }
    // The plugin has written its pid: it runs, and the host with it.
    while pluginPID() == nil, Date() < deadline { usleep(20_000) }
    let pid = try #require(pluginPID())
    host.signal(Signal.interrupt)
    #expect(host.wait() == .exited(3))
    let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ")[2]
    #expect(state == nil || state == "Z", "Ctrl-C on the host ends the plugin too")
  }

  @Test func killingTheHostEndsThePlugin() throws {
    try plugin(
      "com.example.orphaned",
      body: """
        open(os.path.join(os.environ["XDG_STATE_HOME"], "plugin.pid"), "w").write(str(os.getpid()))
        time.sleep(60)
        """)
    try desktop.writeFile(named: "a.txt", contents: "a")
    let host = try ChildProcess.spawn(
      [Tool.path, "--service", "com.example.orphaned", "a.txt"].map { Array($0.utf8) },
      environment: desktop.environment,
      workingDirectory: Array(desktop.files.utf8), standardInput: .null, standardOutput: .null,
      standardError: .null)
    let pidFile = "\(desktop.root)/state/plugin.pid"
    let deadline = Date().addingTimeInterval(10)
    func pluginPID() -> Int32? {
      (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { Int32($0) }
    }
    while pluginPID() == nil, Date() < deadline { usleep(20_000) }
    let pid = try #require(pluginPID())
    host.signal(Signal.kill)
    #expect(host.wait() == .signalled(Signal.kill))
    // The parent-death signal arrives at once; the orphan is reaped by init.
    let gone = Date().addingTimeInterval(2)
    func running() -> Bool {
      let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ")[
        2]
      return state != nil && state != "Z"
    }
    while running(), Date() < gone { usleep(20_000) }
    #expect(!running(), "the plugin outlived its host")
  }

  @Test func unknownServiceExitsWithSix() throws {
    try plugin("com.example.echo", body: "emit({'complete': {}})")
    try desktop.writeFile(named: "a.txt", contents: "a")
    let result = try Tool.run(["--service", "com.example.ech", "a.txt"], on: desktop)
    #expect(result.status == 6)
    #expect(
      result.standardError
        == "xdg-share: no share service 'com.example.ech'; did you mean 'com.example.echo'?\n")
  }

  @Test func ruleIsCheckedAgainBeforeLaunch() throws {
    try plugin(
      "com.example.oneimage",
      rule: BundleFixture.dictionary([
        ("NSExtensionActivationSupportsImageWithMaxCount", "<integer>1</integer>")
      ]),
      body: "emit({'complete': {}})")
    try desktop.writeFile(named: "a.txt", contents: "a")
    let result = try Tool.run(["--service", "com.example.oneimage", "a.txt"], on: desktop)
    #expect(result.status == 7)
    #expect(
      result.standardError
        == "xdg-share: oneimage takes one image; a.txt is a text document (public.plain-text)\n")
    #expect(
      !FileManager.default.fileExists(atPath: "\(desktop.root)/state/request-com.example.oneimage.json"))
  }

  @Test func missingFileIsReportedNotShared() throws {
    try plugin("com.example.echo", body: "emit({'complete': {}})")
    let result = try Tool.run(["--service", "com.example.echo", "--", "gone.png"], on: desktop)
    #expect(result.status == 1)
    #expect(result.standardError == "xdg-share: \(desktop.files)/gone.png: no such file or directory\n")
  }

  @Test func withoutATerminalTheChoicesArePrinted() throws {
    try plugin("com.example.echo", body: "emit({'complete': {}})")
    try desktop.writeFile(named: "a.txt", contents: "a")
    let result = try Tool.run(["a.txt"], on: desktop)
    #expect(result.status == 8)
    #expect(result.standardOutput == "com.example.echo\techo\n")
    #expect(result.standardError == "xdg-share: no terminal to ask on; choose one with --service ID\n")
  }

  @Test func historyRecordsEveryRequestAndRetryRunsAFailedOneAgain() throws {
    let flag = "\(desktop.root)/state/fail-once"
    #expect(FileManager.default.createFile(atPath: flag, contents: nil))
    try plugin(
      "com.example.flaky",
      body: """
        flag = os.path.join(os.environ["XDG_STATE_HOME"], "fail-once")
        if os.path.exists(flag):
            os.remove(flag)
            sys.exit(3)
        emit({'complete': {'returningItems': [{'attachments': [{'typeIdentifiers': ['public.plain-text'], 'text': 'ok'}]}]}})
        """)
    try desktop.writeFile(named: "a.txt", contents: "a")
    #expect(try Tool.run(["--service", "com.example.flaky", "a.txt"], on: desktop).status == 4)
    let history = try Tool.run(["history", "--json"], on: desktop)
    let records = try #require(
      try JSONSerialization.jsonObject(with: Data(history.standardOutput.utf8)) as? [[String: Any]])
    #expect(records.count == 1)
    #expect(records[0]["status"] as? String == "failed")
    // Dates as any other tool reads them: ISO 8601 in UTC, as in the record on disk.
    let started = try #require(records[0]["started"] as? String)
    #expect(started.hasSuffix("Z") && (try? Date(started, strategy: .iso8601)) != nil, "\(started)")
    let id = try #require(records[0]["id"] as? String)
    let retry = try Tool.run(["retry", String(id.prefix(8))], on: desktop)
    #expect(retry.status == 0, "\(retry.standardError)")
    #expect(retry.standardOutput == "ok\n")
    let after = try Tool.run(["history"], on: desktop).standardOutput.split(separator: "\n")
    #expect(after.count == 2)
    #expect(after[1].contains("completed  flaky  a.txt"))
    let completed = try #require(after[1].split(separator: " ").first.map(String.init))
    #expect(
      try Tool.run(["retry", completed], on: desktop).status == 1, "a completed request is not repeated")
  }

  @Test func aRequestWhoseHostDiedIsInterruptedAndCanBeRetried() throws {
    try plugin("com.example.echo", body: "emit({'complete': {}})")
    let file = try desktop.writeFile(named: "a.txt", contents: "a")
    let history = "\(desktop.root)/state/xdg-share/history"
    try FileManager.default.createDirectory(atPath: history, withIntermediateDirectories: true)
    // A host pid beyond pid_max never exists.
    try """
    {"id": "0b0e0c0d-0000-4000-8000-000000000001", "serviceId": "com.example.echo", "serviceName": "echo",
     "items": [{"file": "file://\(file)"}], "started": "2026-11-29T10:00:00.000Z", "status": "running",
     "host": 2147483646}
    """.write(
      toFile: "\(history)/0b0e0c0d-0000-4000-8000-000000000001.json", atomically: true, encoding: .utf8)
    let listed = try Tool.run(["history"], on: desktop).standardOutput
    #expect(
      listed.contains("0b0e0c0d  2026-11-29") && listed.contains("interrupted  echo  a.txt"), "\(listed)")
    let retry = try Tool.run(["retry", "0b0e0c0d"], on: desktop)
    #expect(retry.status == 0, "\(retry.standardError)")
  }

  @Test func installValidatesCopiesAndUninstallRemoves() throws {
    let bundle = try BundleFixture(
      id: "com.example.new", name: "New", ruleXML: BundleFixture.predicate("TRUEPREDICATE")
    )
    .write(into: desktop.files, folder: "New")
    let install = try Tool.run(["install", bundle], on: desktop)
    #expect(install.status == 0, "\(install.standardError)")
    #expect(
      FileManager.default.fileExists(atPath: "\(desktop.userExtensions)/com.example.new.shareext/Info.plist"))
    #expect(try Tool.run(["list"], on: desktop).standardOutput.contains("com.example.new"))
    // Installing again replaces the copy.
    #expect(try Tool.run(["install", bundle], on: desktop).status == 0)
    let uninstall = try Tool.run(["uninstall", "com.example.new"], on: desktop)
    #expect(uninstall.status == 0)
    #expect(!(try Tool.run(["list"], on: desktop).standardOutput.contains("com.example.new")))
    #expect(try Tool.run(["uninstall", "com.example.new"], on: desktop).status == 6)

    let broken = try BundleFixture(
      id: "bad id", name: "Bad", ruleXML: BundleFixture.predicate("TRUEPREDICATE")
    )
    .write(into: desktop.files, folder: "Bad")
    let refused = try Tool.run(["install", broken], on: desktop)
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("CFBundleIdentifier: expected a reverse-DNS identifier"))
  }

  /// "One program, several services" (the tutorial): a bundle whose program is a relative link
  /// to a program beside the bundle still works once installed.
  @Test func aRelativeLinkOutOfTheBundleIsAnchoredWhenInstalled() throws {
    var fixture = BundleFixture(
      id: "com.example.linked", name: "Linked", ruleXML: BundleFixture.predicate("TRUEPREDICATE"))
    fixture.executableName = "run"
    let bundle = try fixture.write(into: desktop.files + "/ext", folder: "linked")
    try FileManager.default.createDirectory(
      atPath: desktop.files + "/shared", withIntermediateDirectories: true)
    try FileManager.default.moveItem(atPath: bundle + "/run", toPath: desktop.files + "/shared/multi")
    try FileManager.default.createSymbolicLink(
      atPath: bundle + "/run", withDestinationPath: "../../shared/multi")
    #expect(try Tool.run(["validate", bundle], on: desktop).status == 0)
    // Run from the folder above, with a relative path, as a user would.
    let install = try Tool.run(["install", "ext/linked.shareext"], on: desktop)
    #expect(install.status == 0, "\(install.standardError)")
    let installed = "\(desktop.userExtensions)/com.example.linked.shareext/run"
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: installed) == desktop.files + "/shared/multi")
    let list = try Tool.run(["list"], on: desktop)
    #expect(
      list.standardOutput.contains("com.example.linked") && list.standardError.isEmpty,
      "\(list.standardError)")
  }

  @Test func installSaysWhenTheServiceWillNotBeOffered() throws {
    let bundle = try BundleFixture(
      id: "com.example.needy", name: "Needy",
      ruleXML: BundleFixture.activationDictionary([("SupportsText", "<true/>")]),
      extraXML:
        "<key>XDGShareRequiredPrograms</key><array><string>no-such-program-here|nor-this</string></array>"
    )
    .write(into: desktop.files, folder: "Needy")
    let install = try Tool.run(["install", bundle], on: desktop)
    #expect(install.status == 0)
    #expect(
      install.standardError
        == "xdg-share: not offered: Needy (com.example.needy) needs no-such-program-here or nor-this, not found on this desktop\n"
    )
    #expect(!(try Tool.run(["list"], on: desktop).standardOutput.contains("com.example.needy")))
  }

  /// A predicate says only no; its trace says which clause refused which item, and the refusal
  /// what the service takes and what it was given.
  @Test func aPredicateRefusalNamesWhatItDoesNotTake() throws {
    let rule = BundleFixture.predicate(
      "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, NOT (ANY $a.registeredTypeIdentifiers "
        + "UTI-CONFORMS-TO \"public.data\")).@count == 0).@count == 1")
    try plugin("com.example.files", rule: rule, body: "emit({'complete': {}})")
    try desktop.writeFile(named: "a.txt", contents: "a")
    try FileManager.default.createDirectory(
      atPath: desktop.files + "/Holiday", withIntermediateDirectories: true)
    let one = try Tool.run(["--service", "com.example.files", "--", "Holiday"], on: desktop)
    #expect(one.status == 7)
    let words = "xdg-share: files takes only files (public.data); Holiday/ is a folder (public.folder)\n"
    #expect(one.standardError == words)
    let mixed = try Tool.run(["--service", "com.example.files", "--", "a.txt", "Holiday"], on: desktop)
    #expect(mixed.standardError == words)
  }

  @Test func systemServicesCannotBeUninstalledHere() throws {
    try BundleFixture(
      id: "com.example.system", name: "System", ruleXML: BundleFixture.predicate("TRUEPREDICATE")
    )
    .write(into: desktop.systemExtensions)
    let result = try Tool.run(["uninstall", "com.example.system"], on: desktop)
    #expect(result.status == 1)
    #expect(result.standardError.contains("installed for every user"))
  }

  @Test func groupPathIsCreatedInTheDataHome() throws {
    let result = try Tool.run(["group", "path", "group.ch.example.hoi"], on: desktop)
    #expect(result.status == 0)
    #expect(result.standardOutput == "\(desktop.root)/data/xdg-share/groups/group.ch.example.hoi\n")
    var isDirectory: ObjCBool = false
    #expect(
      FileManager.default.fileExists(
        atPath: "\(desktop.root)/data/xdg-share/groups/group.ch.example.hoi", isDirectory: &isDirectory)
        && isDirectory.boolValue)
    #expect(try Tool.run(["group", "path", "not-a-group"], on: desktop).status == 2)
  }
}
