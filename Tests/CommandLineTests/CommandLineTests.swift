import Foundation
import ShareTestSupport
import Testing

/// Help, version, usage errors and exit codes; help texts are golden files in `Snapshots/`.
@Suite struct CommandLineTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  @Test(arguments: [["--help"], ["list", "--help"], ["validate", "--help"], ["help", "list"]])
  func helpMatchesItsGoldenFile(_ arguments: [String]) throws {
    let result = try Tool.run(arguments, on: desktop)
    #expect(result.status == 0)
    try Snapshot.assertMatches(result.standardOutput, named: "help-" + arguments.joined(separator: "-"))
  }

  @Test func aMistypedCommandIsAFileToShareButTheMessageHelps() throws {
    let result = try Tool.run(["lst"], on: desktop)
    #expect(result.status == 1)
    #expect(
      result.standardError
        == "xdg-share: \(desktop.files)/lst: no such file or directory (did you mean the command 'list'?)\n")
  }

  @Test func version() throws {
    let result = try Tool.run(["--version"], on: desktop)
    #expect(result.status == 0)
    #expect(result.standardOutput.hasPrefix("xdg-share "))
  }

  @Test(arguments: [
    (["--hepl"], "xdg-share: unknown option '--hepl'. Did you mean '--help'? See 'xdg-share --help'.\n"),
    (
      ["list", "--jsn"],
      "xdg-share: unknown option '--jsn' for 'list'. Did you mean '--json'? See 'xdg-share list --help'.\n"
    ),
    (["list", "--text"], "xdg-share: option '--text' needs a value\n"),
    (["list", "--json=yes"], "xdg-share: option '--json' takes no value\n"),
    (["validate"], "xdg-share: missing PATH. See 'xdg-share validate --help'.\n"),
    (
      ["list", "--url", "not a url"],
      "xdg-share: option '--url': expected an absolute URL such as https://example.org/, found 'not a url'\n"
    ),
  ])
  func usageErrorsExitWithTwo(_ arguments: [String], _ message: String) throws {
    let result = try Tool.run(arguments, on: desktop)
    #expect(result.status == 2)
    #expect(result.standardError == message)
    #expect(result.standardOutput.isEmpty)
  }
}

@Suite struct OptionValueTests {
  @Test func aValueThatLooksLikeHelpIsAValue() throws {
    let desktop = try TemporaryDesktop()
    try BundleFixture(id: "com.example.text", name: "Text", ruleXML: BundleFixture.predicate("TRUEPREDICATE"))
      .write(into: desktop.userExtensions)
    let result = try Tool.run(["list", "--text", "-h"], on: desktop)
    #expect(result.status == 0)
    #expect(result.standardOutput.hasPrefix("com.example.text"))
    let missing = try Tool.run(["list", "--text", "--", "a.txt"], on: desktop)
    #expect(missing.status == 2)
    #expect(missing.standardError == "xdg-share: option '--text' needs a value\n")
  }
}
