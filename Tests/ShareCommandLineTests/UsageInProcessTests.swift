import Synchronization
import Testing

@testable import ShareCommandLine

/// `xdg-share` run in process with its output captured: what usage errors and help print, and
/// the exit status, without spawning the binary.
@Suite struct UsageInProcessTests {
  /// What one run wrote.
  final class Captured: Sendable {
    let out = Mutex("")
    let error = Mutex("")
    var output: Output {
      Output(
        out: { text in self.out.withLock { $0 += text } },
        error: { text in self.error.withLock { $0 += text } })
    }
  }

  /// Runs `words` with an environment that reaches nothing of the machine's.
  static func run(_ words: [String], daemon: DaemonLauncher = .refusing) -> (
    status: Int32, out: String, error: String
  ) {
    let captured = Captured()
    let status = XDGShareTool.run(
      arguments: words.map { Array($0.utf8) },
      environment: ["HOME": "/nonexistent", "XDG_DATA_DIRS": "/nonexistent", "PATH": "/nonexistent"],
      output: captured.output, daemon: daemon)
    return (status, captured.out.withLock { $0 }, captured.error.withLock { $0 })
  }

  @Test func aUsageErrorIsOneLineOnStandardErrorAndStatusTwo() {
    let run = Self.run(["list", "--jsn"])
    #expect(run.status == 2)
    #expect(run.out.isEmpty)
    #expect(
      run.error
        == "xdg-share: unknown option '--jsn' for 'list'. Did you mean '--json'? See 'xdg-share list --help'.\n"
    )
  }

  @Test(arguments: CommandTable.commands.map(\.name))
  func helpOfEveryCommandIsItsRow(_ name: CommandName) {
    let run = Self.run([name.rawValue, "--help"])
    #expect(run.status == 0)
    #expect(run.error.isEmpty)
    #expect(run.out == Usage.help(for: name) + "\n")
  }

  @Test func anIdleTimeoutFromTheEnvironmentIsCheckedBeforeTheServiceStarts() {
    let captured = Captured()
    let started = Mutex(false)
    let status = XDGShareTool.run(
      arguments: [Array("daemon".utf8)], environment: ["XDG_SHARE_IDLE_TIMEOUT": "soon"],
      output: captured.output,
      daemon: DaemonLauncher { _, _ in
        started.withLock { $0 = true }
        return .success(true)
      })
    #expect(status == 2)
    #expect(!started.withLock { $0 })
    #expect(
      captured.error.withLock { $0 }
        == "xdg-share: environment variable XDG_SHARE_IDLE_TIMEOUT: expected a number of seconds (0: never), found 'soon'\n"
    )
  }

  @Test func theIdleTimeoutReachesTheService() {
    let given = Mutex<Double?>(nil)
    let status = XDGShareTool.run(
      arguments: ["daemon", "--idle-timeout=2.5"].map { Array($0.utf8) }, environment: [:],
      output: Captured().output,
      daemon: DaemonLauncher { _, timeout in
        given.withLock { $0 = timeout }
        return .success(true)
      })
    #expect(status == 0)
    #expect(given.withLock { $0 } == 2.5)
  }
}

extension DaemonLauncher {
  /// A launcher for tests that must not start the service.
  static let refusing = DaemonLauncher { _, _ in .failure(.system("not in this test")) }
}
