import Foundation
import SharePOSIX
import ShareTestSupport
import Synchronization
import Testing

/// The Purpose plugins `register` writes, each job started the way KDE Purpose 5.103 starts it
/// and fed the exact bytes it sends, captured from the real library and applications
/// (Tests/SharePurposeTests/Captures): what the service receives, and what the host is told.
@Suite(.serialized) struct PurposeJobTests {
  let desktop: TemporaryDesktop
  let host: PurposeHost

  init() throws {
    desktop = try TemporaryDesktop(prefix: "purpose")
    host = PurposeHost(desktop: desktop)
  }

  /// The captured jobs name files under this folder, where the capture was made.
  static let captureFolder = "/tmp/xdgshare-purpose-capture/files"

  static func capture(_ name: String) throws -> [UInt8] {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("SharePurposeTests/Captures")
    return Array(try Data(contentsOf: folder.appendingPathComponent("\(name).bin")))
  }

  /// The files the captures name, made where they were (the same bytes on every run, so tests
  /// running at once may make them too).
  static func makeCapturedFiles() throws {
    try FileManager.default.createDirectory(atPath: captureFolder, withIntermediateDirectories: true)
    for (name, contents) in [
      ("one.png", tinyPNG), ("two.png", tinyPNG + [0]), ("notes.txt", Array("hello\n".utf8)),
      ("Grüße 1 #?.png", tinyPNG),
    ] {
      let path = "\(captureFolder)/\(name)"
      if FileManager.default.contents(atPath: path) != Data(contents) {
        try FileSystem.writeAtomically(contents, to: Array(path.utf8), mode: 0o644)
      }
    }
  }

  /// A service that keeps its request, copies the first file it gets, and answers `answer`.
  func install(
    _ id: String, name: String = "Logger", rule: String = BundleFixture.predicate("TRUEPREDICATE"),
    extraXML: String = "", answer: String = #"echo '{"complete": {}}'"#
  ) throws {
    try BundleFixture(
      id: id, name: name, ruleXML: rule, extraXML: extraXML,
      program: """
        #!/bin/sh
        cat > "$XDG_STATE_HOME/request.part" && mv "$XDG_STATE_HOME/request.part" "$XDG_STATE_HOME/request.json"
        echo $$ > "$XDG_STATE_HOME/pid"
        \(answer)

        """, entitlements: [.unconfined]
    ).write(into: desktop.userExtensions)
  }

  func register() throws {
    let result = try Tool.run(["register"], on: desktop)
    try #require(result.status == 0, "\(result.standardError)")
    try #require(
      result.standardOutput.contains("  KDE applications: "), "no Purpose plugins: \(result.standardOutput)")
  }

  /// The request the service read.
  func request() throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: "\(desktop.root)/state/request.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  func sharedPaths() throws -> [String] {
    let items = try #require(try request()["inputItems"] as? [[String: Any]])
    return items.flatMap { ($0["attachments"] as? [[String: Any]]) ?? [] }.compactMap {
      $0["path"] as? String
    }
  }

  @Test func dolphinsOnePNGReachesTheServiceAndItsLinkIsTheOutput() throws {
    try Self.makeCapturedFiles()
    try install(
      "com.example.upload", name: "Upload",
      answer: #"echo '{"progress": 0.5, "message": "half"}'; "#
        + #"echo '{"complete": {"returningItems": [{"attachments": [{"typeIdentifiers": ["public.url"], "url": "https://example.org/s/1"}]}]}}'"#
    )
    try register()
    let job = try host.run(host.plugin("com.example.upload"), input: Self.capture("export-one-png"))
    #expect(job.connected)
    #expect(job.error == 0, "\(job.lines)")
    #expect(job.url == "https://example.org/s/1")
    #expect(job.percents.contains(50))
    #expect(try sharedPaths() == ["\(Self.captureFolder)/one.png"])
    #expect(job.termination == .exited(0))
  }

  @Test func aNameWithUnicodeAndEscapesIsTheFileByteForByte() throws {
    try Self.makeCapturedFiles()
    try install("com.example.any")
    try register()
    let job = try host.run(host.plugin("com.example.any"), input: Self.capture("fileitem-unicode-name"))
    #expect(job.error == 0, "\(job.lines)")
    // Nothing returned, nothing to open.
    #expect(job.url == nil)
    #expect(try sharedPaths() == ["\(Self.captureFolder)/Grüße 1 #?.png"])
  }

  @Test func twoFilesOfDolphinsMixedSelectionAndTheFileNamedMain() throws {
    try Self.makeCapturedFiles()
    try install("com.example.any")
    try register()
    let job = try host.run(
      host.plugin("com.example.any"), input: Self.capture("fileitem-mixed"), main: "main")
    #expect(job.error == 0, "\(job.lines)")
    #expect(try sharedPaths() == ["\(Self.captureFolder)/one.png", "\(Self.captureFolder)/notes.txt"])
  }

  @Test func aLinkOfShareUrlReachesTheService() throws {
    try install(
      "com.example.links", name: "Links",
      rule: BundleFixture.dictionary([
        ("NSExtensionActivationSupportsWebURLWithMaxCount", "<integer>1</integer>")
      ])
    )
    try register()
    let job = try host.run(
      host.plugin("com.example.links"), input: Self.capture("shareurl-https"), pluginType: "ShareUrl")
    #expect(job.error == 0, "\(job.lines)")
    let items = try #require(try request()["inputItems"] as? [[String: Any]])
    let urls = items.flatMap { ($0["attachments"] as? [[String: Any]]) ?? [] }.compactMap {
      $0["url"] as? String
    }
    #expect(urls == ["https://example.org/page?q=1&x=%C3%A4"])
  }

  @Test func theRuleIsCheckedAgainAndARefusalHasTheCommandLinesWords() throws {
    try Self.makeCapturedFiles()
    try install(
      "com.example.one", name: "One",
      rule: BundleFixture.dictionary([
        ("NSExtensionActivationSupportsImageWithMaxCount", "<integer>1</integer>")
      ]))
    try register()
    let job = try host.run(host.plugin("com.example.one"), input: Self.capture("export-two-files"))
    #expect(job.error == 100)
    let cli = try Tool.run(
      [
        "--service", "com.example.one", "--", "\(Self.captureFolder)/one.png",
        "\(Self.captureFolder)/two.png",
      ],
      on: desktop)
    #expect(cli.status == 7)
    #expect(cli.standardError == "xdg-share: \(job.errorText)\n")
    #expect(job.errorText == "One takes one image; it was given 2: one.png, two.png")
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.root)/state/request.json"))
  }

  @Test func aServiceThatFailsOrCancelsEndsTheJobWithItsReason() throws {
    try Self.makeCapturedFiles()
    try install("com.example.fails", name: "Fails", answer: "exit 3")
    try install(
      "com.example.refuses", name: "Refuses",
      answer: #"echo '{"cancel": {"error": {"code": 7, "message": "not signed in"}}}'"#)
    try register()
    let failed = try host.run(host.plugin("com.example.fails"), input: Self.capture("export-one-png"))
    #expect(failed.error == 100)
    #expect(failed.errorText == "Fails failed: it exited with status 3 without finishing the request")
    #expect(failed.termination == .exited(4))
    // The service's own reason is news to the user: the host shows it as a failure.
    let refused = try host.run(host.plugin("com.example.refuses"), input: Self.capture("export-one-png"))
    #expect(refused.error == 100)
    #expect(refused.errorText == "Refuses cancelled: not signed in")
  }

  @Test func aServiceRunningPastItsTimeLimitEndsTheJob() throws {
    try Self.makeCapturedFiles()
    try install(
      "com.example.slow", name: "Slow", extraXML: "<key>XDGShareTimeout</key><integer>1</integer>",
      answer: "exec sleep 30")
    try register()
    let job = try host.run(host.plugin("com.example.slow"), input: Self.capture("export-one-png"))
    #expect(job.error == 100)
    #expect(job.errorText == "Slow took longer than 1 second and was stopped")
  }

  /// The session ending (SIGTERM) cancels the share: the job ends with error 1, which KDE
  /// applications take for a cancel; a host that kills the job outright leaves nothing running.
  @Test func cancelledOrKilledNothingIsLeftRunning() throws {
    try Self.makeCapturedFiles()
    try install("com.example.sleeps", name: "Sleeps", answer: "exec sleep 30")
    try register()
    let pidFile = "\(desktop.root)/state/pid"
    @Sendable func servicePID() throws -> Int32 {
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline {
        if let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
          let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
          return pid
        }
        _ = try? FileDescriptor.null().waitReadable(timeout: 0.05)
      }
      throw CancellationError()
    }
    func waitGone(_ pid: Int32) -> Bool {
      let deadline = Date().addingTimeInterval(10)
      while Date() < deadline {
        if kill(pid, 0) != 0 { return true }
        _ = try? FileDescriptor.null().waitReadable(timeout: 0.05)
      }
      return false
    }
    let service = Mutex<Int32>(0)
    // Once the service runs, the signal; meanwhile the host reads the job's answer.
    func signal(_ number: Int32) -> (ChildProcess) -> Void {
      { job in
        DispatchQueue.global().async {
          guard let pid = try? servicePID() else { return }
          service.withLock { $0 = pid }
          job.signal(number)
        }
      }
    }
    let cancelled = try host.run(
      host.plugin("com.example.sleeps"), input: Self.capture("export-one-png"),
      started: signal(Signal.terminate))
    #expect(cancelled.error == 1)
    #expect(cancelled.errorText == "cancelled")
    #expect(waitGone(service.withLock { $0 }))

    try FileManager.default.removeItem(atPath: pidFile)
    let killed = try host.run(
      host.plugin("com.example.sleeps"), input: Self.capture("export-one-png"), started: signal(Signal.kill))
    #expect(killed.termination == .signalled(Signal.kill))
    #expect(waitGone(service.withLock { $0 }), "the service's program outlived the job killed by its host")
  }

  @Test func aBrokenInputIsAnErrorNeverACrash() throws {
    try install("com.example.any")
    try register()
    for input in [Array("abc\n".utf8), Array("99999999999\n".utf8), PurposeHost.framed([0x9F, 0x9F, 0x9F])] {
      let job = try host.run(host.plugin("com.example.any"), input: input)
      #expect(job.connected)
      #expect(job.error == 100, "\(input)")
      #expect(job.termination == .exited(1))
    }
  }
}
