import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// The compose sheet a shell-script service declares in `Info.plist` (`XDGShareComposeSheet`),
/// shown by `xdg-share-sheet --compose` before the program starts, driven through AT-SPI by
/// accessible names only: from `xdg-share share --service`, from the picker, and with a password
/// kept in a real keyring.
@Suite(.serialized, .enabled(if: ComposeHarness.missing.isEmpty, ComposeHarness.skipReason))
struct DeclaredSheetUITests {
  /// Chooses Followers and types a tag, through their pages.
  static let configure = [
    "describe", "Visibility",
    "press", "Visibility", "wait-button", "Followers", "buttons",
    "press", "Followers", "wait-no-button", "Followers", "describe", "Visibility",
    "press", "Tag", "type-field", "Tag", "lake", "press", "Back", "wait-no-button", "Back", "describe", "Tag",
  ]

  @Test func theDeclaredSheetPostsWhatWasWrittenAndChosenOnce() throws {
    let declared = try DeclaredDesktop()
    let run = try declared.share(
      ["buttons", "count", "sensitive", "Send"] + Self.configure + [
        "sensitive", "Send",
        "type", "Twenty-one characters", "count", "sensitive", "Send",
        "type", "Hello from the lake", "count", "sensitive", "Send",
        "press", "Send", "wait-window-gone",
      ])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(
      run.buttons == [
        ["Cancel", "Send", "Visibility", "Tag"], ["Back", "Public", "Followers"],
      ])
    #expect(
      run.counts == ["20 characters remaining", "-1 characters remaining", "1 characters remaining"])
    // Without a tag (no default) there is nothing to send it with; over the limit neither.
    #expect(run.sensitive == ["Send false", "Send true", "Send false", "Send true"])
    #expect(run.descriptions == ["Visibility = Public", "Visibility = Followers", "Tag = lake"])
    #expect(run.exitStatus == 0, "\(run.output)")
    #expect(
      declared.composed == [
        [
          "contentText": "Hello from the lake",
          "configuration": ["visibility": "Followers", "tag": "lake"],
        ] as NSDictionary
      ])
  }

  /// Save to Folder's sheet says it has no text (`HasText` false): its folder and the preview,
  /// no empty text field.
  @Test func aSheetWithoutTextShowsNoTextField() throws {
    let declared = try DeclaredDesktop()
    let id = "org.xdgshare.save-to-folder"
    try declared.installBundled(id)
    let run = try declared.run(
      ["share", "--service", id, declared.file],
      steps: ["wait-button", "Save", "buttons", "tree", "press", "Cancel", "wait-window-gone"])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.buttons == [["Cancel", "Save", "Folder"]])
    let tree = run.output.split(separator: "\n").filter { $0.hasPrefix("tree: ") }
    #expect(!tree.isEmpty)
    #expect(!tree.contains { $0.contains("'Message'") }, "\(tree)")
    #expect(run.exitStatus == 3)
  }

  @Test func cancelEndsWithStatusThreeAndTheProgramNeverStarts() throws {
    let declared = try DeclaredDesktop()
    let run = try declared.share([
      "wait-button", "Send", "type", "Not sent", "press", "Cancel", "wait-window-gone",
    ])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.exitStatus == 3)
    #expect(declared.received.isEmpty)
    #expect(declared.parentWindow == nil, "the program never ran")
  }

  @Test func escapeCancelsToo() throws {
    let declared = try DeclaredDesktop()
    let run = try declared.share(["wait-button", "Send", "sleep", "0.4", "key", "Escape", "wait-window-gone"])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.exitStatus == 3)
    #expect(declared.received.isEmpty)
  }

  @Test func theNextShareStartsFromTheValuesPosted() throws {
    let declared = try DeclaredDesktop()
    let first = try declared.share(
      Self.configure + ["type", "First", "press", "Send", "wait-window-gone"])
    #expect(first.exitStatus == 0, "\(first.output)")
    let second = try declared.share([
      "describe", "Visibility", "describe", "Tag", "sensitive", "Send", "type", "Second", "press", "Send",
      "wait-window-gone",
    ])
    #expect(second.driverStatus == 0, "\(second.output)")
    #expect(second.descriptions == ["Visibility = Followers", "Tag = lake"])
    #expect(second.sensitive == ["Send true"])
    #expect(second.exitStatus == 0)
    let texts = declared.composed.compactMap { $0["contentText"] as? String }.sorted()
    #expect(texts == ["First", "Second"])
    #expect(
      declared.composed.map { $0["configuration"] as? NSDictionary } == [
        ["visibility": "Followers", "tag": "lake"], ["visibility": "Followers", "tag": "lake"],
      ])
  }

  @Test func thePickerShowsTheSheetOfTheServiceChosenAndThenTheOutcome() throws {
    let declared = try DeclaredDesktop()
    let run = try declared.run(
      ["--picker", declared.file],
      steps: [
        "press", DeclaredDesktop.serviceName,
        "switch-app", "xdg-share-sheet", "wait-button", "Send",
        "press", "Tag", "type-field", "Tag", "picker", "press", "Back", "wait-no-button", "Back",
        "type", "From the picker", "press", "Send", "wait-window-gone",
        "first-app", "wait-button", "Close", "press", "Close",
      ])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.exitStatus == 0, "\(run.output)")
    #expect(
      declared.composed == [
        [
          "contentText": "From the picker", "configuration": ["visibility": "Public", "tag": "picker"],
        ] as NSDictionary
      ])
    // The program's own windows would stay above the picker's.
    #expect(declared.parentWindow?.hasPrefix("x11:") == true, "\(declared.parentWindow ?? "none")")
  }

  @Test func cancelInThePickersComposeSheetComesBackToTheList() throws {
    let declared = try DeclaredDesktop()
    let run = try declared.run(
      ["--picker", declared.file],
      steps: [
        "press", DeclaredDesktop.serviceName,
        "switch-app", "xdg-share-sheet", "wait-button", "Send", "press", "Cancel", "wait-window-gone",
        "first-app", "wait-button", DeclaredDesktop.serviceName, "sleep", "0.3", "key", "Escape",
      ])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.exitStatus == 3, "closed before anything was shared")
    #expect(declared.received.isEmpty)
  }

  @Test(
    .enabled(
      if: TestKeyring.isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/bin/secret-tool")))
  func aSecureValueGoesToTheProgramAndTheKeyringAndIntoNoFile() throws {
    let declared = try DeclaredDesktop(secure: true)
    let bus = try declared.desktop.startBus()
    try declared.offerAccessibilityBus(on: bus)
    let keyring = try TestKeyring(desktop: declared.desktop)
    defer { keyring.stop() }
    let password = "Lake-Secret-4711"
    let run = try declared.share(
      [
        "press", "Tag", "type-field", "Tag", "lake", "press", "Back", "wait-no-button", "Back",
        "sensitive", "Send",
        "press", "Password", "field-role", "Password", "type-field", "Password", password,
        "press", "Back", "wait-no-button", "Back", "describe", "Password", "sensitive", "Send",
        "type", "Signed in", "press", "Send", "wait-window-gone",
      ], ownBus: true)
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.exitStatus == 0, "\(run.output)")
    #expect(run.sensitive == ["Send false", "Send true"])
    #expect(run.output.contains("field-role: Password password text"), "\(run.output)")
    // The row shows dots, never the text.
    #expect(
      run.descriptions == ["Password = \u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}"])
    let configuration = try #require(declared.composed.first?["configuration"] as? [String: String])
    #expect(configuration["password"] == password)
    #expect(declared.composed.count == 1)
    let lookup = try CapturedRun.run(
      ["secret-tool", "lookup", "service", DeclaredDesktop.serviceID, "item", "password"].map {
        Array($0.utf8)
      },
      environment: declared.desktop.environment)
    #expect(String(decoding: lookup.standardOutput, as: UTF8.self) == password)
    #expect(!declared.someFileContains(Array(password.utf8)), "the password is in a file under the home")
    #expect(!keyring.filesContain(Array(password.utf8)))
  }
}

/// The picture of the declared sheet in `docs/images/declared-sheet.png`, taken again when
/// `XDG_SHARE_SHEET_SCREENSHOTS` names the folder to write it to.
@Suite(
  .serialized,
  .enabled(
    if: ProcessInfo.processInfo.environment["XDG_SHARE_SHEET_SCREENSHOTS"] != nil
      && ComposeHarness.missing.isEmpty,
    "set XDG_SHARE_SHEET_SCREENSHOTS=<folder> to take the pictures of docs/images"))
struct DeclaredSheetScreenshotTests {
  @Test func declaredSheet() throws {
    let folder = try #require(ProcessInfo.processInfo.environment["XDG_SHARE_SHEET_SCREENSHOTS"])
    let declared = try DeclaredDesktop()
    let run = try declared.share(
      DeclaredSheetUITests.configure + [
        "type", "Hello from the lake", "screenshot", "\(folder)/declared-sheet.png", "press", "Cancel",
        "wait-window-gone",
      ])
    #expect(run.driverStatus == 0, "\(run.output)")
  }
}
