import Foundation
import ShareCore
import SharePOSIX
import ShareProtocol
import ShareTestSupport
import Synchronization
import Testing

@testable import ShareHost

/// A compose sheet played by the test: it answers what `answer` says, after `whileOpen` ran, and
/// answers Cancel when cancelled while open.
private final class PlayedPrompt: ComposePrompt {
  private let state = Mutex<(asked: Int, cancelled: Bool)>((0, false))
  private let opened = DispatchSemaphore(value: 0)
  private let release = DispatchSemaphore(value: 0)
  private let holds: Bool
  private let answer: ComposeAnswer

  /// - Parameter holds: whether the sheet stays open until cancelled.
  init(
    answer: ComposeAnswer = .posted(ComposePayload(contentText: "hi", configuration: [:])),
    holds: Bool = false
  ) {
    self.answer = answer
    self.holds = holds
  }

  var timesAsked: Int { state.withLock { $0.asked } }

  /// Waits until the sheet is open.
  func waitUntilOpen() -> Bool { opened.wait(timeout: .now() + 10) == .success }

  func compose(_ question: ComposeQuestion) -> ComposeAnswer {
    state.withLock { $0.asked += 1 }
    opened.signal()
    if holds { _ = release.wait(timeout: .now() + 30) }
    return state.withLock { $0.cancelled } ? .cancelled : answer
  }

  func cancel() {
    state.withLock { $0.cancelled = true }
    release.signal()
  }
}

/// The one way a share runs (`Share`): the compose step, the record, cancellation at each point,
/// and the events a front end renders.
@Suite struct ShareTests {
  let host: HostDesktop

  init() throws {
    host = try HostDesktop()
  }

  static let sheet = ComposeSheetDeclaration(title: "Post", maximumCharacters: 50, configurationItems: [])

  /// Writes `ran` into the state folder, reports progress and completes.
  static let completing = #"""
    #!/bin/sh
    cat > /dev/null
    : > "$XDG_STATE_HOME/ran"
    echo '{"progress": 0.5, "message": "half"}'
    echo '{"complete": {}}'
    """#

  /// Never ends on its own.
  static let sleeping = "#!/bin/sh\ncat > /dev/null\n: > \"$XDG_STATE_HOME/ran\"\nexec sleep 30\n"

  func share(
    _ program: String, composing: Bool, prompt: any ComposePrompt = DefaultsComposePrompt(),
    recorded: ComposePayload? = nil
  ) throws -> Share {
    let id = "org.example.s\(UUID().uuidString.prefix(8).lowercased())"
    let bundle = try host.install(BundleFixture.anything(id: id, name: "Post", program: program))
    var service = try #require(BundleLoader(languages: []).load(bundleAt: bundle).service)
    if composing { service.composeSheet = Self.sheet }
    let accepted = try Share.prepare(
      service, requested: [RequestedItem(.text("hi"))], types: HostDesktop.types,
      inspector: InMemoryFileInspector())
    return Share(
      accepted,
      compose: ComposeStep(
        configuration: ConfigurationStore(configHome: "\(host.root)/config"), secrets: InMemorySecretStore()),
      prompt: prompt, recorded: recorded, history: host.history, environment: host.environment,
      requestID: "request-\(UUID().uuidString)")
  }

  var programRan: Bool { FileManager.default.fileExists(atPath: "\(host.root)/state/ran") }

  @Test func aComposedShareReportsEachStepInOrder() throws {
    let prompt = PlayedPrompt()
    let share = try share(Self.completing, composing: true, prompt: prompt)
    var events: [String] = []
    let end = share.run { event in
      switch event {
      case .composeWarning: events.append("warning")
      case .composed: events.append("composed")
      case .started: events.append("started")
      case .progress(let fraction, let message): events.append("progress \(fraction ?? -1) \(message ?? "")")
      case .posted: events.append("posted")
      }
    }
    #expect(end == .finished(.completed(returningItems: []), requestID: share.requestID))
    #expect(events == ["composed", "started", "progress 0.5 half"])
    #expect(prompt.timesAsked == 1)
    let record = try #require(host.history.records().first)
    #expect(record.id == share.requestID)
    #expect(record.status == .completed)
    #expect(record.compose == ComposePayload(contentText: "hi", configuration: [:]))
  }

  @Test func aRetrySendsTheRecordedValuesWithoutASheet() throws {
    let prompt = PlayedPrompt()
    let recorded = ComposePayload(contentText: "again", configuration: [:])
    let share = try share(Self.completing, composing: true, prompt: prompt, recorded: recorded)
    var composed = false
    let end = share.run { if case .composed = $0 { composed = true } }
    #expect(end.historyStatus == .completed)
    #expect(prompt.timesAsked == 0)
    #expect(!composed)
    #expect(host.history.records().first?.compose == recorded)
  }

  @Test func cancelledBeforeItRunsNothingIsShared() throws {
    let prompt = PlayedPrompt()
    let share = try share(Self.completing, composing: true, prompt: prompt)
    share.cancel()
    #expect(share.run() == .composeCancelled)
    #expect(prompt.timesAsked == 0)
    #expect(host.history.records().isEmpty)
    #expect(!programRan)
  }

  @Test func cancelWhileTheSheetShowsClosesItAndSharesNothing() throws {
    let prompt = PlayedPrompt(holds: true)
    let share = try share(Self.completing, composing: true, prompt: prompt)
    let ended = Mutex<ShareEnd?>(nil)
    let done = DispatchSemaphore(value: 0)
    DetachedThread.start {
      let end = share.run()
      ended.withLock { $0 = end }
      done.signal()
    }
    #expect(prompt.waitUntilOpen())
    #expect(share.isComposing)
    share.cancel()
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(ended.withLock { $0 } == .composeCancelled)
    #expect(!share.isComposing)
    #expect(host.history.records().isEmpty)
    #expect(!programRan)
  }

  @Test func cancelAfterPostBeforeTheProgramStartsSharesNothing() throws {
    // The sheet answers Post, but the user cancelled just as it closed.
    final class PostThenCancel: ComposePrompt {
      let share = Mutex<Share?>(nil)
      func compose(_ question: ComposeQuestion) -> ComposeAnswer {
        share.withLock { $0 }?.cancel()
        return .posted(ComposePayload(contentText: "hi", configuration: [:]))
      }
      func cancel() {}
    }
    let prompt = PostThenCancel()
    let share = try share(Self.completing, composing: true, prompt: prompt)
    prompt.share.withLock { $0 = share }
    // The prompt and the share hold each other until the share has run.
    defer { prompt.share.withLock { $0 = nil } }
    #expect(share.run() == .composeCancelled)
    #expect(host.history.records().isEmpty)
    #expect(!programRan)
  }

  @Test func cancelledBeforeAShareWithoutSheetRunsIsRecordedCancelled() throws {
    let share = try share(Self.sleeping, composing: false)
    share.cancel()
    let end = share.run()
    #expect(
      end
        == .finished(
          .cancelled(code: ShareOutcome.userCancelledCode, message: "cancelled"), requestID: share.requestID))
    #expect(host.history.records().first?.status == .cancelled)
  }

  @Test func cancelWhileTheProgramRunsStopsIt() throws {
    let share = try share(Self.sleeping, composing: false)
    let started = DispatchSemaphore(value: 0)
    let ended = Mutex<ShareEnd?>(nil)
    let done = DispatchSemaphore(value: 0)
    DetachedThread.start {
      let end = share.run { if case .started = $0 { started.signal() } }
      ended.withLock { $0 = end }
      done.signal()
    }
    #expect(started.wait(timeout: .now() + 10) == .success)
    share.cancel()
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(ended.withLock { $0 }?.exitCode == .cancelled)
    #expect(host.history.records().first?.status == .cancelled)
  }

  @Test func aComposeStepThatFailsStartsNothing() throws {
    let prompt = PlayedPrompt(answer: .failed(.sheet(.endedWithoutAnswer(status: 9))))
    let share = try share(Self.completing, composing: true, prompt: prompt)
    let end = share.run()
    #expect(end == .composeFailed(.sheet(.endedWithoutAnswer(status: 9))))
    #expect(end.message() == "the compose sheet ended without an answer (exit status 9)")
    #expect(host.history.records().isEmpty)
  }

  @Test func aShareThatCannotBeRecordedIsRefused() throws {
    let file = try host.desktop.writeFile(named: "plain", contents: "")
    let bundle = try host.install(BundleFixture.anything(id: "org.example.any", name: "Any"))
    let service = try #require(BundleLoader(languages: []).load(bundleAt: bundle).service)
    let share = Share(
      try Share.prepare(
        service, requested: [RequestedItem(.text("hi"))], types: HostDesktop.types,
        inspector: InMemoryFileInspector()),
      compose: ComposeStep(
        configuration: ConfigurationStore(configHome: "\(host.root)/config"), secrets: InMemorySecretStore()),
      prompt: DefaultsComposePrompt(), history: HistoryStore(stateHome: file), environment: host.environment,
      requestID: "r1")
    // Recorded at once (the D-Bus call's way), the refusal is thrown; later, it is the end.
    #expect(throws: ShareRefusal.self) { try share.recordAtOnce() }
    let end = share.run()
    #expect(end.exitCode == .failure)
    #expect(
      end.message()
        == "cannot record the request, so it was not started: \(file)/xdg-share/history/r1.json: Not a directory"
    )
  }
}

/// The one table of what each end of a share is: exit status, `Response` code, history status and
/// words.
@Suite struct ShareEndTableTests {
  static let service = ShareService(
    id: "org.example.up", name: "Upload", bundlePath: "/b", executablePath: "/b/x",
    rule: .predicate(.constant(true)))

  @Test(
    arguments: [
      (ShareEnd.finished(.completed(returningItems: []), requestID: "r"), 0, 0, "completed", nil),
      (.finished(.cancelled(code: -1, message: "cancelled"), requestID: "r"), 3, 1, "cancelled", "cancelled"),
      (.finished(.cancelled(code: -1, message: ""), requestID: "r"), 3, 1, "cancelled", "cancelled"),
      (
        .finished(.cancelled(code: 4, message: "not signed in"), requestID: "r"), 3, 1, "cancelled",
        "not signed in"
      ),
      (
        .finished(.failed(.signal(name: "SIGSEGV")), requestID: "r"), 4, 2, "failed",
        "it was killed by SIGSEGV"
      ),
      (
        .finished(.timedOut(seconds: 1), requestID: "r"), 5, 2, "timed-out",
        "it took longer than 1 second and was stopped"
      ),
      (
        .finished(.timedOut(seconds: 2.5), requestID: "r"), 5, 2, "timed-out",
        "it took longer than 2.5 seconds and was stopped"
      ),
      (.refused(.noSuchService("org.x")), 6, 2, nil, "no share service 'org.x'"),
      (
        .refused(
          .notAccepted(
            service: service,
            refusal: RuleRefusal(
              takes: .kinds(DictionaryRule(maxImages: 2)),
              given: .items([GivenItem(name: "\"hello\"", kind: .text, typeIdentifier: "public.plain-text")]))
          )),
        7, 2, nil, "Upload takes up to 2 images; \"hello\" is text (public.plain-text)"
      ),
      (
        .refused(
          .unreadableFiles([
            FileProblem(path: FilePath("/a"), reason: .notFound),
            FileProblem(path: FilePath("/b\nc"), reason: .permissionDenied),
          ])), 1, 2, nil, "/a: no such file or directory; /b\\nc: permission denied"
      ),
      (
        .refused(.cannotRecord(.init(file: "/h/r.json", reason: .system("Read-only file system")))), 1, 2,
        nil,
        "cannot record the request, so it was not started: /h/r.json: Read-only file system"
      ),
      (.composeCancelled, 3, 1, nil, "cancelled"),
      (
        .composeFailed(.tooLong(characters: 9, maximum: 5)), 1, 2, nil,
        "the text has 9 characters; the service takes at most 5"
      ),
      (.noServiceAccepts(itemCount: 1), 7, 2, nil, "no installed service accepts this item"),
      (.noServiceAccepts(itemCount: 3), 7, 2, nil, "no installed service accepts these 3 items together"),
      (.notChosen(.declined), 3, 1, nil, "closed before a service was chosen"),
      (.notChosen(.noOneToAsk), 8, 2, nil, "no terminal to ask on; choose one with --service ID"),
    ] as [(ShareEnd, Int32, UInt32, String?, String?)])
  func eachEnd(end: ShareEnd, exit: Int32, response: UInt32, history: String?, message: String?) {
    #expect(end.exitCode.rawValue == exit)
    #expect(end.response.rawValue == response)
    #expect(end.historyStatus?.rawValue == history)
    #expect(end.message() == message)
  }

  @Test func aRefusalNamesTheServiceAsItsReaderKnowsIt() {
    let refusal = ShareRefusal.notAccepted(
      service: Self.service,
      refusal: RuleRefusal(
        takes: .kinds(DictionaryRule(supportsText: true)),
        given: .items([GivenItem(name: "a.png", kind: .image, typeIdentifier: "public.png")])))
    #expect(refusal.message() == "Upload takes text; a.png is an image (public.png)")
    #expect(
      refusal.message(naming: .identifier) == "org.example.up takes text; a.png is an image (public.png)")
  }

  @Test func aMistypedServiceGetsASuggestionWhenTheKnownOnesAreGiven() {
    let refusal = ShareRefusal.noSuchService("org.example.upp")
    #expect(
      refusal.message { ["org.example.up", "org.other"] }
        == "no share service 'org.example.upp'; did you mean 'org.example.up'?")
    #expect(refusal.message() == "no share service 'org.example.upp'")
  }

  @Test func theTerminalNamesTheService() {
    func sentence(_ outcome: ShareOutcome) -> String? {
      ShareEnd.finished(outcome, requestID: "r").sentence(service: "Upload")
    }
    #expect(sentence(.completed(returningItems: [])) == nil)
    #expect(sentence(.cancelled(code: -1, message: "cancelled")) == "cancelled")
    #expect(sentence(.cancelled(code: 2, message: "")) == "Upload cancelled")
    #expect(sentence(.cancelled(code: 2, message: "no account")) == "Upload cancelled: no account")
    #expect(
      sentence(.failed(.exitStatus(3)))
        == "Upload failed: it exited with status 3 without finishing the request")
    #expect(sentence(.timedOut(seconds: 4)) == "Upload took longer than 4 seconds and was stopped")
    #expect(ShareEnd.notChosen(.declined).sentence(service: "") == nil)
  }

  @Test func notificationsSayHowItWent() {
    let done = ShareEnd.finished(.completed(returningItems: []), requestID: "r")
    #expect(
      done.notification(service: "Upload", returned: ["https://x/1"])! == (
        "Shared with Upload", "https://x/1"
      ))
    #expect(
      ShareEnd.finished(.failed(.noFinalEvent), requestID: "r").notification(service: "Upload")!
        == ("Sharing with Upload failed", "it exited without saying whether it completed or cancelled"))
    #expect(
      ShareEnd.noServiceAccepts(itemCount: 2).notification(service: "")!
        == ("Cannot share", "no installed service accepts these 2 items together"))
    #expect(ShareEnd.composeCancelled.notification(service: "Upload") == nil)
  }
}
