import Foundation
import ShareTestSupport
import Testing

@testable import ShareHost

/// The picker as a user meets it, driven through AT-SPI on a virtual display: its services and
/// their order, search, choosing, edit mode, and how it ends.
@Suite(.serialized, .enabled(if: SheetHarness.missing.isEmpty, SheetHarness.skipReason))
struct SheetUITests {
  let desktop: TemporaryDesktop
  let display: VirtualDisplay
  let photo: String

  /// Alpha, Bravo, Charlie and Delta accept files and links (no text alone); Delta is pinned and
  /// Charlie was used three times today for an image.
  init() throws {
    desktop = try TemporaryDesktop(prefix: "xdg-share-sheet")
    try SheetHarness.prepare(desktop)
    display = try VirtualDisplay(firstNumber: 150)
    for name in ["Alpha", "Bravo", "Charlie", "Delta"] {
      try Self.service(name).write(into: desktop.userExtensions)
    }
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/config/xdg-share", withIntermediateDirectories: true)
    try "# keep me\n[Services]\nPinned=org.test.delta;\n".write(
      toFile: "\(desktop.root)/config/xdg-share/settings.ini", atomically: true, encoding: .utf8)
    let history = HistoryStore(stateHome: "\(desktop.root)/state")
    for index in 0..<3 {
      try history.save(
        HistoryRecord(
          id: "charlie-\(index)", serviceId: "org.test.charlie", serviceName: "Charlie",
          items: [.file(url: "file:///home/someone/earlier.png")], started: Date().addingTimeInterval(-600),
          status: .completed))
    }
    photo = desktop.files + "/photo.png"
    try Data(tinyPNG).write(to: URL(fileURLWithPath: photo))
  }

  /// A service that records that it ran and returns a link; `program` replaces what it does.
  static func service(_ name: String, program: String? = nil) -> BundleFixture {
    let id = "org.test.\(name.lowercased().replacingOccurrences(of: " ", with: "-"))"
    let rule = BundleFixture.dictionary([
      ("NSExtensionActivationSupportsFileWithMaxCount", "<integer>10</integer>"),
      ("NSExtensionActivationSupportsWebURLWithMaxCount", "<integer>1</integer>"),
    ])
    let program =
      program ?? """
        #!/bin/sh
        cat > /dev/null
        echo "$XDG_SHARE_SERVICE_ID" >> "$XDG_STATE_HOME/ran.txt"
        echo '{"complete": {"returningItems": [{"attachments": [{"typeIdentifiers": ["public.url"], "url": "https://example.org/\(id)"}]}]}}'
        """
    return BundleFixture(
      id: id, name: name, ruleXML: rule,
      extraXML: "<key>CFBundleIconName</key><string>mail-send</string>", program: program)
  }

  func run(_ steps: [String], arguments: [String]? = nil, environment: [String: String] = [:]) throws
    -> DriverRun
  {
    let run = try desktop.runSheet(
      arguments ?? [photo], steps: steps, display: display, environment: environment)
    #expect(run.driverStatus == 0, "\(run.output)")
    return run
  }

  @Test func servicesArePinnedThenFrecentThenByNameAndEscapeCancels() throws {
    let run = try run(["services", "entries", "key", "Escape"])
    #expect(run.services == [["Delta", "Charlie", "Alpha", "Bravo"]])
    #expect(run.entries == [["Search services"]])
    #expect(run.exitStatus == 3)
    #expect(run.response == 1)
    #expect(run.results["service-id"] == nil)
    #expect(desktop.servicesRun.isEmpty)
  }

  /// Escape with text in the search field clears the search, as GNOME's search fields do; only
  /// the next one, with the field empty, closes the sheet.
  @Test func escapeClearsTheSearchFirstThenCloses() throws {
    let run = try run(["type", "rav", "services", "key", "Escape", "services", "key", "Escape"])
    #expect(run.services == [["Bravo"], ["Delta", "Charlie", "Alpha", "Bravo"]])
    #expect(run.exitStatus == 3)
    #expect(desktop.servicesRun.isEmpty)
  }

  /// A description longer than a row is wide wraps to two lines, and no further.
  @Test func aLongDescriptionWrapsToTwoLines() throws {
    let long =
      "Sends the photo to every device paired with this computer, in the background, and tells you "
      + "once each has it, or why one did not take it, with a way to try again later"
    let medium =
      "Copies what you share into the Public folder of your home, where others on the network see it"
    for (name, description) in [("Echo", long), ("Foxtrot", medium), ("Golf", "Short")] {
      var service = Self.service(name)
      service.extraXML += "<key>XDGShareDescription</key><string>\(description)</string>"
      try service.write(into: desktop.userExtensions)
    }
    let run = try run(["services", "labels", "key", "Escape"])
    let line = try #require(run.output.split(separator: "\n").first { $0.hasPrefix("labels: ") })
    let labels = try #require(
      try JSONSerialization.jsonObject(with: Data(line.dropFirst(8).utf8)) as? [String: [Int]])
    let short = try #require(labels["Short"]?[3])
    let twoLines = try #require(labels[medium]?[3])
    let longest = try #require(labels[long]?[3])
    #expect(twoLines >= short * 2 - 2 && twoLines <= short * 2 + 2, "\(labels)")
    #expect(longest == twoLines, "\(labels)")
  }

  /// The page that tells what a service returned keeps the window's width, and shows a long
  /// path wrapped, not selected.
  @Test func theResultPageKeepsTheWidthAndSelectsNothing() throws {
    let folder = desktop.files + "/a folder with a rather long name/and_another_one_inside_it_without_spaces"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let file = folder + "/Holiday at the lake (copy).png"
    try Data(tinyPNG).write(to: URL(fileURLWithPath: file))
    let url = URL(fileURLWithPath: file).absoluteString
    try Self.service(
      "Keeper",
      program: """
        #!/bin/sh
        cat > /dev/null
        echo '{"complete": {"returningItems": [{"attachments": [{"typeIdentifiers": ["public.png"], "url": "\(url)"}]}]}}'
        """
    ).write(into: desktop.userExtensions)
    let run = try run([
      "services", "window-size", "press", "Keeper", "wait-label", "Shared with Keeper", "sleep", "0.5",
      "window-size", "selections", "Holiday at the lake", "key", "Escape",
    ])
    let sizes = run.output.split(separator: "\n").filter { $0.hasPrefix("window-size: ") }.map {
      (try? JSONSerialization.jsonObject(with: Data($0.dropFirst(13).utf8))) as? [Int]
    }
    #expect(sizes.count == 2 && sizes[0] != nil && sizes[0]?.first == sizes[1]?.first, "\(sizes)")
    #expect(run.output.contains("selections: 0"), "\(run.output)")
    #expect(run.exitStatus == 0)
  }

  /// A file of bytes nothing recognises (as one handed over by descriptor often is, nameless) is
  /// a binary file in the preview, not "unknown".
  @Test func aBinaryFileIsDescribedAsOne() throws {
    let binary = desktop.files + "/blob"
    try Data((0..<2048).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }).write(
      to: URL(fileURLWithPath: binary))
    let run = try run(["services", "labels", "key", "Escape"], arguments: [binary])
    #expect(run.output.contains("\"Binary file\""), "\(run.output)")
    #expect(!run.output.contains("\"unknown\""), "\(run.output)")
  }

  /// A list longer than the rows made before the first frame is whole, in order, and searched
  /// whole; the rows made after it do not change the window's size.
  @Test func aLongListIsWholeInOrderAndSearchedWhole() throws {
    let more = (1...26).map { String(format: "Service %02d", $0) }
    for name in more { try Self.service(name).write(into: desktop.userExtensions) }
    let run = try run([
      "layout", "services", "sleep", "0.3", "layout", "type", "service 26", "services", "type", "", "press",
      "Edit",
      "services", "key", "Escape", "key", "Escape",
    ])
    let all = ["Delta", "Charlie", "Alpha", "Bravo"] + more
    #expect(run.services == [all, ["Service 26"], all])
    let sizes = run.output.split(separator: "\n").filter { $0.hasPrefix("layout: ") }.map { line in
      ((try? JSONSerialization.jsonObject(with: Data(line.dropFirst(8).utf8))) as? [String: [Int]])?[
        "(window size)"]
    }
    #expect(sizes.count == 2 && sizes[0] != nil && sizes[0] == sizes[1], "\(sizes)")
  }

  @Test func searchFiltersAndEnterSharesTheFirstMatch() throws {
    let run = try run([
      "type", "rav", "services", "type", "zzz", "services", "type", "", "services", "type", "HA", "services",
      "key", "Return", "wait-label", "Shared with Charlie", "key", "Escape",
    ])
    #expect(run.services == [["Bravo"], [], ["Delta", "Charlie", "Alpha", "Bravo"], ["Charlie", "Alpha"]])
    #expect(run.exitStatus == 0)
    #expect(desktop.servicesRun == ["org.test.charlie"])
  }

  @Test func activatingAServiceRunsItsProgramOnceAndReportsWhatItReturned() throws {
    let run = try run(["press", "Alpha", "wait-label", "Shared with Alpha", "buttons", "key", "Escape"])
    #expect(run.exitStatus == 0)
    #expect(run.response == 0)
    #expect(run.results["service-id"] as? String == "org.test.alpha")
    let returned = run.results["returned-items"] as? [[String: Any]]
    #expect(returned?.first?["url"] as? String == "https://example.org/org.test.alpha")
    #expect(run.buttons.first?.contains("Copy") == true)
    #expect(desktop.servicesRun == ["org.test.alpha"])
  }

  @Test func aPinPersistsIntoTheNextRun() throws {
    // An action reaches the sheet over the bus, a key through X: each key waits for what the
    // action before it shows.
    let first = try run([
      "press", "Edit", "press", "Pin Bravo", "wait-button", "Unpin Bravo", "services", "key", "Escape",
      "wait-button", "Edit", "key", "Escape",
    ])
    #expect(first.services == [["Delta", "Bravo", "Charlie", "Alpha"]])
    #expect(first.exitStatus == 3)
    #expect(desktop.settingsText == "# keep me\n[Services]\nPinned=org.test.delta;org.test.bravo;\n")
    let second = try run([
      "services", "press", "Edit", "wait-button", "Unpin Bravo", "key", "Escape", "wait-button", "Edit",
      "key",
      "Escape",
    ])
    #expect(second.services == [["Delta", "Bravo", "Charlie", "Alpha"]])
  }

  @Test func aHiddenServiceIsGoneFromThePickerAndTheCommandLineUntilShownAgain() throws {
    let first = try run([
      "press", "Edit", "press", "Hide Alpha", "press", "Done", "wait-button", "Edit", "services", "key",
      "Escape",
    ])
    #expect(first.services == [["Delta", "Charlie", "Bravo"]])
    #expect(desktop.settingsText.contains("Hidden=org.test.alpha;"))
    let list = try Tool.run(["list"], on: desktop)
    #expect(list.status == 0)
    #expect(!list.standardOutput.contains("org.test.alpha"))
    #expect(list.standardOutput.contains("org.test.bravo"))

    let second = try run([
      "services", "press", "Edit", "press", "Show Alpha", "press", "Done", "wait-button", "Edit", "services",
      "key",
      "Escape",
    ])
    #expect(second.services == [["Delta", "Charlie", "Bravo"], ["Delta", "Charlie", "Alpha", "Bravo"]])
    #expect(!desktop.settingsText.contains("org.test.alpha"))
  }

  @Test func aClosedWindowFreesItsController() throws {
    let run = try run(["services", "key", "Escape"], environment: ["XDG_SHARE_SHEET_REPORT_FREED": "1"])
    #expect(run.standardError.contains("xdg-share-sheet: controllers freed: 1"), "\(run.standardError)")
  }

  @Test func whenNoServiceAcceptsTheItemsItSaysSoAndExitsSeven() throws {
    let run = try run(
      ["wait-label", "No service can share this", "key", "Escape"], arguments: ["--text", "only a text"])
    #expect(run.exitStatus == 7)
    #expect(run.response == 2)
  }

  /// Asked to share with one service that refuses the items: the sheet says what it takes and
  /// what it was given, in the words of `xdg-share why`.
  @Test func aRefusalSaysWhatTheServiceTakesAndWhatItWasGiven() throws {
    let words = "Alpha takes up to 10 files and one link; \"only a text\" is text (public.plain-text)"
    let run = try run(
      ["wait-label", "Cannot share with Alpha", "wait-label", words, "key", "Escape"],
      arguments: ["--service", "org.test.alpha", "--text", "only a text"])
    #expect(run.exitStatus == 7)
    #expect(run.response == 2)
    #expect(run.results["message"] as? String == words)
    let why = try Tool.run(["why", "org.test.alpha", "--text", "only a text"], on: desktop)
    #expect(why.standardOutput.hasSuffix(words + "\n"))
    #expect(desktop.servicesRun.isEmpty)
  }

  @Test func aFileThatCannotBeReadIsNamedAndExitsOne() throws {
    let run = try run(
      ["wait-label", "Cannot read", "key", "Escape"], arguments: [photo, desktop.files + "/gone.png"])
    #expect(run.exitStatus == 1)
    #expect(run.response == 2)
    #expect((run.results["message"] as? String)?.contains("gone.png") == true)
    #expect(desktop.servicesRun.isEmpty)
  }

  @Test func closingTheWindowDuringAShareLetsItFinish() throws {
    try Self.service(
      "Slow",
      program: """
        #!/bin/sh
        cat > /dev/null
        sleep 4
        echo "$XDG_SHARE_SERVICE_ID" >> "$XDG_STATE_HOME/ran.txt"
        echo '{"complete": {}}'
        """
    ).write(into: desktop.userExtensions)
    let run = try run(["press", "Slow", "wait-button", "Cancel", "key", "Escape"])
    #expect(run.exitStatus == 0)
    #expect(run.results["service-id"] as? String == "org.test.slow")
    #expect(desktop.servicesRun == ["org.test.slow"])
  }

  @Test func aFailureShowsItsReasonAndRetryRunsItAgain() throws {
    try Self.service(
      "Broken",
      program: """
        #!/bin/sh
        cat > /dev/null
        echo "$XDG_SHARE_SERVICE_ID" >> "$XDG_STATE_HOME/ran.txt"
        sleep 3
        exit 9
        """
    ).write(into: desktop.userExtensions)
    let run = try run([
      "press", "Broken", "wait-label", "exited with status 9", "press", "Retry", "wait-button", "Cancel",
      "wait-button", "Retry", "key", "Escape",
    ])
    #expect(run.exitStatus == 4)
    #expect(run.response == 2)
    #expect(desktop.servicesRun == ["org.test.broken", "org.test.broken"])
  }
}
