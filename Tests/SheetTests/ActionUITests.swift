import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

@testable import ShareHost

/// Action extensions (`com.apple.ui-services`) in the picker: a row of their own, and what they
/// return offered back to the user.
@Suite(.serialized, .enabled(if: SheetHarness.missing.isEmpty, SheetHarness.skipReason))
struct ActionUITests {
  let desktop: TemporaryDesktop
  let display: VirtualDisplay
  let photo: String

  init() throws {
    desktop = try TemporaryDesktop(prefix: "xdg-share-actions")
    try SheetHarness.prepare(desktop)
    display = try VirtualDisplay(firstNumber: 150)
    try SheetUITests.service("Alpha").write(into: desktop.userExtensions)
    try Self.action(
      "Shout",
      program: """
        #!/bin/sh
        cat > /dev/null
        echo "$XDG_SHARE_SERVICE_ID" >> "$XDG_STATE_HOME/ran.txt"
        echo '{"complete": {"returningItems": [{"attachments": [{"typeIdentifiers": ["public.plain-text"], "text": "LOUD AND CLEAR"}]}]}}'
        """, into: desktop.userExtensions)
    photo = desktop.files + "/photo.png"
    try Data(tinyPNG).write(to: URL(fileURLWithPath: photo))
  }

  /// An action extension: the test service's bundle, its extension point `com.apple.ui-services`.
  static func action(_ name: String, program: String, into directory: String) throws {
    let bundle = try SheetUITests.service(name, program: program).write(into: directory)
    let plist = "\(bundle)/Info.plist"
    let text = try String(contentsOfFile: plist, encoding: .utf8).replacingOccurrences(
      of: "com.apple.share-services", with: "com.apple.ui-services")
    try text.write(toFile: plist, atomically: true, encoding: .utf8)
  }

  @Test func anActionIsInTheRowOfActionsAndWhatItReturnsIsCopied() throws {
    let run = try desktop.runSheet(
      [photo],
      steps: [
        "services", "actions", "press", "Shout", "wait-label", "Shout finished", "wait-label",
        "LOUD AND CLEAR",
        "buttons", "press", "Copy", "wait-button", "Copied", "clipboard", "key", "Escape",
      ], display: display)
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.services == [["Alpha"]])
    #expect(run.output.contains(#"actions: ["Shout"]"#), "\(run.output)")
    #expect(run.buttons.first?.contains("Copy") == true, "\(run.buttons)")
    #expect(run.output.contains(#"clipboard: "LOUD AND CLEAR""#), "\(run.output)")
    #expect(run.exitStatus == 0)
    let returned = run.results["returned-items"] as? [[String: Any]]
    #expect(returned?.first?["text"] as? String == "LOUD AND CLEAR")
    #expect(desktop.servicesRun == ["org.test.shout"])
  }

  @Test func searchFindsActionsAndEnterRunsTheFirstWhenNoServiceMatches() throws {
    let run = try desktop.runSheet(
      [photo],
      steps: [
        "type", "shou", "services", "actions", "key", "Return", "wait-label", "Shout finished", "key",
        "Escape",
      ],
      display: display)
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.services == [[]])
    #expect(run.output.contains(#"actions: ["Shout"]"#), "\(run.output)")
    #expect(desktop.servicesRun == ["org.test.shout"])
  }

  @Test func thePickerOptionPrintsWhatTheChosenActionReturns() throws {
    var environment = desktop.environment
    environment["DISPLAY"] = display.name
    environment["GDK_BACKEND"] = "x11"
    environment["GIO_USE_VFS"] = "local"
    environment["ADW_DISABLE_PORTAL"] = "1"
    let command =
      ["dbus-run-session", "--", SheetHarness.python, SheetHarness.driverPath, "--launch"]
      + [
        Tool.path, "--picker", "--", photo, "--then", "press", "Shout", "wait-label", "Shout finished", "key",
        "Escape",
      ]
    let run = DriverRun(
      try CapturedRun.run(
        command.map { Array($0.utf8) }, environment: environment, workingDirectory: Array(desktop.files.utf8))
    )
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.exitStatus == 0)
    let printed = run.output.split(separator: "\n").filter { $0.hasPrefix("output: ") }
    #expect(printed == ["output: LOUD AND CLEAR"], "\(run.output)")
  }

  @Test func aReturnedFileIsSavedWhereTheUserSays() throws {
    try Self.action(
      "Render",
      program: """
        #!/bin/sh
        cat > /dev/null
        printf 'rendered\\n' > "$XDG_STATE_HOME/render.txt"
        echo "{\\"complete\\": {\\"returningItems\\": [{\\"attachments\\": [{\\"typeIdentifiers\\": [\\"public.plain-text\\"], \\"url\\": \\"file://$XDG_STATE_HOME/render.txt\\"}]}]}}"
        """, into: desktop.userExtensions)
    // GTK's own save dialog opens in the working folder with the file's name; Enter accepts.
    let run = try desktop.runSheet(
      [photo],
      steps: [
        "press", "Render", "wait-label", "Render finished", "buttons", "press", "Save…", "sleep", "1", "key",
        "Return", "wait-button", "Saved", "key", "Escape",
      ], display: display)
    #expect(run.driverStatus == 0, "\(run.output)")
    #expect(run.buttons.first?.contains("Show in folder") == true, "\(run.buttons)")
    #expect((try? String(contentsOfFile: desktop.files + "/render.txt", encoding: .utf8)) == "rendered\n")
  }

  @Test func theCommandLinePrintsWhatAnActionReturns() throws {
    let run = try Tool.run(["--service", "org.test.shout", photo], on: desktop)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput == "LOUD AND CLEAR\n")
  }
}
