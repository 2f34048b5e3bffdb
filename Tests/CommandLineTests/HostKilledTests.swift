import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// A host killed with SIGKILL can end nothing itself: `xdg-share-guard`, between it and the
/// plugin, ends everything the plugin started, in any session or group, marked or not.
@Suite struct HostKilledTests {
  let desktop: TemporaryDesktop
  let helpers: StubbornHelpers

  init() throws {
    desktop = try TemporaryDesktop()
    helpers = try StubbornHelpers(records: "\(desktop.root)/helpers")
  }

  var pluginRecord: String { "\(desktop.root)/helpers/plugin" }

  /// A shell plugin that starts the stubborn helpers, records its own pid and sleeps.
  func installStubbornPlugin(_ id: String) throws {
    try BundleFixture(
      id: id, name: "Stubborn", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      program: "#!/bin/sh\ncat > /dev/null\n" + helpers.script
        + "\necho $$ > \"\(pluginRecord)\"\nexec sleep 60\n", entitlements: [.unconfined]
    ).write(into: desktop.userExtensions)
  }

  @Test func killingTheShareCommandEndsEverythingThePluginStarted() throws {
    try installStubbornPlugin("com.example.stubborn")
    try desktop.writeFile(named: "a.txt", contents: "a")
    defer { helpers.killAll() }
    let host = try ChildProcess.spawn(
      [Tool.path, "--service", "com.example.stubborn", "a.txt"].map { Array($0.utf8) },
      environment: desktop.environment, workingDirectory: Array(desktop.files.utf8), standardInput: .null,
      standardOutput: .null, standardError: .null)
    // The shell makes the file before it writes the pid in it: the pid, once written.
    func recorded() -> Int32? {
      (try? String(contentsOfFile: pluginRecord, encoding: .utf8)).flatMap {
        Int32($0.trimmingCharacters(in: .newlines))
      }
    }
    let deadline = Date().addingTimeInterval(10)
    while recorded() == nil, Date() < deadline { usleep(20_000) }
    let plugin = try #require(recorded())
    let started = try helpers.pids()
    #expect(started.allSatisfy(StubbornHelpers.isRunning))
    host.signal(Signal.kill)
    #expect(host.wait() == .signalled(Signal.kill))
    // SIGTERM at once, SIGKILL two seconds later to the helpers that ignore it.
    #expect(try helpers.running(after: 5) == [], "helpers outlived their host")
    #expect(!StubbornHelpers.isRunning(plugin), "the plugin outlived its host")
  }
}
