import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// What `share` says of what a newcomer tries first (issue 32): a name that is not UTF-8 in
/// `--json`, an empty `--text`, a service that is not there.
@Suite struct ShareWordsTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  /// A service taking anything whose program prints `event` and exits.
  func service(_ id: String, event: String) throws {
    try BundleFixture(
      id: id, name: "Any", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      program: "#!/bin/sh\ncat >/dev/null\ncat <<'EOF'\n\(event)\nEOF\n"
    ).write(into: desktop.userExtensions)
  }

  func object(_ result: Tool.Result) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
  }

  /// A file returned under a name that is not UTF-8 (Save to Folder's `café (2).png` in Latin-1):
  /// its `name` is given with the escapes every printed name has, as `list --json` gives a bundle
  /// folder, not with U+FFFD in place of the byte; its `url` keeps the bytes as it did.
  @Test func aReturnedNameThatIsNotUTF8IsGivenLosslessly() throws {
    let url = "file://\(desktop.files)/caf%E9%20(2).png"
    try service(
      "com.example.save",
      event:
        #"{"complete": {"returningItems": [{"attachments": [{"typeIdentifiers": ["public.png"], "url": "\#(url)", "name": "caf\ufffd (2).png"}]}]}}"#
    )
    try desktop.writeFile(named: "a.txt", contents: "a")
    let result = try Tool.run(["--service", "com.example.save", "--json", "a.txt"], on: desktop)
    #expect(result.status == 0, "\(result.standardError)")
    let items = try #require(try object(result)["returningItems"] as? [[String: Any]])
    let attachment = try #require((items.first?["attachments"] as? [[String: Any]])?.first)
    #expect(attachment["name"] as? String == #"caf\xe9 (2).png"#)
    #expect(attachment["url"] as? String == url)
    #expect(!result.standardOutput.contains("\\ufffd") && !result.standardOutput.contains("\u{FFFD}"))
  }

  /// A UTF-8 name is given as the service returned it.
  @Test func aReturnedUTF8NameIsAsReturned() throws {
    let url = "file://\(desktop.files)/caf%C3%A9%20(2).png"
    try service(
      "com.example.save",
      event:
        #"{"complete": {"returningItems": [{"attachments": [{"typeIdentifiers": ["public.png"], "url": "\#(url)", "name": "café (2).png"}]}]}}"#
    )
    try desktop.writeFile(named: "a.txt", contents: "a")
    let result = try Tool.run(["--service", "com.example.save", "--json", "a.txt"], on: desktop)
    let items = try #require(try object(result)["returningItems"] as? [[String: Any]])
    let attachment = try #require((items.first?["attachments"] as? [[String: Any]])?.first)
    #expect(attachment["name"] as? String == "café (2).png")
  }

  /// `--text ""` is nothing to share: a usage error (2), not an empty `Text.txt` shared.
  @Test(arguments: [["--service", "com.example.any"], ["list"], []])
  func anEmptyTextIsAUsageError(_ before: [String]) throws {
    try service("com.example.any", event: #"{"complete": {}}"#)
    let result = try Tool.run(before + ["--text", ""], on: desktop)
    #expect(result.status == 2)
    #expect(
      result.standardError == "xdg-share: option '--text': expected a text that is not empty, found ''\n")
    #expect(result.standardOutput.isEmpty)
    let history = "\(desktop.root)/state/xdg-share/history"
    #expect((try? FileManager.default.contentsOfDirectory(atPath: history))?.isEmpty ?? true)
  }

  /// An unknown service with `--json` says what exit status 6 says, "no such service", not the
  /// "refused" of a service that refuses the items (7).
  @Test func anUnknownServiceSaysNoSuchServiceInJSON() throws {
    let result = try Tool.run(["--service", "com.example.nope", "--json", "--text", "hi"], on: desktop)
    #expect(result.status == 6)
    let object = try object(result)
    #expect(object["status"] as? String == "no-such-service")
    #expect(object["message"] as? String == "no share service 'com.example.nope'")
  }
}
