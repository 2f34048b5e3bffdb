import Foundation
import SharePOSIX
import ShareProtocol
import ShareTestSupport
import Testing

@testable import ShareHost

/// The row of direct targets, as a user meets it through AT-SPI: targets published by a service
/// written in Python and by one written in Swift (Save to Folder, bundled), first in the order of
/// use, filtered by what is shared; choosing one runs its service once with it; the suggestions
/// switch hides them; a hostile file of targets breaks nothing.
@Suite(.serialized, .enabled(if: SheetHarness.missing.isEmpty, SheetHarness.skipReason))
struct TargetsUITests {
  let desktop: TemporaryDesktop
  let display: VirtualDisplay
  let photo: String
  let notes: String

  static let notesID = "org.test.notes"
  static let saveID = "org.xdgshare.save-to-folder"

  /// Notes, in Python: publishes its contacts when asked to (`XDG_SHARE_PUBLISH_TARGETS=1`), as
  /// docs/direct-targets.md shows; shares by recording the target it was given.
  static let notesProgram = """
    #!/usr/bin/python3
    import json, os, sys
    state = os.environ["XDG_STATE_HOME"]
    if os.environ.get("XDG_SHARE_PUBLISH_TARGETS") == "1":
        folder = os.path.join(state, "xdg-share", "targets")
        os.makedirs(folder, exist_ok=True)
        targets = [
            {"id": "jana", "title": "Jana", "subtitle": "Signal", "icon": "avatar-default"},
            {"id": "club", "title": "Climbing club", "contentTypes": ["public.image"]},
        ]
        temporary = os.path.join(folder, ".notes.json")
        with open(temporary, "w") as f: json.dump({"targets": targets}, f)
        os.replace(temporary, os.path.join(folder, os.environ["XDG_SHARE_SERVICE_ID"] + ".json"))
        sys.exit(0)
    request = json.load(sys.stdin)
    target = (request.get("target") or {}).get("id", "-")
    with open(os.path.join(os.environ["XDG_STATE_HOME"], "ran.txt"), "a") as f: f.write("org.test.notes " + target + "\\n")
    print(json.dumps({"complete": {}}), flush=True)
    """

  init() throws {
    desktop = try TemporaryDesktop(prefix: "xdg-share-sheet")
    try SheetHarness.prepare(desktop)
    display = try VirtualDisplay(firstNumber: 150)
    try BundleFixture(
      id: Self.notesID, name: "Notes",
      ruleXML: BundleFixture.activationDictionary([
        ("SupportsFileWithMaxCount", "<integer>5</integer>"), ("SupportsText", "<true/>"),
      ]), program: Self.notesProgram
    ).write(into: desktop.userExtensions)
    try SheetHarness.installBundled(Self.saveID, into: desktop)
    photo = desktop.files + "/photo.png"
    try Data(tinyPNG).write(to: URL(fileURLWithPath: photo))
    notes = try desktop.writeFile(named: "notes.txt", contents: "call Jana back\n")

    // The Python service publishes, as the D-Bus service would run it to.
    var environment = desktop.environment
    environment["XDG_SHARE_PUBLISH_TARGETS"] = "1"
    environment["XDG_SHARE_SERVICE_ID"] = Self.notesID
    let published = try CapturedRun.run(
      [Array("\(desktop.userExtensions)/\(Self.notesID).shareext/share".utf8)], environment: environment)
    #expect(published.status == 0)
    // Save to Folder publishes the folder it saved to: its targets are the folders saved to last.
    let saved = try Tool.run(["--service", Self.saveID, "notes.txt"], on: desktop)
    #expect(saved.status == 0, "\(saved.standardError)")
    // Jana was shared to most, lately.
    let history = HistoryStore(stateHome: "\(desktop.root)/state")
    for index in 0..<3 {
      try history.save(
        HistoryRecord(
          id: "jana-\(index)", serviceId: Self.notesID, serviceName: "Notes",
          items: [
            .file(url: "file:///home/someone/earlier.png"), .file(url: "file:///home/someone/earlier.txt"),
          ],
          started: Date().addingTimeInterval(-600), status: .completed,
          target: TargetPayload(id: "jana", title: "Jana")))
    }
  }

  func run(_ steps: [String], arguments: [String]) throws -> DriverRun {
    let run = try desktop.runSheet(arguments, steps: steps, display: display)
    #expect(run.driverStatus == 0, "\(run.output)")
    return run
  }

  static func suggestions(_ run: DriverRun) -> [[String]] {
    run.output.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("suggestions: ") else { return nil }
      return (try? JSONSerialization.jsonObject(with: Data(line.dropFirst(13).utf8))) as? [String]
    }
  }

  @Test func targetsComeFirstInTheOrderOfUseFilteredByWhatIsShared() throws {
    let home = "\(desktop.root)/home"
    let image = try run(["suggestions", "key", "Escape"], arguments: [photo])
    // Jana, used most; then the club, of the service used for images; then the folder, of one
    // used for a text only.
    #expect(Self.suggestions(image) == [["Jana Signal", "Climbing club", "Public ~/Public"]])
    // The club takes images only.
    let text = try run(["suggestions", "key", "Escape"], arguments: [notes])
    #expect(Self.suggestions(text) == [["Jana Signal", "Public ~/Public"]])
    #expect(FileManager.default.fileExists(atPath: "\(home)/Public/notes.txt"))
  }

  @Test func choosingATargetRunsItsServiceOnceWithIt() throws {
    let run = try run(["press", "Jana Signal", "wait-gone"], arguments: [notes])
    #expect(run.exitStatus == 0, "\(run.output)")
    #expect(desktop.servicesRun == ["org.test.notes jana"])
    // A folder target: saved there at once, the compose sheet not asked.
    let saved = try self.run(
      ["press", "Public ~/Public", "wait-label", "Shared with Save to Folder", "key", "Escape"],
      arguments: [photo])
    #expect(saved.exitStatus == 0, "\(saved.output)")
    #expect(FileManager.default.fileExists(atPath: "\(desktop.root)/home/Public/photo.png"))
  }

  /// Down from the search reaches the row of suggestions before the services; Up comes back to it.
  @Test(arguments: [["key", "Down"], ["key", "Down", "key", "Down", "key", "Up"]])
  func theArrowsReachTheSuggestions(_ keys: [String]) throws {
    let run = try run(["suggestions"] + keys + ["key", "Return", "wait-gone"], arguments: [notes])
    #expect(run.exitStatus == 0, "\(run.output)")
    #expect(desktop.servicesRun == ["org.test.notes jana"])
  }

  @Test func theSuggestionsSwitchHidesThem() throws {
    let run = try run(
      [
        "suggestions", "press", "Edit", "toggle", "Suggestions", "press", "Done", "suggestions", "key",
        "Escape",
      ],
      arguments: [photo])
    #expect(Self.suggestions(run).first?.isEmpty == false)
    #expect(Self.suggestions(run).last == [])
    #expect(desktop.settingsText.contains("Suggestions=false"))
    // And the next time too.
    let next = try self.run(["suggestions", "key", "Escape"], arguments: [photo])
    #expect(Self.suggestions(next) == [[]])
  }

  /// Nothing moves after the first frame: the thumbnail takes the place and size of the file's
  /// icon, and the targets' and services' icons are at their size from the start. The same
  /// window where no thumbnail can come (a file named `.png` that is not one) is laid out as the
  /// one whose thumbnail came.
  @Test func nothingMovesWhenTheThumbnailComes() throws {
    let folders = ["\(desktop.files)/real", "\(desktop.files)/broken"]
    for folder in folders {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    // Large enough that it is decoded well after the first frame.
    let made = try CapturedRun.run(
      ["/usr/bin/convert", "-size", "1600x1600", "plasma:", "\(folders[0])/photo.png"].map { Array($0.utf8) },
      environment: desktop.environment)
    #expect(made.status == 0)
    try "not a picture\n".write(toFile: "\(folders[1])/photo.png", atomically: true, encoding: .utf8)
    func layouts(_ run: DriverRun) -> [[String: [Int]]] {
      run.output.split(separator: "\n").compactMap { line in
        guard line.hasPrefix("layout: ") else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line.dropFirst(8).utf8))) as? [String: [Int]]
      }
    }
    let real = layouts(
      try run(
        ["layout", "wait-image", "Preview", "layout", "key", "Escape"], arguments: ["\(folders[0])/photo.png"]
      ))
    let broken = layouts(
      try run(["layout", "sleep", "1", "layout", "key", "Escape"], arguments: ["\(folders[1])/photo.png"]))
    #expect(real.count == 2 && broken.count == 2)
    #expect(real.first?["Jana Signal"] != nil, "\(real)")
    #expect(real.first == real.last)
    #expect(broken.first == broken.last)
    #expect(real.last == broken.last)
  }

  @Test(arguments: ["not json {", String(repeating: " ", count: 70_000) + "{}", "hostile"])
  func aHostileFileOfTargetsBreaksNothing(_ contents: String) throws {
    let file = "\(desktop.root)/state/xdg-share/targets/\(Self.notesID).json"
    let written =
      contents == "hostile"
      ? #"""
      {"targets": [
        {"id": "a", "title": "Jana\nTrusted Bank", "subtitle": "x"},
        {"id": "b", "title": "evil\u202Egnp.exe"},
        {"id": "c", "title": "Kim", "subtitle": "\u2066Signal"},
        {"id": "ok", "title": "Lea"}
      ]}
      """# : contents
    try written.write(toFile: file, atomically: true, encoding: .utf8)
    let run = try run(["services", "suggestions", "key", "Escape"], arguments: [photo])
    #expect(run.services.first?.contains("Notes") == true)
    let expected = contents == "hostile" ? ["Lea", "Public ~/Public"] : ["Public ~/Public"]
    #expect(Self.suggestions(run) == [expected])
  }
}
