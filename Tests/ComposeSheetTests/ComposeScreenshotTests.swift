import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// The pictures of the compose sheet in `docs/images`, taken again when
/// `XDG_SHARE_SHEET_SCREENSHOTS` names the folder to write them to: `compose-sheet-light.png`,
/// `compose-sheet-dark.png` and `compose-sheet-choices.png`; and `save-to-folder-compose.png`, the
/// compose step of the bundled Save to Folder, for the notes of a change to it.
@Suite(
  .serialized,
  .enabled(
    if: ProcessInfo.processInfo.environment["XDG_SHARE_SHEET_SCREENSHOTS"] != nil
      && ComposeHarness.missing.isEmpty,
    "set XDG_SHARE_SHEET_SCREENSHOTS=<folder> to take the pictures of docs/images"))
struct ComposeScreenshotTests {
  @Test(arguments: [("compose-sheet-light.png", "prefer-light"), ("compose-sheet-dark.png", "prefer-dark")])
  func composeSheet(file: String, scheme: String) throws {
    let folder = try #require(ProcessInfo.processInfo.environment["XDG_SHARE_SHEET_SCREENSHOTS"])
    let microblog = try MicroblogDesktop()
    // A photo-like picture: a sky, a sun and a hill.
    let drawn = try CapturedRun.run(
      [
        "convert", "-size", "1200x900", "gradient:#5aa0e6-#f4d9a8", "-fill", "#ffd84a", "-draw",
        "circle 850,250 850,150", "-fill", "#3f7d4e", "-draw", "ellipse 400,1000 900,300 0,360",
        "png:"
          + microblog.picture,
      ].map { Array($0.utf8) }, environment: ProcessInfo.processInfo.environment)
    try #require(drawn.status == 0)
    var steps = [
      "type", "Evening at the lake: the water was warmer than the air, and nobody wanted to leave.",
      "press", "Visibility", "wait-button", "Followers", "press", "Followers", "wait-no-button", "Followers",
      "screenshot", "\(folder)/\(file)",
    ]
    if scheme == "prefer-light" {
      steps += [
        "press", "Visibility", "wait-button", "Only me", "screenshot", "\(folder)/compose-sheet-choices.png",
      ]
      steps += ["press", "Back", "wait-no-button", "Only me"]
    }
    let run = try microblog.share(
      steps + ["press", "Cancel", "wait-window-gone"], environment: ["ADW_DEBUG_COLOR_SCHEME": scheme])
    #expect(run.driverStatus == 0, "\(run.output)")
  }

  @Test func saveToFolderCompose() throws {
    let folder = try #require(ProcessInfo.processInfo.environment["XDG_SHARE_SHEET_SCREENSHOTS"])
    let declared = try DeclaredDesktop()
    let id = "org.xdgshare.save-to-folder"
    try declared.installBundled(id)
    let run = try declared.run(
      ["share", "--service", id, declared.file],
      steps: [
        "wait-button", "Save", "screenshot", "\(folder)/save-to-folder-compose.png", "press", "Cancel",
        "wait-window-gone",
      ])
    #expect(run.driverStatus == 0, "\(run.output)")
  }
}
