import Foundation
import ShareCore
import ShareProtocol
import ShareTestSupport
import Testing

@testable import ShareHost

/// `ShareSession` and `PluginRunner` with tiny `#!/bin/sh` plugins: each outcome, and the history
/// record written before and after.
@Suite struct ShareSessionTests {
  let host: HostDesktop

  init() throws {
    host = try HostDesktop()
  }

  /// Keeps its request in `$XDG_STATE_HOME/request.json`, then completes, returning a text that
  /// names its service and working directory.
  static let completing = #"""
    #!/bin/sh
    cat > "$XDG_STATE_HOME/request.json"
    printf '{"complete": {"returningItems": [{"attachments": [{"typeIdentifiers": ["public.plain-text"], "text": "%s in %s"}]}]}}\n' "$XDG_SHARE_SERVICE_ID" "$(pwd)"
    """#

  /// Reports progress, then cancels with its own error.
  static let cancelling = #"""
    #!/bin/sh
    cat > /dev/null
    echo '{"progress": 0.5, "message": "half"}'
    echo '{"cancel": {"error": {"code": 7, "message": "refused"}}}'
    """#

  /// Never ends on its own.
  static let sleeping = "#!/bin/sh\nsleep 30\n"

  /// Installs a service taking anything with `program`, and prepares a session sharing a text.
  func session(
    _ program: String, id: String, extraXML: String = "", requestID: String? = nil
  ) throws -> ShareSession {
    let bundle = try host.install(
      BundleFixture.anything(id: id, name: id, extraXML: extraXML, program: program))
    var service = try #require(BundleLoader(languages: []).load(bundleAt: bundle).service)
    // Its programs record into the test's state folder, which a sandbox does not show them.
    service.entitlements = .unconfinedForTests
    let accepted = try Share.prepare(
      service, requested: [RequestedItem(.text("hello"))], types: HostDesktop.types,
      inspector: InMemoryFileInspector())
    return try ShareSession(
      accepted, history: host.history, environment: host.environment,
      // Each request an id of its own, as the host gives: a cancel ends every process that
      // carries its request's id, and the suite's tests run side by side.
      requestID: requestID ?? "request-\(UUID().uuidString)")
  }

  func onlyRecord() throws -> HistoryRecord {
    let records = host.history.records()
    #expect(records.count == 1)
    return try #require(records.first)
  }

  @Test func aCompletingPluginCompletes() throws {
    let session = try session(Self.completing, id: "org.example.complete")
    // Recorded as running before the program starts.
    #expect(try onlyRecord().status == .running)

    let outcome = session.run()
    let bundle = session.service.bundlePath
    #expect(
      outcome
        == .completed(returningItems: [
          ItemPayload(attachments: [
            AttachmentPayload(
              typeIdentifiers: ["public.plain-text"], text: "org.example.complete in \(bundle)")
          ])
        ]))
    // The plugin read the request the session built, whole.
    let written = try Data(contentsOf: URL(fileURLWithPath: "\(host.root)/state/request.json"))
    #expect(try JSONDecoder().decode(PluginRequest.self, from: written) == session.request)
    #expect(session.request.inputItems.first?.attachments.first?.text == "hello")

    let record = try onlyRecord()
    #expect(record.id == session.id)
    #expect(record.serviceId == "org.example.complete")
    #expect(record.status == .completed)
    #expect(record.message == nil)
    #expect(record.items == [.text("hello")])
    #expect(record.returningItems?.first?.attachments.first?.text == "org.example.complete in \(bundle)")
    #expect(record.finished != nil)
    #expect(record.log == host.history.logPath(for: session.id))
  }

  @Test func aCancellingPluginCancelsAfterItsProgress() throws {
    let session = try session(Self.cancelling, id: "org.example.cancel")
    var progress: [String] = []
    let outcome = session.run { fraction, message in
      progress.append("\(fraction.map { String($0) } ?? "-") \(message ?? "-")")
    }
    #expect(outcome == .cancelled(code: 7, message: "refused"))
    #expect(progress == ["0.5 half"])
    let record = try onlyRecord()
    #expect(record.status == .cancelled)
    #expect(record.message == "refused")
    #expect(record.returningItems == nil)
  }

  @Test func aPluginPastItsTimeLimitIsStopped() throws {
    let session = try session(
      Self.sleeping, id: "org.example.slow", extraXML: "<key>XDGShareTimeout</key><integer>1</integer>")
    #expect(session.service.timeout == 1)
    let started = Date()
    let outcome = session.run()
    let took = Date().timeIntervalSince(started)
    #expect(outcome == .timedOut(seconds: 1))
    // Stopped soon after the limit, not when `sleep 30` would have ended.
    #expect(took >= 1 && took < 10)
    let record = try onlyRecord()
    #expect(record.status == .timedOut)
    #expect(record.message == "it took longer than 1 second and was stopped")
  }

  @Test func aSessionCancelledBeforeItRunsEndsCancelled() throws {
    let session = try session(Self.sleeping, id: "org.example.stopped")
    session.cancel()
    #expect(session.run() == .cancelled(code: ShareOutcome.userCancelledCode, message: "cancelled"))
    #expect(try onlyRecord().status == .cancelled)
  }

  @Test func aRuleThatRefusesTheSelectionStartsNothing() throws {
    let bundle = try host.install(
      BundleFixture(
        id: "org.example.text", name: "Text",
        ruleXML: BundleFixture.activationDictionary([("SupportsText", "<true/>")])))
    let service = try #require(BundleLoader(languages: []).load(bundleAt: bundle).service)
    let png = FilePath("/photos/a.png")
    let inspector = InMemoryFileInspector([png: .file(contentType: "image/png", size: 70)])
    let refusal = RuleRefusal(
      takes: .kinds(DictionaryRule(supportsText: true)),
      given: .items([GivenItem(name: "a.png", kind: .image, typeIdentifier: "public.png")]))
    #expect(throws: ShareRefusal.notAccepted(service: service, refusal: refusal)) {
      try Share.prepare(
        service, requested: [RequestedItem(.file(png))], types: HostDesktop.types, inspector: inspector)
    }
    #expect(inspector.inspectionCount(of: png) == 1)
    #expect(host.history.records().isEmpty)
  }

  @Test func unreadableFilesStartNothing() throws {
    let bundle = try host.install(BundleFixture.anything(id: "org.example.any", name: "Any"))
    let service = try #require(BundleLoader(languages: []).load(bundleAt: bundle).service)
    #expect(throws: ShareRefusal.unreadableFiles([FileProblem(path: FilePath("/gone"), reason: .notFound)])) {
      try Share.prepare(
        service, requested: [RequestedItem(.file(FilePath("/gone")))], types: HostDesktop.types,
        inspector: InMemoryFileInspector())
    }
    #expect(host.history.records().isEmpty)
  }
}
