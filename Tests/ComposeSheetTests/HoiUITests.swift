import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// Hoi (examples/Hoi), the seed's friends list: friends written to the App Group by the companion
/// command `hoi-friends` as the app would, the sheet opened by `xdg-share share` and driven through
/// AT-SPI; what was sent lands in the group's `sent.json`.
@Suite(.serialized, .enabled(if: ComposeHarness.missing.isEmpty, ComposeHarness.skipReason))
struct HoiUITests {
  static let id = "ch.iphonso.hoi.share"
  let examples: ExampleDesktop
  let container: String

  init() throws {
    examples = try ExampleDesktop()
    try examples.install("Hoi", id: Self.id)
    container = "\(examples.desktop.root)/data/xdg-share/groups/group.ch.iphonso.hoi"
  }

  /// What Hoi sent, from the App Group's `sent.json`.
  var sent: [[String: Any]] {
    guard let data = FileManager.default.contents(atPath: "\(container)/sent.json") else { return [] }
    return (try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
  }

  @Test func theFriendsTheAppWroteAreListedAndTheOneChosenGetsThePicture() throws {
    let added = try examples.runBuilt("hoi-friends", ["add", "Alice", "Bob"])
    #expect(added.status == 0)
    let listed = try examples.runBuilt("hoi-friends", ["list"])
    #expect(String(decoding: listed.standardOutput, as: UTF8.self) == "Alice\nBob\n")

    let run = try examples.share(
      app: "Hoi", ["share", "--service", Self.id, examples.picture],
      then: [
        "wait-presented", "buttons", "sensitive", "Hoi",
        "toggle", "Bob", "wait-sensitive", "Hoi", "true", "checked", "Alice", "checked", "Bob", "sensitive",
        "Hoi",
        "press", "Hoi", "wait-window-gone",
      ])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.buttons == [["Cancel", "Hoi", "Alice", "Bob"]])
    #expect(run.sensitive == ["Hoi false", "Hoi true"], "nobody is chosen at first")
    #expect(run.checked == ["Alice false", "Bob true"])
    #expect(run.exitStatus == 0, "\(run.output)")
    #expect(sent.count == 1)
    #expect(sent.first?["friends"] as? [String] == ["Bob"])
    #expect(sent.first?["items"] as? [String] == [examples.picture])
    examples.expectSlides()
  }

  @Test func aLinkIsSentToo() throws {
    _ = try examples.runBuilt("hoi-friends", ["add", "Alice"])
    let run = try examples.share(
      app: "Hoi", ["share", "--service", Self.id, "--url", "https://gethoi.ch/"],
      then: [
        "wait-presented", "toggle", "Alice", "wait-sensitive", "Hoi", "true", "key", "ctrl+Return",
        "wait-window-gone",
      ])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.exitStatus == 0, "\(run.output)")
    #expect(sent.first?["friends"] as? [String] == ["Alice"])
    #expect(sent.first?["items"] as? [String] == ["https://gethoi.ch/"])
  }

  @Test func withoutFriendsTheSheetSaysSoAndHoiStaysOffAndEscapeCancels() throws {
    let run = try examples.share(
      app: "Hoi", ["share", "--service", Self.id, examples.picture],
      then: [
        "wait-presented", "labels", "sensitive", "Hoi", "key", "ctrl+Return", "sleep", "0.3",
        "key", "Escape", "wait-window-gone",
      ])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.labels.first?.contains("No friends yet") == true, "\(run.labels)")
    #expect(run.sensitive == ["Hoi false"])
    #expect(run.exitStatus == 3, "Escape cancels")
    #expect(sent.isEmpty)
    examples.expectSlides()
  }

  /// The seed's rule, nested `TRUEPREDICATE` and all: one image or one link; no text, no second
  /// image, no other file.
  @Test func theSeedsRuleTakesOneImageOrOneLinkOnly() throws {
    let second = examples.desktop.files + "/pic2.png"
    try FileManager.default.copyItem(atPath: examples.picture, toPath: second)
    let notes = examples.desktop.files + "/notes.txt"
    try "notes".write(toFile: notes, atomically: true, encoding: .utf8)
    func offered(_ items: [String]) throws -> Bool {
      let listed = try Tool.run(["list", "--json"] + items, on: examples.desktop)
      return listed.standardOutput.contains("\"\(Self.id)\"")
    }
    #expect(try offered([examples.picture]))
    #expect(try offered(["--url", "https://gethoi.ch/"]))
    #expect(try !offered(["--text", "Hoi!"]))
    #expect(try !offered([examples.picture, second]))
    #expect(try !offered([notes]))
    let validated = try Tool.run(
      ["validate", examples.desktop.root + "/home/Hoi.shareext"], on: examples.desktop)
    #expect(validated.status == 0, "\(validated.standardError)")
    // Warnings are printed on standard output; only errors go to standard error.
    #expect(validated.standardOutput.contains("NSExtensionActivationRule: warning: ignored"), "\(validated)")
  }
}
