import ShareCore
import Testing

@testable import ShareCommandLine

/// What each command line means, and how a wrong one is refused and worded.
@Suite struct ParserTests {
  static func parse(_ words: [String]) throws(UsageError) -> Command {
    try Parser.parse(words.map { Array($0.utf8) })
  }

  @Test func itemsKeepTheirOrderAmongFilesTextsAndLinks() throws {
    let command = try Self.parse(["list", "a.png", "--text", "hi", "--url", "https://x.org/", "--", "--b"])
    #expect(
      command
        == .list(
          ListOptions(
            json: false,
            selection: SelectionArguments(items: [
              .file(FilePath("a.png")), .text("hi"), .webURL("https://x.org/"), .file(FilePath("--b")),
            ]))))
  }

  @Test func theShortFormIsShare() throws {
    let command = try Self.parse(["--service", "org.example.a", "--", "photo.png"])
    var options = ShareOptions()
    options.service = "org.example.a"
    options.selection.items = [.file(FilePath("photo.png"))]
    #expect(command == .share(options))
  }

  @Test func aFileURLIsTheFile() throws {
    let command = try Self.parse(["list", "--url", "file:///tmp/a%20b.png"])
    #expect(
      command == .list(ListOptions(selection: SelectionArguments(items: [.file(FilePath("/tmp/a b.png"))]))))
  }

  @Test func pathsAfterTheSeparatorAreBytes() throws {
    let name: [UInt8] = [0x66, 0xFF, 0x2E, 0x70, 0x6E, 0x67]  // "f\xFF.png"
    let command = try Parser.parse([Array("validate".utf8), Array("--".utf8), name])
    #expect(command == .validate(paths: [FilePath(bytes: name)]))
  }

  @Test func textMayLookLikeAnOption() throws {
    let command = try Self.parse(["share", "--text", "-h"])
    var options = ShareOptions()
    options.selection.items = [.text("-h")]
    #expect(command == .share(options))
  }

  @Test(
    arguments: [
      (["share"], UsageError.missingArgument(.somethingToShare, command: .share)),
      (["validate"], .missingArgument(.operand("PATH"), command: .validate)),
      (["retry"], .missingArgument(.operand("ID"), command: .retry)),
      (["retry", ""], .missingArgument(.operand("ID"), command: .retry)),
      (["retry", "a", "b"], .unexpectedArgument("b", command: .retry)),
      (["group"], .missingArgument(.groupAction, command: .group)),
      (["group", "list"], .unexpectedArgument("list", command: .group)),
      (["install", "--json", "x"], .unexpectedArgument("--json", command: .install)),
      (["new", "Demo"], .missingArgument(.template, command: .new)),
      (["new", "--swift", "--python", "Demo"], .conflictingOptions("--swift", "--python", command: .new)),
      (
        ["new", "--swift", "--define", "A=b", "Demo"],
        .conflictingOptions("--define", "--swift", command: .new)
      ),
      (
        ["new", "--swift", ".hidden"],
        .invalidArgument("NAME", value: ".hidden", expected: .bundleName, command: .new)
      ),
      (
        ["daemon", "--idle-timeout", "-1"],
        .invalidValue(option: "--idle-timeout", value: "-1", expected: .secondsOrNever)
      ),
      (
        ["daemon", "--idle-timeout", "inf"],
        .invalidValue(option: "--idle-timeout", value: "inf", expected: .secondsOrNever)
      ),
      (["configure", "--set", "=v", "x"], .invalidValue(option: "--set", value: "=v", expected: .setting)),
      (
        ["list", "--url", "example.org"],
        .invalidValue(option: "--url", value: "example.org", expected: .absoluteURL)
      ),
      (
        ["completion", "tcsh"],
        .invalidArgument(
          "SHELL", value: "tcsh", expected: .oneOf(["bash", "zsh", "fish"]), command: .completion)
      ),
      (["man", "extra"], .unexpectedArgument("extra", command: .man)),
      (["history", "extra"], .unexpectedArgument("extra", command: .history)),
      (["--version", "x"], .unexpectedArgument("x", command: nil)),
    ] as [([String], UsageError)])
  func refusals(_ words: [String], _ expected: UsageError) {
    #expect(throws: expected) { try Self.parse(words) }
  }

  @Test func aMisspelledCommandIsAFileOfTheShortForm() throws {
    // `xdg-share lsit` shares a file named lsit: the short form takes any word as a file.
    #expect(throws: Never.self) { try Self.parse(["lsit"]) }
  }

  /// Each error as a user reads it: the words the earlier issues fixed, from the one place that
  /// words them.
  @Test(
    arguments: [
      (
        UsageError.missingArgument(.somethingToShare, command: .share),
        "missing something to share (FILE, --text or --url). See 'xdg-share share --help'."
      ),
      (
        .missingArgument(.groupAction, command: .group),
        "missing ACTION (path). See 'xdg-share group --help'."
      ),
      (
        .missingArgument(.template, command: .new),
        "missing what to write: --swift, --shell, --python or --from-xcode INFO_PLIST. See 'xdg-share new --help'."
      ),
      (
        .invalidValue(option: "--idle-timeout", value: "x", expected: .secondsOrNever),
        "option '--idle-timeout': expected a number of seconds (0: never), found 'x'"
      ),
      (
        .invalidEnvironmentValue(variable: "XDG_SHARE_IDLE_TIMEOUT", value: "x", expected: .secondsOrNever),
        "environment variable XDG_SHARE_IDLE_TIMEOUT: expected a number of seconds (0: never), found 'x'"
      ),
      (
        .invalidArgument(
          "SHELL", value: "tcsh", expected: .oneOf(["bash", "zsh", "fish"]), command: .completion),
        "SHELL: expected bash, zsh or fish, found 'tcsh'. See 'xdg-share completion --help'."
      ),
      (
        .unknownOption("--jsn", command: .list, suggestion: "--json"),
        "unknown option '--jsn' for 'list'. Did you mean '--json'? See 'xdg-share list --help'."
      ),
    ] as [(UsageError, String)])
  func wording(_ error: UsageError, _ words: String) {
    #expect(Usage.message(for: error) == words)
  }

  /// Every form of value has words, and none is empty.
  @Test func everyExpectedValueIsWorded() {
    let forms: [ExpectedValue] = [
      .secondsOrNever, .setting, .definition, .absoluteURL, .bundleIdentifier, .repository, .bundleName,
      .oneOf(["a", "b"]),
    ]
    for form in forms { #expect(!Usage.describe(form).isEmpty) }
  }

  /// The help of every command comes from its row, and lists each option the row has.
  @Test(arguments: CommandTable.commands.map(\.name))
  func helpListsEveryOptionOfTheRow(_ name: CommandName) {
    let spec = CommandTable.spec(for: name)
    let help = Usage.help(for: name)
    #expect(help.contains(spec.usage))
    if spec.listsOptions {
      for option in spec.options { #expect(help.contains(option.synopsis), "\(option.name)") }
    }
  }
}
