import Foundation
import ShareCore
import ShareHost
import ShareProtocol
import ShareTestSupport
import Testing

/// `PluginRunner` on its own: how each way a plugin can end becomes an outcome.
@Suite struct PluginRunnerTests {
  let host: HostDesktop

  init() throws {
    host = try HostDesktop()
  }

  /// Runs `program` (a `#!/bin/sh` script body) as the plugin of a service taking anything.
  func run(
    _ body: String, id: String = "org.example.runner", groups: [String] = [], logPath: String? = nil
  ) throws -> ShareOutcome {
    let bundle = try host.install(
      BundleFixture.anything(id: id, name: id, program: "#!/bin/sh\ncat > /dev/null\n" + body + "\n"))
    var service = ShareService(
      id: id, name: id, bundlePath: bundle, executablePath: "\(bundle)/share",
      rule: .predicate(.constant(true)),
      applicationGroups: groups)
    // What is tested is how a program ends and what it is told, as it runs unconfined; the
    // sandbox's own tests are ServiceSandboxTests.
    service.entitlements = .unconfinedForTests
    // The groups are the entitlements' own list: set again over the unconfined ones.
    service.applicationGroups = groups
    let request = PluginRequest(requestId: "r-\(id)", serviceId: id, inputItems: [])
    return PluginRunner(service: service, request: request, environment: host.environment, logPath: logPath)
      .run()
  }

  @Test(arguments: [
    ("exit 3", ShareOutcome.failed(.exitStatus(3))),
    ("exit 0", .failed(.noFinalEvent)),
    (
      #"echo '{"fail": {"error": {"code": 503, "message": "the server is down"}}}'"#,
      .failed(.reported(code: 503, message: "the server is down"))
    ),
    ("kill -KILL $$", .failed(.signal(name: "SIGKILL"))),
    ("echo hello", .failed(.unreadableOutput(line: "hello", problem: .notJSON))),
    (
      #"echo '{"progress": 2}'"#,
      .failed(
        .unreadableOutput(
          line: #"{"progress": 2}"#, problem: .invalid(at: "'progress'", "progress must lie between 0 and 1"))
      )
    ),
    (
      #"echo '{"other": 1}'"#,
      .failed(
        .unreadableOutput(
          line: #"{"other": 1}"#,
          problem: .invalid(at: nil, "expected progress, posted, complete, cancel or fail"))
      )
    ),
    (
      #"echo '{"progress": "half"}'"#,
      .failed(.unreadableOutput(line: #"{"progress": "half"}"#, problem: .wrongValue("'progress'")))
    ),
    // A last event without its newline still counts; what follows a final event is not read.
    (#"printf '{"complete": {}}'"#, .completed(returningItems: [])),
    (#"echo '{"cancel": {}}'; echo 'not read'"#, .cancelled(code: 0, message: "")),
    (#"echo; echo '  '; echo '{"complete": {}}'"#, .completed(returningItems: [])),
  ])
  func howAPluginEnds(body: String, outcome: ShareOutcome) throws {
    let ended = try run(body)
    #expect(ended == outcome)
  }

  @Test func aProgramThatCannotStartFails() {
    let service = ShareService(
      id: "org.example.gone", name: "Gone", bundlePath: host.root,
      executablePath: "\(host.root)/no-such-program",
      rule: .predicate(.constant(true)))
    let request = PluginRequest(requestId: "r", serviceId: service.id, inputItems: [])
    let outcome = PluginRunner(
      service: service, request: request, environment: host.environment, logPath: nil
    )
    .run()
    #expect(
      outcome
        == .failed(
          .couldNotStart(program: "\(host.root)/no-such-program", reason: "No such file or directory")))
  }

  @Test func theEnvironmentNamesTheRequest() throws {
    let outcome = try run(
      #"printf '{"complete": {"returningItems": [{"attachments": [{"typeIdentifiers": [], "text": "%s|%s|%s|%s"}]}]}}\n' "$XDG_SHARE_REQUEST_ID" "$XDG_SHARE_SERVICE_ID" "$XDG_SHARE_BUNDLE_PATH" "$XDG_SHARE_APPLICATION_GROUPS""#,
      id: "org.example.env", groups: ["group.a.b", "group.c.d"])
    let bundle = "\(host.desktop.userExtensions)/org.example.env.shareext"
    guard case .completed(let items) = outcome else {
      Issue.record("not completed: \(outcome)")
      return
    }
    #expect(
      items.first?.attachments.first?.text
        == "r-org.example.env|org.example.env|\(bundle)|group.a.b:group.c.d")
  }

  @Test func standardErrorGoesToTheLog() throws {
    let log = "\(host.root)/state/logs/run.log"
    let outcome = try run(#"echo 'to the log' >&2; echo '{"complete": {}}'"#, logPath: log)
    #expect(outcome == .completed(returningItems: []))
    #expect(try String(contentsOfFile: log, encoding: .utf8) == "to the log\n")
  }
}
