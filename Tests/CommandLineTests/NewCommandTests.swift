import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// `xdg-share new --shell|--python|--swift`: each bundle validates and installs as written, and
/// its program completes a real share; `--from-xcode` is in `NewFromXcodeTests`.
@Suite struct NewCommandTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  /// A file whose name has a line break and a byte that is not UTF-8: the program must reach it
  /// by decoding its URL to the exact bytes.
  static let awkwardName: [UInt8] = Array("two\nlines ".utf8) + [0xE9] + Array(".txt".utf8)

  /// What the folder `new` writes into holds, but for `except`.
  func files(except: Set<String> = []) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: desktop.files).filter { !except.contains($0) }
      .sorted()
  }

  /// Validates and installs `bundle` as it is.
  func validateAndInstall(_ bundle: String, id: String, name: String) throws {
    let validated = try Tool.run(["validate", bundle], on: desktop)
    #expect(validated.status == 0)
    #expect(validated.standardOutput == "")
    let installed = try Tool.run(["install", bundle], on: desktop)
    #expect(installed.status == 0, "\(installed.standardError)")
    #expect(
      installed.standardOutput.hasPrefix(
        "Installed \(name) (\(id)) in \(desktop.userExtensions)/\(id).shareext\n"))
  }

  /// Shares the awkward file, a PNG, a link (with a quote) and a text with `id`; returns the
  /// outcome and the request's log.
  func shareEverything(with id: String) throws -> (result: Tool.Result, log: [UInt8]) {
    let awkward = try desktop.writeFile(named: Self.awkwardName, contents: Array("hello\n".utf8))
    let photo = try desktop.writeFile(named: Array("photo.png".utf8), contents: tinyPNG)
    let arguments: [[UInt8]] =
      ["--service", id, "--url", "https://example.org/?q=\"a\"", "--text", "Call Jana back", "--"].map {
        Array($0.utf8)
      } + [awkward, photo]
    let result = try Tool.run(arguments, on: desktop)
    let history = desktop.root + "/state/xdg-share/history"
    let log = try FileManager.default.contentsOfDirectory(atPath: history).first { $0.hasSuffix(".log") }
    let bytes = try log.map { try Data(contentsOf: URL(fileURLWithPath: history + "/" + $0)) } ?? Data()
    return (result, Array(bytes))
  }

  @Test(arguments: [("--shell", "POSIX sh", " links"), ("--python", "Python", " links, 1 texts")])
  func aTemplateValidatesInstallsAndShares(_ option: String, _ language: String, _ summaryEnd: String) throws
  {
    let made = try Tool.run(["new", option, "Tally"], on: desktop)
    #expect(made.status == 0)
    #expect(made.standardError == "")
    #expect(
      made.standardOutput == """
        Wrote Tally.shareext (local.tally): Info.plist and Tally, a program in \(language).
        Next: xdg-share install Tally.shareext, then xdg-share --service local.tally -- FILE

        """)
    #expect(try files() == ["Tally.shareext"])
    try validateAndInstall("Tally.shareext", id: "local.tally", name: "Tally")

    let (shared, log) = try shareEverything(with: "local.tally")
    #expect(shared.status == 0, "\(shared.standardError)")
    // "hello\n" and the 67 bytes of the PNG.
    #expect(shared.standardOutput == "2 files (73 bytes), 1" + summaryEnd + "\n")
    // The log names the file by its exact bytes: the URL was decoded to them.
    let line = Array(desktop.files.utf8) + [UInt8(ascii: "/")] + Self.awkwardName + Array(": 6 bytes\n".utf8)
    #expect(log.firstRange(of: line) != nil, "\(String(decoding: log, as: UTF8.self))")
  }

  @Test func theIdentifierCanBeGiven() throws {
    let made = try Tool.run(
      ["new", "--python", "--identifier", "ch.example.hoi", "Hoi-Share.2"], on: desktop)
    #expect(made.status == 0)
    try validateAndInstall("Hoi-Share.2.shareext", id: "ch.example.hoi", name: "Hoi-Share.2")
    // Without one: local. and the name as a lowercased identifier part.
    #expect(
      try Tool.run(["new", "--shell", "My_Share"], on: desktop).standardOutput.contains("(local.my-share)"))
  }

  @Test func nothingIsWrittenOverWhatIsThere() throws {
    #expect(try Tool.run(["new", "--shell", "Tally"], on: desktop).status == 0)
    let program = desktop.files + "/Tally.shareext/Tally"
    let before = try String(contentsOfFile: program, encoding: .utf8)
    let again = try Tool.run(["new", "--python", "Tally"], on: desktop)
    #expect(again.status == 1)
    #expect(
      again.standardError == "xdg-share: Tally.shareext exists already; remove it, or choose another NAME\n")
    #expect(try String(contentsOfFile: program, encoding: .utf8) == before)
    // --swift writes the folder Tally too: that one in the way is as bad.
    try FileManager.default.createDirectory(
      atPath: desktop.files + "/Stash", withIntermediateDirectories: false)
    let swift = try Tool.run(
      ["new", "--swift", "--sharekit-url", "file:///nowhere/xdg-share", "Stash"], on: desktop)
    #expect(swift.status == 1)
    #expect(swift.standardError == "xdg-share: Stash exists already; remove it, or choose another NAME\n")
    #expect(try files() == ["Stash", "Tally.shareext"])
  }

  @Test(arguments: [
    (["new", "Tally"], "missing what to write: --swift, --shell, --python or --from-xcode INFO_PLIST"),
    (["new", "--shell"], "missing NAME"),
    (["new", "--shell", "--python", "Tally"], "options '--shell' and '--python' cannot be given together"),
    (
      ["new", "--shell", "--define", "A=1", "Tally"],
      "options '--define' and '--shell' cannot be given together"
    ),
    (
      ["new", "--shell", "--sharekit-url", "/x", "T"],
      "options '--sharekit-url' and '--shell' cannot be given together"
    ),
    (["new", "--shell", "A", "B"], "unexpected argument 'B'"),
    (
      ["new", "--shell", "my share"],
      "NAME: expected letters, digits, '.', '_' and '-', starting with a letter or digit, found 'my share'"
    ),
    (["new", "--shell", "-x"], "unknown option '-x' for 'new'"),
  ])
  func usageErrors(_ arguments: [String], _ message: String) throws {
    let result = try Tool.run(arguments, on: desktop)
    #expect(result.status == 2)
    #expect(result.standardError.hasPrefix("xdg-share: " + message), "\(result.standardError)")
    #expect(try files() == [])
  }

  @Test(arguments: [
    (
      ["new", "--shell", "--identifier", "ch.example..hoi", "T"],
      "xdg-share: option '--identifier': expected a reverse-DNS identifier of letters, digits, '.' and '-', such as ch.example.hoi, found 'ch.example..hoi'\n"
    ),
    (
      ["new", "--from-xcode", "x.plist", "--define", "1A=b", "T"],
      "xdg-share: option '--define': expected VAR=VALUE, VAR a build variable's name such as APP_GROUP_IDENTIFIER, found '1A=b'\n"
    ),
  ])
  func malformedValues(_ arguments: [String], _ message: String) throws {
    let result = try Tool.run(arguments, on: desktop)
    #expect(result.status == 2)
    #expect(result.standardError == message)
  }

  /// Without `--sharekit-url`, the package depends on the repository xdg-share was built from.
  @Test func theSwiftPackageDependsOnThisRepositoryByVersion() throws {
    let version = try Tool.run(["--version"], on: desktop).standardOutput.dropFirst("xdg-share ".count)
      .trimmingCharacters(in: .newlines)
    let made = try Tool.run(["new", "--swift", "Tally"], on: desktop)
    #expect(made.status == 0, "\(made.standardError)")
    let root = repositoryRoot.standardizedFileURL.path
    let manifest = try String(contentsOfFile: desktop.files + "/Tally/Package.swift", encoding: .utf8)
    #expect(manifest.contains(#".package(url: "file://\#(root)", from: "\#(version)")"#), "\(manifest)")
    let identity = URL(fileURLWithPath: root).lastPathComponent.lowercased()
    #expect(manifest.contains(#".product(name: "ShareKit", package: "\#(identity)")"#))
    #expect(
      made.standardOutput.hasSuffix(
        "Build it into the bundle (the first build takes a few minutes):\n  Tally/build.sh\n"))
    #expect(try files() == ["Tally", "Tally.shareext"])
    // Before it is built, the bundle validates and its program says how to build it.
    try validateAndInstall("Tally.shareext", id: "local.tally", name: "Tally")
    let unbuilt = try Tool.run(["--service", "local.tally", "--text", "hi"], on: desktop)
    #expect(unbuilt.status == 3)
    #expect(unbuilt.standardError.contains("not built yet: run Tally/build.sh"))
  }

  @Test func aShareKitPathBecomesAnAbsoluteURL() throws {
    let made = try Tool.run(
      ["new", "--swift", "--sharekit-url", "../src/./XDG-Share.git", "Tally"], on: desktop)
    #expect(made.status == 0, "\(made.standardError)")
    let manifest = try String(contentsOfFile: desktop.files + "/Tally/Package.swift", encoding: .utf8)
    let parent = URL(fileURLWithPath: desktop.files).deletingLastPathComponent().path
    #expect(manifest.contains(#".package(url: "file://\#(parent)/src/XDG-Share.git", from: "#), "\(manifest)")
    #expect(manifest.contains(#"package: "xdg-share")"#))
  }

  /// Builds the package `new --swift` writes with the command it prints, against a tagged clone
  /// of this repository (offline, as a plugin author would against a release); then the bundle
  /// serves a real share. A release build of ShareKit: minutes.
  @Test(.timeLimit(.minutes(20)))
  func theSwiftTemplateBuildsIntoTheBundleAndShares() throws {
    let version = try Tool.run(["--version"], on: desktop).standardOutput.dropFirst("xdg-share ".count)
      .trimmingCharacters(in: .newlines)
    let url = try TaggedClone.make(
      at: desktop.root + "/clone/xdg-share", tag: version, environment: desktop.environment)
    let made = try Tool.run(["new", "--swift", "--sharekit-url", url, "Tally"], on: desktop)
    #expect(made.status == 0, "\(made.standardError)")
    let command = try #require(made.standardOutput.split(separator: "\n").last).trimmingCharacters(
      in: .whitespaces)
    #expect(command == "Tally/build.sh")

    let build = try CapturedRun.run(
      [Array((desktop.files + "/" + command).utf8)], environment: desktop.environment,
      workingDirectory: Array(desktop.files.utf8))
    try #require(
      build.status == 0,
      "\(String(decoding: build.standardOutput + build.standardError, as: UTF8.self).suffix(3000))")
    try validateAndInstall("Tally.shareext", id: "local.tally", name: "Tally")
    let (shared, log) = try shareEverything(with: "local.tally")
    #expect(shared.status == 0, "\(shared.standardError)")
    #expect(shared.standardOutput == "2 files (73 bytes), 1 links, 1 texts\n")
    #expect(String(decoding: log, as: UTF8.self).contains("photo.png: 67 bytes"))
  }
}
