import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

@testable import ShareHost

/// A share whose plugin says `posted`: the picker goes at once, the share goes on in the
/// background with its progress in a notification that can cancel it, and nothing but a cancel
/// stops it, not even its caller going away.
@Suite(.serialized, .enabled(if: SheetHarness.missing.isEmpty, SheetHarness.skipReason))
struct BackgroundShareUITests {
  let desktop: TemporaryDesktop
  let display: VirtualDisplay
  let photo: String
  let notificationLog: String

  init() throws {
    desktop = try TemporaryDesktop(prefix: "xdg-share-background")
    try SheetHarness.prepare(desktop)
    display = try VirtualDisplay(firstNumber: 150)
    try SheetUITests.service(
      "Posty",
      program: """
        #!/bin/sh
        cat > /dev/null
        echo '{"posted": {}}'
        touch "$XDG_STATE_HOME/posted"
        echo '{"progress": 0.25, "message": "Uploading photo.png"}'
        sleep 1
        echo '{"progress": 0.5, "message": "Halfway there"}'
        sleep 3
        echo "$XDG_SHARE_SERVICE_ID" >> "$XDG_STATE_HOME/ran.txt"
        echo '{"complete": {}}'
        """
    ).write(into: desktop.userExtensions)
    photo = desktop.files + "/photo.png"
    try Data(tinyPNG).write(to: URL(fileURLWithPath: photo))
    notificationLog = desktop.root + "/notifications.jsonl"
  }

  var environment: [String: String] {
    var environment = desktop.environment
    environment["DISPLAY"] = display.name
    environment["GDK_BACKEND"] = "x11"
    environment["GIO_USE_VFS"] = "local"
    environment["ADW_DISABLE_PORTAL"] = "1"
    return environment
  }

  /// Runs the driver with the tests' notification server (choosing `invoke` on the first
  /// notification that offers it), then `arguments`.
  func drive(_ arguments: [String], invoke: String? = nil) throws -> DriverRun {
    let command =
      [
        "dbus-run-session", "--", SheetHarness.python, SheetHarness.driverPath, "--notifications",
        notificationLog,
      ]
      + (invoke.map { ["--invoke", $0] } ?? []) + arguments
    let run = DriverRun(
      try CapturedRun.run(
        command.map { Array($0.utf8) }, environment: environment, workingDirectory: Array(desktop.files.utf8))
    )
    #expect(run.driverStatus == 0, "\(run.output)")
    return run
  }

  /// Each notification the server was asked to show, in order.
  var notifications: [[String: Any]] {
    let text = (try? String(contentsOfFile: notificationLog, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  var postyRecord: HistoryRecord? {
    HistoryStore(stateHome: "\(desktop.root)/state").records().first { $0.serviceId == "org.test.posty" }
  }

  @Test func withoutADisplayThePostedEventIsAcceptedAndTheShareRunsToItsEnd() throws {
    let run = try Tool.run(["--service", "org.test.posty", photo], on: desktop)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
    #expect(desktop.servicesRun == ["org.test.posty"])
    #expect(postyRecord?.status == .completed)
  }

  @Test func postedClosesThePickerAndTheProgressShowsInANotification() throws {
    let run = try drive([SheetHarness.sheetPath, photo, "--then", "press", "Posty", "wait-gone"])
    #expect(run.exitStatus == 0, "\(run.output)")
    #expect(run.response == 0)
    #expect(desktop.servicesRun == ["org.test.posty"])
    #expect(postyRecord?.status == .completed)
    let shown = notifications
    let progress = shown.filter { ($0["actions"] as? [String: String])?["cancel"] == "Cancel" }
    #expect(!progress.isEmpty, "\(shown)")
    #expect(progress.allSatisfy { $0["summary"] as? String == "Sharing with Posty…" }, "\(progress)")
    #expect(progress.contains { ($0["value"] as? Int ?? 0) >= 25 }, "\(progress)")
    #expect(progress.contains { ($0["body"] as? String ?? "").contains("Halfway there") }, "\(progress)")
    // The end replaces the progress.
    let last = try #require(shown.last)
    #expect(last["summary"] as? String == "Shared with Posty")
    #expect((last["actions"] as? [String: String])?.isEmpty == true)
    #expect(last["id"] as? Int == progress.first?["id"] as? Int)
  }

  @Test func theNotificationsCancelCancelsTheRequest() throws {
    let run = try drive(
      [SheetHarness.sheetPath, photo, "--then", "press", "Posty", "wait-gone"], invoke: "cancel")
    #expect(run.exitStatus == 3, "\(run.output)")
    #expect(run.response == 1)
    #expect(desktop.servicesRun.isEmpty)
    #expect(postyRecord?.status == .cancelled)
    #expect(notifications.last?["summary"] as? String == "Posty cancelled", "\(notifications)")
  }

  @Test func aPostedShareOutlivesTheCommandThatOpenedThePicker() throws {
    let run = try drive([
      "--launch", Tool.path, "--picker", "--", photo, "--then", "press", "Posty", "wait-gone", "kill-command",
      "wait-sheet-end",
    ])
    #expect(run.exitStatus == -9, "\(run.output)")
    #expect(desktop.servicesRun == ["org.test.posty"])
    #expect(postyRecord?.status == .completed)
  }

  @Test func aPostedShareOutlivesTheShowPickerCallersConnection() throws {
    let client = URL(fileURLWithPath: SheetHarness.driverPath).deletingLastPathComponent()
      .appendingPathComponent("show_picker.py").path
    let run = try drive([
      "--launch", SheetHarness.python, client, "--disconnect-on",
      "\(desktop.containerState(of: "org.test.posty"))/posted", Tool.path,
      "", photo, "--then",
      "press", "Posty", "wait-gone", "wait-sheet-end",
    ])
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(lines.contains("output: disconnected"), "\(run.output)")
    #expect(lines.contains("output: responses: 0"), "\(run.output)")
    #expect(desktop.servicesRun == ["org.test.posty"])
    #expect(postyRecord?.status == .completed)
  }
}
