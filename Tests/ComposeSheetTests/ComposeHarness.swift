import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

// Copied from SheetTests' harness (SheetHarness.swift), which lives in another test target: the
// check for Xvfb, dbus-run-session, xdotool and pyatspi, and the virtual display.

/// Runs `xdg-share share --service … FILE` on a virtual display with a private session bus; the
/// share extension's sheet it opens is driven through AT-SPI by `Driver/compose_driver.py`.
enum ComposeHarness {
  /// The Python that has pyatspi (Debian's; a pyenv `python3` on `PATH` may not).
  static let python = "/usr/bin/python3"

  /// What the UI tests need and this machine lacks; empty when they can run.
  static let missing: [String] = {
    var missing: [String] = []
    for program in ["Xvfb", "dbus-run-session", "xdotool"] where findProgram(program) == nil {
      missing.append(program)
    }
    let pyatspi = try? CapturedRun.run(
      [python, "-c", "import pyatspi"].map { Array($0.utf8) }, environment: ["PATH": "/usr/bin:/bin"])
    if pyatspi?.status != 0 { missing.append("\(python) with pyatspi (python3-pyatspi)") }
    return missing
  }()

  static var skipReason: Comment {
    Comment(
      rawValue: "UI tests skipped: missing \(missing.joined(separator: ", ")); "
        + "apt-get install xvfb dbus-x11 xdotool python3-pyatspi at-spi2-core")
  }

  /// A program built next to `xdg-share` (`.build/<config>/`).
  static func built(_ name: String) -> String {
    URL(fileURLWithPath: Tool.path).deletingLastPathComponent().appendingPathComponent(name).path
  }

  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static var driverPath: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "Driver/compose_driver.py"
    )
    .path
  }

  static func findProgram(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// Makes `desktop` fit for GTK: its data folder sees the system's icons and GSettings schemas.
  static func prepare(_ desktop: TemporaryDesktop) throws {
    for folder in ["icons", "glib-2.0"] {
      try FileManager.default.createSymbolicLink(
        atPath: "\(desktop.root)/system/\(folder)", withDestinationPath: "/usr/share/\(folder)")
    }
  }

  /// The container of the service `id` on `desktop`, kept between its requests: the one folder of
  /// the home its sandbox may write to (docs/sandbox.md), made when the service first runs.
  static func container(of id: String, on desktop: TemporaryDesktop) -> String {
    "\(desktop.root)/data/xdg-share/containers/\(id)"
  }

  /// Installs the example `bundle` on `desktop` to drive its own window: unconfined, with
  /// everything it declares and `org.xdgshare.unconfined` added. In its sandbox the window
  /// registers on the (filtered) accessibility bus but its tree is not reachable yet, so the
  /// driver, an assistive technology, could not find its fields (docs/sandbox.md says so); the
  /// examples' other tests run them sandboxed.
  static func installUnconfined(_ bundle: String, on desktop: TemporaryDesktop) throws {
    let file = "\(bundle)/Entitlements.plist"
    let declared = try String(contentsOfFile: file, encoding: .utf8)
    guard let end = declared.range(of: "</dict>", options: .backwards) else {
      throw CocoaError(.fileReadCorruptFile)
    }
    try declared.replacingCharacters(
      in: end, with: "  <key>org.xdgshare.unconfined</key><true/>\n</dict>"
    ).write(toFile: file, atomically: true, encoding: .utf8)
    let installed = try Tool.run(
      [Array("install".utf8), Array("--allow-unconfined".utf8), Array(bundle.utf8)], on: desktop)
    try #require(installed.status == 0, "\(installed.standardError)")
  }
}

/// What the driver printed for one run.
struct ComposeRun {
  var driverStatus: Int32
  var output: String
  var exitStatus: Int32?
  var counts: [String] = []
  var sensitive: [String] = []
  var descriptions: [String] = []
  var buttons: [[String]] = []
  var standardError: [String] = []

  init(_ run: CapturedRun) {
    driverStatus = run.status
    let printed = String(decoding: run.standardOutput, as: UTF8.self)
    output = printed + String(decoding: run.standardError, as: UTF8.self)
    for line in printed.split(separator: "\n").map(String.init) {
      func value(_ prefix: String) -> String? {
        line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : nil
      }
      if let count = value("count: ") { counts.append(count) }
      if let state = value("sensitive: ") { sensitive.append(state) }
      if let text = value("describe: ") { descriptions.append(text) }
      if let list = value("buttons: "),
        let names = try? JSONSerialization.jsonObject(with: Data(list.utf8)) as? [String]
      {
        buttons.append(names)
      }
      if let status = value("exit-status: ") { exitStatus = Int32(status) }
      if let error = value("stderr: ") { standardError.append(error) }
    }
  }
}

/// A throw-away desktop with Microblog installed from `examples/Microblog`, a display, and a
/// picture to share.
final class MicroblogDesktop {
  static let id = "org.example.microblog"

  let desktop: TemporaryDesktop
  let display: VirtualDisplay
  let picture: String
  let animationLog: String

  init() throws {
    desktop = try TemporaryDesktop(prefix: "xdg-share-compose")
    try ComposeHarness.prepare(desktop)
    display = try VirtualDisplay(firstNumber: 200)
    // The bundle as a user builds it: the example's folder, the program copied in, installed.
    let bundle = "\(desktop.root)/home/Microblog.shareext"
    try FileManager.default.copyItem(
      atPath: ComposeHarness.repository.appendingPathComponent("examples/Microblog/Microblog.shareext").path,
      toPath: bundle)
    try FileManager.default.copyItem(atPath: ComposeHarness.built("Microblog"), toPath: "\(bundle)/Microblog")
    try ComposeHarness.installUnconfined(bundle, on: desktop)
    picture = desktop.files + "/pic.png"
    try Data(tinyPNG).write(to: URL(fileURLWithPath: picture))
    animationLog = desktop.root + "/animation.log"
  }

  /// Shares the picture with Microblog and drives its sheet with `steps`.
  func share(_ steps: [String], environment extra: [String: String] = [:]) throws -> ComposeRun {
    var environment = desktop.environment
    environment["DISPLAY"] = display.name
    environment["GDK_BACKEND"] = "x11"
    // No GVfs daemon, no portal: nothing outlives the bus but what the test started.
    environment["GIO_USE_VFS"] = "local"
    environment["ADW_DISABLE_PORTAL"] = "1"
    // Cairo, not GL on llvmpipe: a GL frame of a software renderer on a busy machine takes
    // ~100 ms, so the frame clock would step past the slide's end by that much.
    environment["GSK_RENDERER"] = "cairo"
    environment["XDG_SHARE_ANIMATION_LOG"] = animationLog
    environment.merge(extra) { $1 }
    let command =
      [
        "dbus-run-session", "--", ComposeHarness.python, ComposeHarness.driverPath, "Microblog", Tool.path,
        "share", "--service", "org.example.microblog", picture, "--then",
      ] + steps
    let run = try CapturedRun.run(
      command.map { Array($0.utf8) }, environment: environment, workingDirectory: Array(desktop.files.utf8))
    return ComposeRun(run)
  }

  /// The posts Microblog wrote, as JSON objects: in `$XDG_DATA_HOME/microblog/`, the desktop's
  /// (it runs unconfined here: ``ComposeHarness/installUnconfined(_:on:)``).
  var posts: [[String: Any]] {
    let folder = desktop.root + "/data/microblog"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.sorted().compactMap { name in
      guard let data = FileManager.default.contents(atPath: "\(folder)/\(name)") else { return nil }
      return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }
  }

  /// Each slide the sheet measured: name and seconds.
  var slides: [(String, Double)] {
    let text = (try? String(contentsOfFile: animationLog, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { line in
      let parts = line.split(separator: " ")
      guard parts.count == 2, let seconds = Double(parts[1]) else { return nil }
      return (String(parts[0]), seconds)
    }
  }
}
