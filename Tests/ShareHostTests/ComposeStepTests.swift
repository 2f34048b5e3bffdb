import Foundation
import ShareCore
import SharePOSIX
import ShareProtocol
import ShareTestSupport
import Testing

@testable import ShareHost

/// A prompt that answers as told and keeps the question.
private final class StubPrompt: ComposePrompt, @unchecked Sendable {
  let answer: (ComposeQuestion) -> ComposeAnswer
  var asked: [ComposeQuestion] = []

  init(_ answer: @escaping (ComposeQuestion) -> ComposeAnswer) {
    self.answer = answer
  }

  func compose(_ question: ComposeQuestion) -> ComposeAnswer {
    asked.append(question)
    return answer(question)
  }

  func cancel() {}
}

/// The compose step: the values it starts from, the checks, and what it remembers where.
@Suite struct ComposeStepTests {
  let host: HostDesktop
  let secrets = InMemorySecretStore()

  init() throws {
    host = try HostDesktop()
  }

  static let sheet = ComposeSheetDeclaration(
    title: "Upload", maximumCharacters: 5,
    configurationItems: [
      .init(identifier: "server", title: "Server"),
      .init(identifier: "visibility", title: "Visibility", choices: ["Public", "Followers"]),
      .init(identifier: "password", title: "Password", isSecure: true),
    ])

  static let service = ShareService(
    id: "org.example.upload", name: "Upload", bundlePath: "/b", executablePath: "/b/x",
    rule: .predicate(.constant(true)), composeSheet: sheet)

  var store: ConfigurationStore { ConfigurationStore(configHome: "\(host.root)/config") }
  var step: ComposeStep { ComposeStep(configuration: store, secrets: secrets) }

  @Test func theStoreRemembersPlainValuesOnlyInItsFile() throws {
    try store.remember(
      ["server": "https://dav", "visibility": "Public", "password": "hunter2", "other": "x"],
      for: Self.service)
    let file = "\(host.root)/config/xdg-share/configuration/org.example.upload.json"
    #expect(store.file(for: Self.service.id) == file)
    #expect(store.values(for: Self.service.id) == ["server": "https://dav", "visibility": "Public"])
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(!text.contains("hunter2"))
    #expect(try FileSystem.status(Array(file.utf8)).permissions & 0o777 == 0o600)
  }

  @Test func aDamagedFileRemembersNothing() throws {
    try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
    try "[1, 2".write(toFile: store.file(for: "org.example.upload"), atomically: true, encoding: .utf8)
    #expect(store.values(for: "org.example.upload") == [:])
  }

  @Test func aStoreUnderAFileSaysWhichFileAndWhy() throws {
    let file = try host.desktop.writeFile(named: "plain", contents: "not a folder")
    let store = ConfigurationStore(configHome: file)
    #expect(
      throws: ConfigurationStoreFailure(
        file: "\(file)/xdg-share/configuration/org.example.upload.json", reason: "Not a directory")
    ) {
      try store.remember(["server": "s"], for: Self.service)
    }
  }

  @Test func theQuestionStartsFromRememberedValuesThenDefaults() throws {
    try store.remember(["server": "https://dav", "visibility": "Nobody"], for: Self.service)
    try secrets.store("hunter2", service: Self.service.id, item: "password", label: "")
    let (question, warnings) = try #require(
      step.question(for: Self.service, items: [.text("hi"), .webURL("https://x.org/"), .text("you")]))
    #expect(warnings == [])
    #expect(question.contentText == "hi\nyou")
    // A remembered value that is no longer a choice gives way to the default (the first choice).
    #expect(question.values == ["server": "https://dav", "visibility": "Public", "password": "hunter2"])
  }

  @Test func withoutAValueOrDefaultTheShareFailsNamingConfigure() {
    let outcome = step.run(service: Self.service, items: [.text("hi")], prompt: DefaultsComposePrompt())
    let failure = ComposeFailure.missingValues(
      service: "Upload", serviceID: "org.example.upload", items: ["Server", "Password"])
    #expect(outcome == .failed(failure))
    #expect(
      failure.message
        == "Upload needs 'Server' and 'Password' before it can share; give them with 'xdg-share configure org.example.upload'"
    )
    #expect(!FileManager.default.fileExists(atPath: store.file(for: Self.service.id)))
  }

  @Test func postedValuesAreCheckedAndRemembered() throws {
    let prompt = StubPrompt { question in
      .posted(
        ComposePayload(
          contentText: "héllo", configuration: ["server": "https://dav", "password": "hunter2", "junk": "x"]))
    }
    let outcome = step.run(service: Self.service, items: [.text("hi")], prompt: prompt)
    #expect(prompt.asked.map(\.values) == [["visibility": "Public"]])
    #expect(
      outcome
        == .posted(
          ComposePayload(
            contentText: "héllo",
            configuration: ["server": "https://dav", "visibility": "Public", "password": "hunter2"]),
          warnings: []))
    #expect(store.values(for: Self.service.id) == ["server": "https://dav", "visibility": "Public"])
    #expect(secrets.all == ["org.example.upload/password": "hunter2"])
  }

  @Test(arguments: [
    (ComposePayload(contentText: "🇨🇭🇨🇭🇨🇭🇨🇭🇨🇭", configuration: ["visibility": "Public"]), nil),
    (
      ComposePayload(contentText: "123456", configuration: ["visibility": "Public"]),
      ComposeFailure.tooLong(characters: 6, maximum: 5)
    ),
    (
      ComposePayload(contentText: "", configuration: ["visibility": "All"]),
      ComposeFailure.notAChoice(item: "Visibility", value: "All", choices: ["Public", "Followers"])
    ),
  ])
  func valuesAreChecked(payload: ComposePayload, failure: ComposeFailure?) throws {
    try secrets.store("pw", service: Self.service.id, item: "password", label: "")
    var values = payload.configuration
    values["server"] = "s"
    let prompt = StubPrompt { _ in
      .posted(ComposePayload(contentText: payload.contentText, configuration: values))
    }
    let outcome = step.run(service: Self.service, items: [], prompt: prompt)
    if let failure {
      #expect(outcome == .failed(failure))
    } else {
      guard case .posted = outcome else {
        Issue.record("expected posted, got \(outcome)")
        return
      }
    }
  }

  @Test func cancelIsCancelAndNothingIsRemembered() {
    let outcome = step.run(service: Self.service, items: [], prompt: StubPrompt { _ in .cancelled })
    #expect(outcome == .cancelled)
    #expect(store.values(for: Self.service.id) == [:])
  }

  @Test func aServiceWithoutSheetIsNotAsked() {
    var plain = Self.service
    plain.composeSheet = nil
    let prompt = StubPrompt { _ in .cancelled }
    #expect(step.run(service: plain, items: [], prompt: prompt) == .notDeclared)
    #expect(prompt.asked.isEmpty)
  }

  @Test func aSecretThatCannotBeKeptIsAWarningAndTheShareGoesOn() {
    let step = ComposeStep(configuration: store, secrets: UnavailableSecretStore())
    let prompt = StubPrompt { _ in
      .posted(ComposePayload(contentText: "", configuration: ["server": "s", "password": "pw"]))
    }
    guard case .posted(let payload, let warnings) = step.run(service: Self.service, items: [], prompt: prompt)
    else {
      Issue.record("expected posted")
      return
    }
    #expect(payload.configuration["password"] == "pw")
    #expect(
      warnings.map(\.message) == [
        "cannot keep 'Password' in the Secret Service: no Secret Service (a keyring such as gnome-keyring) is available"
      ])
  }

  @Test func aReplayTakesTheRecordedValuesAndTheSecretFromTheStore() throws {
    try secrets.store("hunter2", service: Self.service.id, item: "password", label: "")
    let recorded = ComposePayload(
      contentText: "again", configuration: ["server": "s", "visibility": "Followers"])
    #expect(
      step.replay(recorded, service: Self.service)
        == .posted(
          ComposePayload(
            contentText: "again",
            configuration: ["server": "s", "visibility": "Followers", "password": "hunter2"]),
          warnings: []))
    try secrets.clear(service: Self.service.id, item: "password")
    guard case .failed(.missingValues(_, _, ["Password"])) = step.replay(recorded, service: Self.service)
    else {
      Issue.record("expected the password to be missing")
      return
    }
  }

  @Test func historyKeepsComposeWithoutSecrets() throws {
    let bundle = try host.install(
      BundleFixture.anything(id: "org.example.upload", name: "Upload", program: "#!/bin/sh\ncat >/dev/null\n")
    )
    var service = try #require(BundleLoader(languages: []).load(bundleAt: bundle).service)
    service.composeSheet = Self.sheet
    let compose = ComposePayload(contentText: "t", configuration: ["server": "s", "password": "hunter2"])
    let session = try ShareSession(
      Share.prepare(
        service, requested: [RequestedItem(.text("t"))], types: HostDesktop.types,
        inspector: InMemoryFileInspector()),
      history: host.history, environment: host.environment, compose: compose)
    #expect(session.request.compose == compose)
    let record = try #require(host.history.records().first)
    #expect(record.compose == ComposePayload(contentText: "t", configuration: ["server": "s"]))
    let files = try FileManager.default.contentsOfDirectory(atPath: host.history.directory)
    for file in files {
      let text = try String(contentsOfFile: "\(host.history.directory)/\(file)", encoding: .utf8)
      #expect(!text.contains("hunter2"))
    }
  }
}

/// `xdg-share-sheet --compose`, played by a shell script.
@Suite struct SheetComposePromptTests {
  let host: HostDesktop

  init() throws {
    host = try HostDesktop()
  }

  func sheet(_ body: String) throws -> String {
    let path = "\(host.root)/fake-sheet"
    try ExecutableScript.write(
      "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"\(host.root)/arguments\"\ncat > \"\(host.root)/input\"\n\(body)\n",
      to: path)
    return path
  }

  var question: ComposeQuestion {
    ComposeQuestion(
      service: ComposeStepTests.service, sheet: ComposeStepTests.sheet,
      items: [.file(FilePath("/tmp/a b.png")), .text("hi")], contentText: "hi", values: ["server": "s"])
  }

  @Test func postIsTheLineOnDescriptor3() throws {
    let program = try sheet(
      #"echo '{"compose": {"contentText": "edited", "configuration": {"server": "t"}}}' >&3"#)
    let prompt = SheetComposePrompt(program: program, environment: host.environment)
    #expect(
      prompt.compose(question)
        == .posted(ComposePayload(contentText: "edited", configuration: ["server": "t"])))
    #expect(
      try String(contentsOfFile: "\(host.root)/arguments", encoding: .utf8)
        == "--compose\norg.example.upload\n--result-fd\n3\n--text\nhi\n--\n/tmp/a b.png\n")
    let input = try JSONDecoder().decode(
      ComposeLine.self, from: Data(contentsOf: URL(fileURLWithPath: "\(host.root)/input")))
    #expect(input == ComposeLine(compose: ComposePayload(contentText: "hi", configuration: ["server": "s"])))
  }

  @Test func exitStatus3IsCancel() throws {
    let prompt = SheetComposePrompt(program: try sheet("exit 3"), environment: host.environment)
    #expect(prompt.compose(question) == .cancelled)
  }

  @Test func noAnswerIsAFailure() throws {
    let prompt = SheetComposePrompt(program: try sheet("exit 0"), environment: host.environment)
    #expect(prompt.compose(question) == .failed(.sheet(.endedWithoutAnswer(status: 0))))
    let missing = SheetComposePrompt(program: "\(host.root)/none", environment: host.environment)
    guard case .failed(.sheet(.cannotStart)) = missing.compose(question) else {
      Issue.record("expected cannotStart")
      return
    }
  }

  @Test func cancelClosesTheSheet() throws {
    let prompt = SheetComposePrompt(program: try sheet("exec sleep 30"), environment: host.environment)
    DetachedThread.start {
      DetachedThread.sleep(seconds: 0.3)
      prompt.cancel()
    }
    let start = MonotonicClock.now
    #expect(prompt.compose(question) == .cancelled)
    #expect(MonotonicClock.now - start < 10)
  }

  @Test func withoutADisplayTheDefaultsAnswer() throws {
    var environment = host.environment
    environment["DISPLAY"] = nil
    environment["WAYLAND_DISPLAY"] = nil
    environment["XDG_SHARE_SHEET"] = try sheet("exit 3")
    #expect(ComposePrompts.desktop(environment: environment) is DefaultsComposePrompt)
    environment["DISPLAY"] = ":9"
    #expect(ComposePrompts.desktop(environment: environment) is SheetComposePrompt)
  }
}
