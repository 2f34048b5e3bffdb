import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// The checked-in bash completion (the tool's own output, see `GeneratedDocsTests`), run by bash
/// with bash-completion's functions, as a terminal would run it: the completion function that
/// `complete -p xdg-share` names is called on the words, and what it leaves in COMPREPLY is the answer.
@Suite struct CompletionTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  /// Sources bash-completion ($1) and the script ($2); the other arguments are the words, the last
  /// one being completed with the cursor at its end.
  static let harness = """
    source "$1" || exit 90
    source "$2" || exit 91
    shift 2
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    spec=$(complete -p xdg-share) || exit 92
    function=${spec#*-F }
    function=${function%% *}
    "$function" xdg-share "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf '%s\\n' "${COMPREPLY[@]}"
    """

  static let bashCompletion = "/usr/share/bash-completion/bash_completion"

  /// What bash offers for `xdg-share WORDS…`, completing the last word.
  private func complete(_ words: [String]) throws -> [String] {
    try #require(
      FileManager.default.fileExists(atPath: Self.bashCompletion),
      "bash-completion is not installed (install.sh --test installs it)")
    let bash = try #require(programPath("bash"))
    var environment = desktop.environment
    // `command xdg-share` in the script is the binary under test.
    let binaries = URL(fileURLWithPath: Tool.path).deletingLastPathComponent().path
    environment["PATH"] = binaries + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    let script = repositoryRoot.appendingPathComponent("data/completions/xdg-share.bash").path
    let run = try CapturedRun.run(
      ([bash, "-c", Self.harness, "bash", Self.bashCompletion, script, "xdg-share"] + words).map {
        Array($0.utf8)
      }, environment: environment, workingDirectory: Array(desktop.files.utf8))
    #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
    #expect(run.standardError.isEmpty, "\(String(decoding: run.standardError, as: UTF8.self))")
    return String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  @Test func theFirstWordCompletesACommand() throws {
    #expect(try complete(["l"]) == ["list"])
    #expect(try complete(["un"]) == ["uninstall", "unregister"])
  }

  @Test func aCommandsOptionsComplete() throws {
    #expect(try complete(["list", "--j"]) == ["--json"])
    #expect(try complete(["daemon", "--"]) == ["--idle-timeout", "--help"])
    #expect(try complete(["--v"]) == ["--version"])
  }

  @Test func serviceIDsComeFromTheInstalledServices() throws {
    for id in ["com.example.alpha", "com.example.beta"] {
      try BundleFixture(id: id, name: id, ruleXML: BundleFixture.predicate("TRUEPREDICATE"))
        .write(into: desktop.userExtensions)
    }
    #expect(try complete(["--service", ""]).sorted() == ["com.example.alpha", "com.example.beta"])
    #expect(try complete(["--service=com.example.a"]) == ["com.example.alpha"])
    #expect(try complete(["share", "--json", "--service", "com.example.b"]) == ["com.example.beta"])
    #expect(try complete(["uninstall", "com"]).sorted() == ["com.example.alpha", "com.example.beta"])
    // uninstall takes one ID.
    #expect(try complete(["uninstall", "com.example.alpha", ""]) == [])
  }

  @Test func retryOffersTheRequestsItCanRunAgain() throws {
    let history = "\(desktop.root)/state/xdg-share/history"
    try FileManager.default.createDirectory(atPath: history, withIntermediateDirectories: true)
    for (id, status) in [("0a0a0a0a", "failed"), ("0c0c0c0c", "completed")] {
      try """
      {"id": "\(id)-0000-4000-8000-000000000001", "serviceId": "com.example.echo", "serviceName": "echo",
       "items": [{"text": "hello"}], "started": "2026-11-29T10:00:00.000Z",
       "finished": "2026-11-29T10:00:01.000Z", "status": "\(status)"}
      """.write(
        toFile: "\(history)/\(id)-0000-4000-8000-000000000001.json", atomically: true, encoding: .utf8)
    }
    #expect(try Tool.run(["history"], on: desktop).standardOutput.split(separator: "\n").count == 2)
    #expect(try complete(["retry", ""]) == ["0a0a0a0a"])
    #expect(try complete(["retry", "--json", "0"]) == ["0a0a0a0a"])
  }

  @Test func filesCompleteAfterTheSeparatorEvenWhenTheyLookLikeOptions() throws {
    try desktop.writeFile(named: "a file.txt", contents: "a")
    try desktop.writeFile(named: "-odd.txt", contents: "b")
    #expect(try complete(["--", ""]).sorted() == ["-odd.txt", "a file.txt"])
    #expect(try complete(["--", "-"]) == ["-odd.txt"])
    #expect(try complete(["list", "--json", "--", "a"]) == ["a file.txt"])
    // Before `--`, a dash starts an option.
    #expect(try complete(["list", "-"]) == ["--text", "--url", "--json", "--help", "--"])
  }

  @Test func anOptionsValueIsNotAFileOrAnOption() throws {
    try desktop.writeFile(named: "notes.txt", contents: "a")
    #expect(try complete(["list", "--text", ""]) == [])
    #expect(try complete(["list", "--text", "--"]) == [])
    // `--text --` lacks its text: `--` still ends the options, and files follow.
    #expect(try complete(["list", "--text", "--", ""]) == ["notes.txt"])
    #expect(try complete(["list", "--text", "x", ""]) == ["notes.txt"])
  }

  @Test func fixedWordsComplete() throws {
    #expect(try complete(["completion", ""]) == ["bash", "zsh", "fish"])
    #expect(try complete(["group", ""]) == ["path"])
    #expect(try complete(["group", "path", ""]) == [])
  }

  @Test func everyCommandIsAHelpTopic() throws {
    #expect(try complete(["help", ""]) == GeneratedDocsTests.commands)
    #expect(try complete(["--help", "re"]) == ["retry", "register"])
  }

  /// Usage lines are written out in the table beside the options; they must name the same ones.
  @Test(arguments: GeneratedDocsTests.commands)
  func theUsageLineNamesEveryOptionThatCompletes(_ command: String) throws {
    let offered = Set(try complete([command, "--"])).subtracting(["--help", "--"])
    let usage = try #require(
      try Tool.run([command, "--help"], on: desktop).standardOutput.split(separator: "\n").first)
    let named = Set(
      usage.split(separator: " ").compactMap { word -> String? in
        let option = word.drop { $0 == "[" || $0 == "(" }.prefix { $0 == "-" || $0.isLetter }
        return option.hasPrefix("--") && option.count > 2 ? String(option) : nil
      })
    #expect(offered == named, "\(usage)")
  }
}
