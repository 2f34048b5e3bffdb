import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// Runs the built `xdg-share-sheet` on a virtual display with a private session bus, driven through
/// AT-SPI by `Driver/sheet_driver.py` (python3 and pyatspi, as assistive technologies do).
enum SheetHarness {
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

  /// `xdg-share-sheet` next to the test bundle (`.build/<config>/`), or `XDG_SHARE_SHEET_BINARY`.
  static var sheetPath: String {
    if let override = ProcessInfo.processInfo.environment["XDG_SHARE_SHEET_BINARY"] { return override }
    return URL(fileURLWithPath: Tool.path).deletingLastPathComponent().appendingPathComponent(
      "xdg-share-sheet"
    )
    .path
  }

  static var driverPath: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "Driver/sheet_driver.py"
    )
    .path
  }

  /// The processes whose environment holds `entry` (`NAME=VALUE`), the test's own left out.
  static func processes(withEnvironment entry: String) -> [Int32] {
    let own = ProcessInfo.processInfo.processIdentifier
    let wanted = Array(entry.utf8)
    return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
      guard let pid = Int32(name), pid != own,
        let environ = FileManager.default.contents(atPath: "/proc/\(name)/environ")
      else { return nil }
      return environ.split(separator: 0).contains { Array($0) == wanted } ? pid : nil
    }
  }

  static func findProgram(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// Installs the bundled service `id` as install.sh does: `data/extensions/<id>.shareext` copied
  /// into the user's extensions, its program a link to the built `xdg-share-services`.
  static func installBundled(_ id: String, into desktop: TemporaryDesktop) throws {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("data/extensions/\(id).shareext").path
    let bundle = "\(desktop.userExtensions)/\(id).shareext"
    try FileManager.default.createDirectory(atPath: desktop.userExtensions, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: source, toPath: bundle)
    let services = URL(fileURLWithPath: Tool.path).deletingLastPathComponent().appendingPathComponent(
      "xdg-share-services"
    ).path
    try FileManager.default.createSymbolicLink(atPath: "\(bundle)/share", withDestinationPath: services)
  }

  /// Makes `desktop` fit for GTK: its data folder sees the system's icons and GSettings schemas
  /// (never its share services, which stay out of the tests).
  static func prepare(_ desktop: TemporaryDesktop) throws {
    for folder in ["icons", "glib-2.0"] {
      try FileManager.default.createSymbolicLink(
        atPath: "\(desktop.root)/system/\(folder)", withDestinationPath: "/usr/share/\(folder)")
    }
  }
}

/// One run of the sheet under the driver: what the driver printed.
struct DriverRun {
  /// The driver's own status: 0 when every step worked.
  var driverStatus: Int32
  var output: String
  /// Each `services` step's list.
  var services: [[String]] = []
  /// Each `buttons` step's list.
  var buttons: [[String]] = []
  /// Each `entries` step's list.
  var entries: [[String]] = []
  var exitStatus: Int32?
  var result: [String: Any] = [:]
  var standardError: [String] = []

  init(_ run: CapturedRun) {
    driverStatus = run.status
    let printed = String(decoding: run.standardOutput, as: UTF8.self)
    // The driver's own standard error (a Python traceback) goes with what it printed, for the
    // message of a failed expectation.
    output = printed + String(decoding: run.standardError, as: UTF8.self)
    for line in printed.split(separator: "\n").map(String.init) {
      func list(_ prefix: String) -> [String]? {
        guard line.hasPrefix(prefix) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line.dropFirst(prefix.count).utf8))) as? [String]
      }
      if let names = list("services: ") { services.append(names) }
      if let names = list("buttons: ") { buttons.append(names) }
      if let names = list("entries: ") { entries.append(names) }
      if line.hasPrefix("exit-status: ") { exitStatus = Int32(line.dropFirst(13)) }
      if line.hasPrefix("result: "),
        let object = try? JSONSerialization.jsonObject(with: Data(line.dropFirst(8).utf8)) as? [String: Any]
      {
        result = object
      }
      if line.hasPrefix("stderr: ") { standardError.append(String(line.dropFirst(8))) }
    }
  }

  var response: Int? { result["response"] as? Int }
  var results: [String: Any] { result["results"] as? [String: Any] ?? [:] }
}

extension TemporaryDesktop {
  /// Runs the sheet with `arguments` on `display`, inside a session bus of its own, and drives it
  /// with `steps` (see `Driver/sheet_driver.py`).
  func runSheet(
    _ arguments: [String], steps: [String], display: VirtualDisplay, environment extra: [String: String] = [:]
  ) throws -> DriverRun {
    var environment = self.environment
    environment["DISPLAY"] = display.name
    environment["GDK_BACKEND"] = "x11"
    // No GVfs daemon, no portal: nothing outlives the bus but what the test started.
    environment["GIO_USE_VFS"] = "local"
    environment["ADW_DISABLE_PORTAL"] = "1"
    environment.merge(extra) { $1 }
    let command =
      ["dbus-run-session", "--", SheetHarness.python, SheetHarness.driverPath, SheetHarness.sheetPath]
      + arguments + ["--then"] + steps
    let run = try CapturedRun.run(
      command.map { Array($0.utf8) }, environment: environment, workingDirectory: Array(files.utf8))
    return DriverRun(run)
  }

  /// What the test services wrote when they ran, one identifier a line: each writes into its
  /// container's `XDG_STATE_HOME` (docs/sandbox.md), a service without a sandbox into `HOME`.
  var servicesRun: [String] {
    let containers = "\(root)/data/xdg-share/containers"
    let services = ((try? FileManager.default.contentsOfDirectory(atPath: containers)) ?? []).sorted()
    let files = ["\(root)/home/ran.txt"] + services.map { "\(containerState(of: $0))/ran.txt" }
    return files.flatMap { file in
      ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
  }

  var settingsText: String {
    (try? String(contentsOfFile: "\(root)/config/xdg-share/settings.ini", encoding: .utf8)) ?? ""
  }
}
