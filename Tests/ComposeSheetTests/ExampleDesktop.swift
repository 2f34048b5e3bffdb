import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// A throw-away desktop on a virtual display with examples installed from `examples/` as their
/// READMEs say (the bundle folder copied, the built program put in it, `xdg-share install`), a
/// fake `xdg-email` on `PATH` that records its arguments, and a picture to share.
final class ExampleDesktop {
  let desktop: TemporaryDesktop
  let display: VirtualDisplay
  let picture: String
  /// Where the sheet of the example installed last logs its slides: in that service's container,
  /// the one folder of the home its sandbox may write to.
  private(set) var animationLog: String
  /// Where the fake `xdg-email` appends its arguments, one JSON array a line.
  let mailLog: String
  private let bin: String

  init() throws {
    desktop = try TemporaryDesktop(prefix: "xdg-share-examples")
    try ComposeHarness.prepare(desktop)
    display = try VirtualDisplay(firstNumber: 200)
    picture = desktop.files + "/pic.png"
    try Data(tinyPNG).write(to: URL(fileURLWithPath: picture))
    animationLog = "\(desktop.root)/animation.log"
    mailLog = "\(desktop.root)/xdg-email.log"
    bin = "\(desktop.root)/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let fake = "\(bin)/xdg-email"
    try """
    #!\(ComposeHarness.python)
    import json, sys
    with open(\(String(reflecting: mailLog)), "a", encoding="utf-8") as log:
        log.write(json.dumps(sys.argv[1:]) + "\\n")

    """.write(toFile: fake, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
  }

  /// Copies `examples/<name>/<name>.shareext` to the home folder, puts the built program in it and
  /// installs it unconfined, to drive its window (``ComposeHarness/installUnconfined(_:on:)``);
  /// returns the copy's path. `id` is the bundle's identifier.
  @discardableResult
  func install(_ name: String, id: String) throws -> String {
    animationLog = desktop.root + "/animation.log"
    let bundle = "\(desktop.root)/home/\(name).shareext"
    try FileManager.default.copyItem(
      atPath: ComposeHarness.repository.appendingPathComponent("examples/\(name)/\(name).shareext").path,
      toPath: bundle)
    try FileManager.default.copyItem(atPath: ComposeHarness.built(name), toPath: "\(bundle)/\(name)")
    try ComposeHarness.installUnconfined(bundle, on: desktop)
    return bundle
  }

  /// The desktop's environment with the display, the fake `xdg-email` first on `PATH`, and the
  /// animation log.
  var environment: [String: String] {
    var environment = desktop.environment
    environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    environment["DISPLAY"] = display.name
    environment["GDK_BACKEND"] = "x11"
    environment["GIO_USE_VFS"] = "local"
    environment["ADW_DISABLE_PORTAL"] = "1"
    // Cairo, not GL on llvmpipe: see MicroblogDesktop.share.
    environment["GSK_RENDERER"] = "cairo"
    environment["XDG_SHARE_ANIMATION_LOG"] = animationLog
    return environment
  }

  /// Runs `xdg-share ARGUMENTS` (which opens the sheet of the program `app`) and drives the sheet
  /// with `steps`.
  func share(app: String, _ arguments: [String], then steps: [String]) throws -> ComposeRun {
    let command =
      ["dbus-run-session", "--", ComposeHarness.python, ComposeHarness.driverPath, app, Tool.path]
      + arguments + ["--then"] + steps
    let run = try CapturedRun.run(
      command.map { Array($0.utf8) }, environment: environment, workingDirectory: Array(desktop.files.utf8))
    return ComposeRun(run)
  }

  /// Runs a built program of the package (`hoi-friends`) on the desktop.
  func runBuilt(_ name: String, _ arguments: [String]) throws -> CapturedRun {
    try CapturedRun.run(
      ([ComposeHarness.built(name)] + arguments).map { Array($0.utf8) }, environment: desktop.environment,
      workingDirectory: Array(desktop.files.utf8))
  }

  /// Each argument list the fake `xdg-email` was started with.
  var mails: [[String]] {
    let text = (try? String(contentsOfFile: mailLog, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String]
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

  /// Checks that both slides were measured, 0.25 s in and 0.20 s out, within 50 ms.
  func expectSlides(sourceLocation: SourceLocation = #_sourceLocation) {
    let slides = slides
    #expect(slides.map(\.0) == ["slide-in", "slide-out"], "\(slides)", sourceLocation: sourceLocation)
    for (name, seconds) in slides {
      let expected = name == "slide-in" ? 0.25 : 0.20
      #expect(abs(seconds - expected) <= 0.05, "\(name) took \(seconds) s", sourceLocation: sourceLocation)
    }
  }
}

extension ComposeRun {
  /// `field NAME` steps: each field's text, in order.
  var fields: [(String, String)] {
    lines(after: "field: ").compactMap { line in
      guard let range = line.range(of: " = ") else { return nil }
      let text = try? JSONSerialization.jsonObject(
        with: Data(line[range.upperBound...].utf8), options: .fragmentsAllowed)
      return (String(line[..<range.lowerBound]), text as? String ?? "")
    }
  }

  /// `labels` steps: the names of the labels, each time.
  var labels: [[String]] {
    lines(after: "labels: ").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String]
    }
  }

  /// `checked NAME` steps: `NAME true|false`.
  var checked: [String] { lines(after: "checked: ") }

  private func lines(after prefix: String) -> [String] {
    output.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
  }
}
