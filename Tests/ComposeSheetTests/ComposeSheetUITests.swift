import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// The compose sheet as a user meets it: Microblog (examples/Microblog) opened by `xdg-share share`,
/// driven through AT-SPI on a virtual display by accessible names only.
@Suite(.serialized, .enabled(if: ComposeHarness.missing.isEmpty, ComposeHarness.skipReason))
struct ComposeSheetUITests {
  let microblog: MicroblogDesktop

  init() throws {
    microblog = try MicroblogDesktop()
  }

  @Test func typingPastTheLimitMakesPostInsensitiveAndDeletingMakesItSensitive() throws {
    let run = try microblog.share([
      "count", "sensitive", "Post",
      // 99 letters and a family emoji: one Character (a grapheme cluster) of five scalars.
      "type", String(repeating: "a", count: 99) + "👨‍👩‍👧", "count", "sensitive", "Post",
      "append", "xyz", "count", "sensitive", "Post",
      "type", "Short again", "count", "sensitive", "Post",
      "press", "Cancel",
    ])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(
      run.counts == [
        "100 characters remaining", "0 characters remaining", "-3 characters remaining",
        "89 characters remaining",
      ])
    #expect(run.sensitive == ["Post true", "Post true", "Post false", "Post true"])
    #expect(run.exitStatus == 3, "Cancel ends the request as cancelled")
    #expect(microblog.posts.isEmpty)
  }

  @Test func withoutADisplayTheShareIsCancelledSayingWhy() throws {
    var environment = microblog.desktop.environment
    environment.removeValue(forKey: "DISPLAY")
    environment.removeValue(forKey: "WAYLAND_DISPLAY")
    let run = try CapturedRun.run(
      [Tool.path, "share", "--service", "org.example.microblog", microblog.picture].map { Array($0.utf8) },
      environment: environment, workingDirectory: Array(microblog.desktop.files.utf8))
    let standardError = String(decoding: run.standardError, as: UTF8.self)
    #expect(run.status == 3, "\(standardError)")
    #expect(standardError.contains("there is no display"), "\(standardError)")
    #expect(microblog.posts.isEmpty)
  }

  @Test func visibilityPushesItsPageAndTheChoiceIsShownAfterBack() throws {
    let run = try microblog.share([
      "buttons", "describe", "Visibility",
      "press", "Visibility", "wait-button", "Followers", "buttons",
      "press", "Followers", "wait-no-button", "Followers", "buttons", "describe", "Visibility",
      // Back, and Escape on a pushed page, go back without choosing or cancelling.
      "press", "Visibility", "wait-button", "Only me", "press", "Back", "wait-no-button", "Only me",
      "press", "Visibility", "wait-button", "Only me", "key", "Escape", "wait-no-button", "Only me",
      "describe", "Visibility",
      "type", "Hello from the lake", "press", "Post", "wait-window-gone",
    ])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(
      run.buttons == [
        ["Cancel", "Post", "Visibility"], ["Back", "Public", "Followers", "Only me"],
        ["Cancel", "Post", "Visibility"],
      ])
    #expect(
      run.descriptions == ["Visibility = Public", "Visibility = Followers", "Visibility = Followers"])
    #expect(run.exitStatus == 0)
    // Handed to the extension exactly once, with the text and the value chosen.
    #expect(microblog.posts.count == 1)
    let post = try #require(microblog.posts.first)
    #expect(post["text"] as? String == "Hello from the lake")
    #expect(post["visibility"] as? String == "Followers")
    #expect(post["attachments"] as? [String] == ["pic.png"])
  }

  @Test func controlEnterPosts() throws {
    let run = try microblog.share(["type", "Posted by keyboard", "key", "ctrl+Return", "wait-window-gone"])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.exitStatus == 0)
    #expect(microblog.posts.map { $0["text"] as? String } == ["Posted by keyboard"])
    #expect(microblog.posts.first?["visibility"] as? String == "Public")
  }

  @Test func controlEnterDoesNothingWhileTheContentIsInvalid() throws {
    let run = try microblog.share([
      "type", String(repeating: "x", count: 101), "key", "ctrl+Return", "sleep", "0.5", "count",
      "key", "Escape",
    ])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.counts == ["-1 characters remaining"])
    #expect(run.exitStatus == 3)
    #expect(microblog.posts.isEmpty)
  }

  @Test func escapeCancelsAndTheSlidesTakeTheirTimeOnTheFrameClock() throws {
    let run = try microblog.share([
      "wait-button", "Post", "sleep", "0.5", "key", "Escape", "wait-window-gone",
    ])
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.exitStatus == 3)
    #expect(microblog.posts.isEmpty)
    let slides = microblog.slides
    #expect(slides.map(\.0) == ["slide-in", "slide-out"], "\(slides)")
    for (name, seconds) in slides {
      let expected = name == "slide-in" ? 0.25 : 0.20
      #expect(abs(seconds - expected) <= 0.05, "\(name) took \(seconds) s")
    }
  }
}
