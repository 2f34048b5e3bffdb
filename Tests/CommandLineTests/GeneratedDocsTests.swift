import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// The repository's root, found from this file's place in it.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// A program on `PATH` (or in the usual folders), or `nil`.
func programPath(_ name: String) -> String? {
  let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/bin:/bin"
  return path.split(separator: ":").map { "\($0)/\(name)" }.first(where: FileManager.default.isExecutableFile)
}

/// Every help page is a golden file; the manual page and the completion scripts are generated from
/// the tables the parser and help use, and their checked-in copies must be what the tool prints.
@Suite struct GeneratedDocsTests {
  /// Every command, hidden ones too; `everyCommandIsAHelpTopic` in the completion tests keeps this
  /// list the table's.
  static let commands = [
    "share", "list", "new", "validate", "why", "doctor", "install", "uninstall", "configure", "history",
    "retry",
    "group",
    "daemon",
    "register", "unregister", "completion", "man",
  ]

  /// The generated files, by the command line that prints them.
  static let generated: [([String], String)] = [
    (["man"], "data/man/xdg-share.1"),
    (["completion", "bash"], "data/completions/xdg-share.bash"),
    (["completion", "zsh"], "data/completions/_xdg-share"),
    (["completion", "fish"], "data/completions/xdg-share.fish"),
  ]

  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  @Test(arguments: commands)
  func everyHelpPageMatchesItsGoldenFile(_ command: String) throws {
    let result = try Tool.run([command, "--help"], on: desktop)
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    try Snapshot.assertMatches(result.standardOutput, named: "help-\(command)---help")
    // `-h` and `help COMMAND` are the same page.
    #expect(try Tool.run([command, "-h"], on: desktop).standardOutput == result.standardOutput)
    #expect(try Tool.run(["help", command], on: desktop).standardOutput == result.standardOutput)
  }

  @Test func hiddenCommandsAreLeftOutOfTheOverview() throws {
    let overview = try Tool.run(["--help"], on: desktop).standardOutput
    #expect(!overview.contains("completion"))
    #expect(!overview.contains("xdg-share man"))
    #expect(overview.contains("xdg-share daemon [--idle-timeout SECONDS]"))
  }

  /// The "cannot drift" check: edit the tables, then regenerate with RECORD_SNAPSHOTS=1.
  @Test(arguments: generated)
  func generatedFileIsTheCheckedInOne(_ arguments: [String], _ path: String) throws {
    let result = try Tool.run(arguments, on: desktop)
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    try Snapshot.assertMatches(result.standardOutput, file: repositoryRoot.appendingPathComponent(path))
  }

  @Test func anUnknownShellIsAUsageError() throws {
    let result = try Tool.run(["completion", "tcsh"], on: desktop)
    #expect(result.status == 2)
    #expect(
      result.standardError
        == "xdg-share: SHELL: expected bash, zsh or fish, found 'tcsh'. See 'xdg-share completion --help'.\n")
    #expect(result.standardOutput.isEmpty)
  }

  @Test(
    .enabled(if: programPath("man") != nil, "man (man-db) is not installed: the manual page is not rendered"))
  func theManualPageRendersWithoutWarnings() throws {
    let man = try #require(programPath("man"))
    let page = repositoryRoot.appendingPathComponent("data/man/xdg-share.1").path
    let run = try CapturedRun.run(
      [man, "--warnings", "-l", page].map { Array($0.utf8) },
      environment: desktop.environment.merging(["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"]) { $1 })
    #expect(run.status == 0)
    #expect(String(decoding: run.standardError, as: UTF8.self) == "")
    let text = String(decoding: run.standardOutput, as: UTF8.self)
    #expect(text.contains("EXIT STATUS") && text.contains("completion"), "\(text.prefix(400))")
  }

  @Test func theBashCompletionParses() throws {
    try expectParses(shell: "bash", "-n", "data/completions/xdg-share.bash")
  }

  @Test(
    .enabled(
      if: programPath("zsh") != nil, "zsh is not installed: the zsh completion's syntax is not checked"))
  func theZshCompletionParses() throws {
    try expectParses(shell: "zsh", "-n", "data/completions/_xdg-share")
  }

  @Test(
    .enabled(
      if: programPath("fish") != nil, "fish is not installed: the fish completion's syntax is not checked"))
  func theFishCompletionParses() throws {
    try expectParses(shell: "fish", "--no-execute", "data/completions/xdg-share.fish")
  }

  private func expectParses(shell: String, _ flag: String, _ path: String) throws {
    let program = try #require(programPath(shell), "\(shell) is not installed")
    let run = try CapturedRun.run(
      [program, flag, repositoryRoot.appendingPathComponent(path).path].map { Array($0.utf8) },
      environment: desktop.environment)
    #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
    #expect(run.standardError.isEmpty)
  }
}
