import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// The declarative compose sheet end to end: a shell-script bundle declaring
/// `XDGShareComposeSheet`, the built `xdg-share`, and a fake `xdg-share-sheet` (`XDG_SHARE_SHEET`).
@Suite struct ComposeTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  var state: String { "\(desktop.root)/state" }

  /// The plugin keeps its request, then completes; it fails instead while `$XDG_STATE_HOME/fail`
  /// exists.
  static let program = #"""
    #!/bin/sh
    cat > "$XDG_STATE_HOME/request-$XDG_SHARE_SERVICE_ID.json"
    if [ -e "$XDG_STATE_HOME/fail" ]; then exit 1; fi
    echo '{"complete": {}}'
    """#

  static func item(_ identifier: String, _ title: String, _ extra: String = "") -> String {
    "<dict><key>Identifier</key><string>\(identifier)</string><key>Title</key><string>\(title)</string>\(extra)</dict>"
  }

  static let visibility = item(
    "visibility", "Visibility",
    "<key>Choices</key><array><string>Public</string><string>Followers</string></array>"
      + "<key>Default</key><string>Followers</string>")

  /// Installs `id` with a compose sheet of `items`.
  func install(_ id: String, items: [String]) throws {
    try BundleFixture(
      id: id, name: "Micro", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      extraXML: """
        <key>XDGShareComposeSheet</key><dict>
          <key>Title</key><string>Microblog</string>
          <key>MaximumCharacters</key><integer>100</integer>
          <key>ConfigurationItems</key><array>\(items.joined())</array>
        </dict>
        """, program: Self.program, entitlements: [.unconfined]
    ).write(into: desktop.userExtensions)
  }

  func compose(of id: String) throws -> [String: Any]? {
    let data = try Data(contentsOf: URL(fileURLWithPath: "\(state)/request-\(id).json"))
    let request = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return request["compose"] as? [String: Any]
  }

  /// A fake sheet that records how it was started and what it read, then runs `body`.
  func fakeSheet(_ body: String) throws -> [String: String] {
    let path = "\(desktop.root)/fake-sheet"
    try """
    #!/bin/sh
    printf '%s\\n' "$@" > "$XDG_STATE_HOME/sheet-arguments"
    cat > "$XDG_STATE_HOME/sheet-input"
    \(body)
    """.write(toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    return ["XDG_SHARE_SHEET": path, "DISPLAY": ":99"]
  }

  @Test func withoutADisplayTheDefaultsAreSentAndRemembered() throws {
    try install(
      "org.example.micro",
      items: [Self.visibility, Self.item("folder", "Folder", "<key>Default</key><string>/</string>")])
    let result = try Tool.run(["--service", "org.example.micro", "--text", "hi"], on: desktop)
    #expect(result.status == 0, "\(result.standardError)")
    let compose = try #require(try compose(of: "org.example.micro"))
    #expect(compose["contentText"] as? String == "hi")
    #expect(compose["configuration"] as? [String: String] == ["visibility": "Followers", "folder": "/"])
    let remembered = try String(
      contentsOfFile: "\(desktop.root)/config/xdg-share/configuration/org.example.micro.json", encoding: .utf8
    )
    #expect(remembered.contains(#""visibility" : "Followers""#))
  }

  @Test func aServiceWithoutSheetGetsNoCompose() throws {
    try BundleFixture(
      id: "org.example.plain", name: "Plain", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      program: Self.program, entitlements: [.unconfined]
    ).write(into: desktop.userExtensions)
    let result = try Tool.run(
      ["--service", "org.example.plain", "--text", "hi"], on: desktop, environment: try fakeSheet("exit 3"))
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try compose(of: "org.example.plain") == nil)
    #expect(!FileManager.default.fileExists(atPath: "\(state)/sheet-arguments"))
  }

  @Test func aValueWithoutDefaultStopsTheShareUntilConfigureGivesIt() throws {
    try install("org.example.micro", items: [Self.visibility, Self.item("server", "Server")])
    let refused = try Tool.run(["--service", "org.example.micro", "--text", "hi"], on: desktop)
    #expect(refused.status == 1)
    #expect(
      refused.standardError.contains(
        "Micro needs 'Server' before it can share; give it with 'xdg-share configure org.example.micro'"))
    #expect(!FileManager.default.fileExists(atPath: "\(state)/request-org.example.micro.json"))

    // Without a terminal and without --set: what is missing is named, with the --set to give it.
    let nothing = try Tool.run(["configure", "org.example.micro"], on: desktop)
    #expect(nothing.status == 1)
    #expect(nothing.standardError.contains("still without a value: Server (--set server=VALUE)"))

    let unknown = try Tool.run(["configure", "--set", "sever=x", "org.example.micro"], on: desktop)
    #expect(unknown.status == 2)
    #expect(unknown.standardError.contains("Micro has no configuration item 'sever'; did you mean 'server'?"))
    let notAChoice = try Tool.run(["configure", "--set", "visibility=All", "org.example.micro"], on: desktop)
    #expect(notAChoice.status == 2)
    #expect(
      notAChoice.standardError.contains("'All' is not a choice of 'Visibility' ('Public' or 'Followers')"))
    let malformed = try Tool.run(["configure", "--set", "server", "org.example.micro"], on: desktop)
    #expect(malformed.status == 2)

    let configured = try Tool.run(
      [
        "configure", "--set", "server=https://dav.example/", "--set", "visibility=Public",
        "org.example.micro",
      ],
      on: desktop)
    #expect(configured.status == 0, "\(configured.standardError)")
    let shared = try Tool.run(["--service", "org.example.micro", "--text", "hi"], on: desktop)
    #expect(shared.status == 0, "\(shared.standardError)")
    #expect(
      try compose(of: "org.example.micro")?["configuration"] as? [String: String]
        == ["visibility": "Public", "server": "https://dav.example/"])
  }

  @Test func configureNamesAServiceWithoutItemsAndAnUnknownOne() throws {
    try BundleFixture(
      id: "org.example.plain", name: "Plain", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      program: Self.program, entitlements: [.unconfined]
    ).write(into: desktop.userExtensions)
    let plain = try Tool.run(["configure", "org.example.plain"], on: desktop)
    #expect(plain.status == 1)
    #expect(plain.standardError.contains("Plain (org.example.plain) has no configuration items"))
    let unknown = try Tool.run(["configure", "org.example.plane"], on: desktop)
    #expect(unknown.status == 6)
    #expect(unknown.standardError.contains("did you mean 'org.example.plain'?"))
  }

  @Test func theSheetsAnswerIsSentAndItsSecretIsNeverRecorded() throws {
    try install(
      "org.example.micro",
      items: [Self.visibility, Self.item("password", "Password", "<key>Secure</key><true/>")])
    let sheet = try fakeSheet(
      #"echo '{"compose": {"contentText": "edited", "configuration": {"visibility": "Public", "password": "hunter2"}}}' >&3"#
    )
    let file = try desktop.writeFile(named: "a.txt", contents: "x")
    let result = try Tool.run(
      ["share", "--service", "org.example.micro", "--text", "hi", file], on: desktop, environment: sheet)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      try String(contentsOfFile: "\(state)/sheet-arguments", encoding: .utf8)
        == "--compose\norg.example.micro\n--result-fd\n3\n--text\nhi\n--\n\(file)\n")
    let input =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: "\(state)/sheet-input"))) as? [String: [String: Any]]
    #expect(input?["compose"]?["contentText"] as? String == "hi")
    #expect(input?["compose"]?["configuration"] as? [String: String] == ["visibility": "Followers"])

    let compose = try #require(try compose(of: "org.example.micro"))
    #expect(compose["contentText"] as? String == "edited")
    #expect(compose["configuration"] as? [String: String] == ["visibility": "Public", "password": "hunter2"])

    let history = try Tool.run(["history", "--json"], on: desktop)
    #expect(history.standardOutput.contains(#""contentText" : "edited""#))
    #expect(!history.standardOutput.contains("hunter2"))
    for folder in ["\(state)/xdg-share/history", "\(desktop.root)/config/xdg-share"] {
      let files = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
      #expect(!files.isEmpty)
      for name in files {
        let text = (try? String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8)) ?? ""
        #expect(!text.contains("hunter2"), "\(name)")
      }
    }
    #expect(!result.standardError.contains("hunter2"))
  }

  @Test func cancelInTheSheetCancelsTheShare() throws {
    try install("org.example.micro", items: [Self.visibility])
    let result = try Tool.run(
      ["--service", "org.example.micro", "--text", "hi"], on: desktop, environment: try fakeSheet("exit 3"))
    #expect(result.status == 3)
    #expect(result.standardError == "xdg-share: cancelled\n")
    #expect(!FileManager.default.fileExists(atPath: "\(state)/request-org.example.micro.json"))
    let json = try Tool.run(
      ["--json", "--service", "org.example.micro", "--text", "hi"], on: desktop,
      environment: try fakeSheet("exit 3"))
    #expect(json.status == 3)
    let summary = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: String]
    #expect(summary == ["status": "cancelled", "message": "cancelled"])
  }

  @Test func aSheetThatDiesIsAFailure() throws {
    try install("org.example.micro", items: [Self.visibility])
    let result = try Tool.run(
      ["--service", "org.example.micro", "--text", "hi"], on: desktop, environment: try fakeSheet("exit 9"))
    #expect(result.status == 1)
    #expect(result.standardError.contains("the compose sheet ended without an answer (exit status 9)"))
  }

  @Test func retrySendsTheRecordedValuesWithoutASheet() throws {
    try install("org.example.micro", items: [Self.visibility])
    try "".write(toFile: "\(state)/fail", atomically: true, encoding: .utf8)
    let sheet = try fakeSheet(
      #"echo '{"compose": {"contentText": "edited", "configuration": {"visibility": "Public"}}}' >&3"#)
    let failed = try Tool.run(
      ["--service", "org.example.micro", "--text", "hi"], on: desktop, environment: sheet)
    #expect(failed.status == 4)
    try FileManager.default.removeItem(atPath: "\(state)/fail")
    try FileManager.default.removeItem(atPath: "\(state)/request-org.example.micro.json")
    // The remembered value changes meanwhile: the retry still sends what the request had.
    #expect(
      try Tool.run(["configure", "--set", "visibility=Followers", "org.example.micro"], on: desktop).status
        == 0)
    let id = try #require(
      try Tool.run(["history"], on: desktop).standardOutput.split(separator: " ").first.map(String.init))
    let retried = try Tool.run(["retry", id], on: desktop, environment: try fakeSheet("exit 3"))
    #expect(retried.status == 0, "\(retried.standardError)")
    let compose = try #require(try compose(of: "org.example.micro"))
    #expect(compose["contentText"] as? String == "edited")
    #expect(compose["configuration"] as? [String: String] == ["visibility": "Public"])
  }
}

/// `configure` on a terminal: a pseudo-terminal driven by Python's `pty`.
@Suite struct ConfigureOnATerminalTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  /// Runs `xdg-share configure ID` on a pseudo-terminal, typing each of `answers` once the output
  /// has gone quiet; returns everything the terminal showed and the exit status.
  func configure(_ id: String, answers: [String]) throws -> (transcript: String, status: Int32) {
    let driver = """
      import os, pty, sys, time, select
      pid, fd = pty.fork()
      if pid == 0:
          os.execv(sys.argv[1], sys.argv[1:])
      out = b""
      def drain(timeout):
          global out
          while True:
              ready, _, _ = select.select([fd], [], [], timeout)
              if not ready: return True
              try: chunk = os.read(fd, 4096)
              except OSError: return False
              if not chunk: return False
              out += chunk
      for answer in sys.stdin.read().split("\\n")[:-1]:
          if not drain(0.5): break
          os.write(fd, answer.encode() + b"\\n")
      drain(2)
      _, status = os.waitpid(pid, 0)
      sys.stdout.write(out.decode("utf-8", "replace"))
      sys.exit(os.waitstatus_to_exitcode(status))
      """
    let run = try CapturedRun.run(
      ["/usr/bin/python3", "-c", driver, Tool.path, "configure", id].map { Array($0.utf8) },
      environment: desktop.environment, workingDirectory: Array(desktop.files.utf8),
      input: Array(answers.map { $0 + "\n" }.joined().utf8))
    return (String(decoding: run.standardOutput, as: UTF8.self), run.status)
  }

  @Test func eachItemIsAskedWithItsChoicesAndCurrentValue() throws {
    try BundleFixture(
      id: "org.example.micro", name: "Micro", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      extraXML: """
        <key>XDGShareComposeSheet</key><dict><key>ConfigurationItems</key><array>
          \(ComposeTests.visibility)
          \(ComposeTests.item("server", "Server", "<key>Default</key><string>https://old/</string>"))
          \(ComposeTests.item("password", "Password", "<key>Secure</key><true/>"))
        </array></dict>
        """, program: ComposeTests.program, entitlements: [.unconfined]
    ).write(into: desktop.userExtensions)
    // A wrong answer, then a number; Enter keeps the server; the password is typed unseen.
    let (transcript, _) = try configure("org.example.micro", answers: ["7", "1", "", "s3cret"])
    #expect(transcript.contains("Visibility\r\n  1. Public\r\n  2. Followers\r\nVisibility [Followers]: "))
    #expect(transcript.contains("'7' is none of them: type a number from 1 to 2, or the choice itself"))
    #expect(transcript.contains("Server [https://old/]: "))
    #expect(transcript.contains("Password (kept in the Secret Service, typed without echo)"))
    #expect(!transcript.contains("s3cret"))
    let remembered = try String(
      contentsOfFile: "\(desktop.root)/config/xdg-share/configuration/org.example.micro.json", encoding: .utf8
    )
    #expect(remembered.contains(#""visibility" : "Public""#))
    #expect(remembered.contains(#""server" : "https://old/""#))
    #expect(!remembered.contains("s3cret"))
  }
}
