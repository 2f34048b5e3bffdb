import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// The ways into the picker other than starting `xdg-share-sheet` itself: the command line
/// (`--picker`, or a display and no terminal) and D-Bus (`ShowPicker`), each driven through
/// AT-SPI as a user would choose.
@Suite(.serialized, .enabled(if: SheetHarness.missing.isEmpty, SheetHarness.skipReason))
struct PickerEntryTests {
  let desktop: TemporaryDesktop
  let display: VirtualDisplay
  let photo: String

  init() throws {
    desktop = try TemporaryDesktop(prefix: "xdg-share-entry")
    try SheetHarness.prepare(desktop)
    display = try VirtualDisplay(firstNumber: 150)
    for name in ["Alpha", "Bravo"] {
      try SheetUITests.service(name).write(into: desktop.userExtensions)
    }
    photo = desktop.files + "/photo of the lake.png"
    try Data(tinyPNG).write(to: URL(fileURLWithPath: photo))
  }

  /// Runs `command` (which opens the picker) under the driver, with `steps` on the picker.
  func launch(_ command: [String], steps: [String]) throws -> DriverRun {
    var environment = desktop.environment
    environment["DISPLAY"] = display.name
    environment["GDK_BACKEND"] = "x11"
    environment["GIO_USE_VFS"] = "local"
    environment["ADW_DISABLE_PORTAL"] = "1"
    let arguments =
      ["dbus-run-session", "--", SheetHarness.python, SheetHarness.driverPath, "--launch"] + command
      + ["--then"] + steps
    let run = DriverRun(
      try CapturedRun.run(
        arguments.map { Array($0.utf8) }, environment: environment,
        workingDirectory: Array(desktop.files.utf8)))
    #expect(run.driverStatus == 0, "\(run.output)")
    return run
  }

  var outputLines: (DriverRun) -> [String] {
    { run in
      run.output.split(separator: "\n").filter { $0.hasPrefix("output: ") }.map { String($0.dropFirst(8)) }
    }
  }

  @Test func pickerOptionOpensTheSheetAndTheChosenServiceRunsOnce() throws {
    let run = try launch(
      [Tool.path, "--picker", "--", photo],
      steps: ["services", "press", "Alpha", "wait-label", "Shared with Alpha", "key", "Escape"])
    #expect(run.services == [["Alpha", "Bravo"]])
    #expect(run.exitStatus == 0)
    #expect(desktop.servicesRun == ["org.test.alpha"])
  }

  /// `--picker` where no window can open: xdg-share's words, not GTK's, and the exit status of
  /// "no service chosen"; the sheet started by another front end answers so on its result line.
  @Test func withoutADisplayThePickerSaysSoAndExitsEight() throws {
    // GDK_BACKEND: the display named is the one tried, whatever this machine has.
    for (name, environment) in [
      ("picker-no-display", ["GDK_BACKEND": "x11"]),
      ("picker-display-not-open", ["DISPLAY": ":1234", "GDK_BACKEND": "x11"]),
    ] {
      let run = try Tool.run(["--picker", "--", photo], on: desktop, environment: environment)
      #expect(run.status == 8, "\(run.standardError)")
      try Snapshot.assertMatches(run.standardError, named: name)
    }
    let sheet = try CapturedRun.run(
      [SheetHarness.sheetPath, "--result-fd", "1", "--", photo].map { Array($0.utf8) },
      environment: desktop.environment.merging(["DISPLAY": ":1234", "GDK_BACKEND": "x11"]) { $1 })
    #expect(sheet.status == 8)
    #expect(sheet.standardError.isEmpty, "\(String(decoding: sheet.standardError, as: UTF8.self))")
    let line = try #require(
      try JSONSerialization.jsonObject(with: Data(sheet.standardOutput)) as? [String: Any])
    #expect(line["exit-status"] as? Int == 8)
    #expect(line["response"] as? Int == 2)
    #expect(
      (line["results"] as? [String: Any])?["message"] as? String
        == "cannot open the display :1234 to show the share sheet")
    #expect(desktop.servicesRun.isEmpty)
  }

  /// D-Bus `ShowPicker` where the sheet cannot open: one Response, ended, with the sheet's words,
  /// and nothing of GTK's on the service's standard error.
  @Test func showPickerWithoutADisplayAnswersWithTheSheetsWords() throws {
    let client = URL(fileURLWithPath: SheetHarness.driverPath).deletingLastPathComponent()
      .appendingPathComponent("show_picker.py").path
    var environment = desktop.environment
    environment["DISPLAY"] = ":1234"
    environment["GDK_BACKEND"] = "x11"
    let run = try CapturedRun.run(
      ["dbus-run-session", "--", SheetHarness.python, client, Tool.path, "", photo].map { Array($0.utf8) },
      environment: environment, workingDirectory: Array(desktop.files.utf8))
    let output = String(decoding: run.standardOutput, as: UTF8.self)
    let errors = String(decoding: run.standardError, as: UTF8.self)
    #expect(output.contains("responses: 1"), "\(output)\(errors)")
    let response = try #require(output.split(separator: "\n").first { $0.hasPrefix("response: ") })
    #expect(response.hasPrefix("response: 2 "), "\(response)")
    #expect(response.contains("cannot open the display :1234 to show the share sheet"), "\(response)")
    #expect(!errors.contains("Gtk-WARNING"), "\(errors)")
    #expect(desktop.servicesRun.isEmpty)
  }

  @Test func withADisplayAndNoTerminalTheSheetOpensAndEscapeCancels() throws {
    // The driver runs xdg-share without a terminal, on the virtual display.
    let run = try launch([Tool.path, photo], steps: ["services", "key", "Escape"])
    #expect(run.services == [["Alpha", "Bravo"]])
    #expect(run.exitStatus == 3)
    #expect(desktop.servicesRun.isEmpty)
  }

  @Test func showPickerAnswersWithExactlyOneResponse() throws {
    let client = URL(fileURLWithPath: SheetHarness.driverPath).deletingLastPathComponent()
      .appendingPathComponent("show_picker.py").path
    let run = try launch(
      [SheetHarness.python, client, Tool.path, "", photo],
      steps: ["services", "press", "Bravo", "wait-label", "Shared with Bravo", "key", "Escape"])
    let lines = outputLines(run)
    #expect(lines.contains("responses: 1"), "\(run.output)")
    let response = try #require(lines.first { $0.hasPrefix("response: ") })
    #expect(response.hasPrefix("response: 0 "))
    #expect(response.contains("\"service-id\": \"org.test.bravo\""))
    #expect(response.contains("https://example.org/org.test.bravo"))
    #expect(desktop.servicesRun == ["org.test.bravo"])
  }

  @Test func showPickerClosedBeforeAChoiceRespondsCancelled() throws {
    let client = URL(fileURLWithPath: SheetHarness.driverPath).deletingLastPathComponent()
      .appendingPathComponent("show_picker.py").path
    let run = try launch(
      [SheetHarness.python, client, Tool.path, "", photo], steps: ["services", "key", "Escape"])
    let lines = outputLines(run)
    #expect(lines.contains("responses: 1"), "\(run.output)")
    #expect(lines.contains { $0.hasPrefix("response: 1 ") })
    #expect(desktop.servicesRun.isEmpty)
  }
}

extension PickerEntryTests {
  /// The application entry's action for a service, as `register` wrote it, run as a launcher runs
  /// it with a file: the sheet shares with that service at once.
  @Test func aLauncherActionSharesWithItsServiceInTheSheet() throws {
    let register = try Tool.run(["register"], on: desktop)
    try #require(register.status == 0, "\(register.standardError)")
    let entry = try String(
      contentsOfFile: "\(desktop.root)/data/applications/org.xdgshare.Share.desktop", encoding: .utf8)
    let lines = entry.split(separator: "\n").map(String.init)
    let group = try #require(lines.firstIndex(of: "[Desktop Action org-test-alpha]"))
    let exec = try #require(lines[group...].first { $0.hasPrefix("Exec=") }).dropFirst(5)
    // The test's paths hold no characters an Exec line would quote.
    let argv = exec.split(separator: " ").map { $0 == "%F" ? photo : String($0) }
    #expect(argv.dropFirst() == ["--picker", "--service", "org.test.alpha", "--", photo])
    let run = try launch(argv, steps: ["wait-label", "Shared with Alpha", "key", "Escape"])
    #expect(run.exitStatus == 0)
    #expect(desktop.servicesRun == ["org.test.alpha"])
  }

  /// Started without files (a launcher's action, the application entry), the sheet asks for them
  /// in the file chooser first.
  @Test func withoutFilesTheSheetAsksForThemFirst() throws {
    let run = try launch(
      [Tool.path, "--picker", "--service", "org.test.alpha"],
      // GTK's own file chooser: its location field (Ctrl+L), the path, Enter (the keyboard alone;
      // GTK 4.8 names its dialog buttons twice over, "Share Share").
      steps: [
        "sleep", "1", "key", "ctrl+l", "keys", photo, "key", "Return", "wait-label", "Shared with Alpha",
        "key",
        "Escape",
      ])
    #expect(run.exitStatus == 0, "\(run.standardError)")
    #expect(desktop.servicesRun == ["org.test.alpha"])
  }
}

extension PickerEntryTests {
  /// `Cancel` on a `ShowPicker` request while the chosen service runs: the sheet cancels the
  /// share (its program ends with it) and the request answers once, cancelled.
  @Test func cancellingAShowPickerRequestEndsTheServiceItRuns() throws {
    try SheetUITests.service(
      "Slow",
      program: """
        #!/bin/sh
        cat > /dev/null
        echo started > "$XDG_STATE_HOME/slow.started"
        echo '{"progress": 0.1}'
        sleep 60
        echo '{"complete": {}}'
        """
    ).write(into: desktop.userExtensions)
    let client = URL(fileURLWithPath: SheetHarness.driverPath).deletingLastPathComponent()
      .appendingPathComponent("show_picker.py").path
    let run = try launch(
      // Cancelled once the program has started, however long the sheet took to get there.
      [
        SheetHarness.python, client, "--cancel-on",
        "\(desktop.containerState(of: "org.test.slow"))/slow.started", Tool.path, "", photo,
      ],
      steps: ["services", "press", "Slow"])
    let lines = outputLines(run)
    #expect(lines.contains("cancelled"), "\(run.output)")
    #expect(lines.contains("responses: 1"), "\(run.output)")
    #expect(lines.contains { $0.hasPrefix("response: 1 ") }, "\(run.output)")
    // In its sandbox the program has a process namespace of its own, so its pid there means
    // nothing here: what is left of the request is found by the service's variable instead.
    #expect(
      SheetHarness.processes(withEnvironment: "XDG_SHARE_SERVICE_ID=org.test.slow").isEmpty,
      "the service's program outlived the cancel")
  }
}
