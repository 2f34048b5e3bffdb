import Foundation
import ShareTestSupport
import Testing

/// ShareByMail (examples/ShareByMail), the seed's "Share this" sheet ported: built, installed from
/// the example's folder, opened by `xdg-share share` and driven through AT-SPI by accessible names.
/// A fake `xdg-email` on `PATH` records what the mail program would have been given: the host's
/// broker starts it (`xdg-email --utf8 …`), which the sandboxed extension asks to compose the mail.
@Suite(.serialized, .enabled(if: ComposeHarness.missing.isEmpty, ComposeHarness.skipReason))
struct ShareByMailUITests {
  static let id = "com.martinnormark.ShareByMail.ShareExtension"
  let examples: ExampleDesktop
  let bundle: String

  init() throws {
    examples = try ExampleDesktop()
    bundle = try examples.install("ShareByMail", id: Self.id)
  }

  @Test func savePutsThePictureInAMailWithTheSubjectOnce() throws {
    let run = try examples.share(
      app: "ShareByMail", ["share", "--service", Self.id, examples.picture],
      then: [
        "wait-presented", "labels", "buttons", "sensitive", "Save",
        "field", "To", "field", "Subject", "field", "Message",
        "set", "To", "ada@example.org", "set", "Subject", "The lake", "set", "Message", "Look at this.",
        "press", "Save", "wait-window-gone",
      ])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.labels.first?.contains("Share this") == true, "\(run.labels)")
    #expect(run.buttons == [["Cancel", "Save"]])
    #expect(run.sensitive == ["Save true"])
    // Prefilled from what is shared: the file's name as the subject, nothing else to say.
    #expect(run.fields.map(\.0) == ["To", "Subject", "Message"])
    #expect(run.fields.map(\.1) == ["", "pic.png", ""])
    #expect(run.exitStatus == 0, "\(run.output)")
    #expect(
      examples.mails == [
        [
          "--utf8", "--subject", "The lake", "--body", "Look at this.", "--attach", examples.picture,
          "ada@example.org",
        ]
      ])
    examples.expectSlides()
  }

  @Test func aLinkGoesIntoTheBody() throws {
    let link = "https://example.org/lake?size=large"
    let run = try examples.share(
      app: "ShareByMail", ["share", "--service", Self.id, "--url", link],
      then: ["field", "Subject", "field", "Message", "press", "Save", "wait-window-gone"])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.fields.map(\.1) == [link, link], "\(run.output)")
    #expect(run.exitStatus == 0, "\(run.output)")
    #expect(examples.mails == [["--utf8", "--subject", link, "--body", link]])
  }

  @Test func cancelCancelsAndNoMailIsComposed() throws {
    let run = try examples.share(
      app: "ShareByMail", ["share", "--service", Self.id, examples.picture],
      then: ["wait-presented", "press", "Cancel", "wait-window-gone"])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.exitStatus == 3, "Cancel ends the request as cancelled")
    #expect(examples.mails.isEmpty)
    examples.expectSlides()
  }

  @Test func anAddressThatWouldBeAnOptionTurnsSaveOff() throws {
    let run = try examples.share(
      app: "ShareByMail", ["share", "--service", Self.id, examples.picture],
      then: [
        "wait-presented", "set", "To", "--help", "wait-sensitive", "Save", "false", "sensitive", "Save",
        "set", "To", "ada@example.org, bo@example.org", "wait-sensitive", "Save", "true", "sensitive", "Save",
        "key", "Escape", "wait-window-gone",
      ])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.sensitive == ["Save false", "Save true"])
    #expect(run.exitStatus == 3)
    #expect(examples.mails.isEmpty)
  }

  /// The seed's `NSExtension` has no `NSExtensionAttributes`: it validates with a warning and the
  /// service is offered for everything.
  @Test func theSeedsDictionaryValidatesWithAWarningAndIsOfferedForEverything() throws {
    let validated = try Tool.run(["validate", bundle], on: examples.desktop)
    #expect(validated.status == 0, "\(validated.standardError)")
    // Warnings are printed on standard output; only errors go to standard error.
    #expect(validated.standardOutput.contains("NSExtensionAttributes: warning: missing"), "\(validated)")
    for items in [["--text", "hello"], ["--url", "https://example.org/"], [examples.picture]] {
      let listed = try Tool.run(["list", "--json"] + items, on: examples.desktop)
      #expect(listed.standardOutput.contains("\"\(Self.id)\""), "\(items): \(listed.standardOutput)")
    }
  }
}
