import Foundation
import ShareCore
import SharePOSIX
import ShareTestSupport
import Testing

/// `xdg-share doctor` in a throw-away desktop: a shadowed, a hidden, an invalid and a
/// requirement-missing service, and file-manager entries gone stale.
@Suite struct DoctorTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  static let anyFile = BundleFixture.activationDictionary([
    ("SupportsFileWithMaxCount", "<integer>5</integer>")
  ])

  @Test func aCleanDesktopNeedsNothing() throws {
    try BundleFixture(id: "com.example.fine", name: "Fine", ruleXML: Self.anyFile).write(
      into: desktop.userExtensions)
    let before = try Tool.run(["doctor"], on: desktop)
    #expect(before.status == 0, "\(before.standardOutput)")
    #expect(
      before.standardOutput.contains("    ✓ Fine (com.example.fine), com.example.fine.shareext: loaded\n"))
    #expect(before.standardOutput.contains("· Entries for your account in \(desktop.root)/data: none"))
    #expect(before.standardOutput.hasSuffix("Nothing needs you.\n"))
    #expect(try Tool.run(["register"], on: desktop).status == 0)
    let after = try Tool.run(["doctor"], on: desktop)
    #expect(after.status == 0, "\(after.standardOutput)")
    #expect(after.standardOutput.contains("  ✓ Thunar: up to date (2 files)\n"))
  }

  @Test func everyKindOfTroubleIsNamedWithWhatToDo() throws {
    try BundleFixture(id: "com.example.fine", name: "Fine", ruleXML: Self.anyFile).write(
      into: desktop.userExtensions)
    #expect(try Tool.run(["register"], on: desktop).status == 0)
    // Shadowed: the same identifier in the system folder, read after the user's.
    try BundleFixture(id: "com.example.fine", name: "Fine (system)", ruleXML: Self.anyFile)
      .write(into: desktop.systemExtensions)
    // Hidden and pinned by the user.
    try BundleFixture(id: "com.example.hidden", name: "Hidden", ruleXML: Self.anyFile).write(
      into: desktop.systemExtensions)
    try BundleFixture(id: "com.example.pinned", name: "Pinned", ruleXML: Self.anyFile).write(
      into: desktop.systemExtensions)
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/config/xdg-share", withIntermediateDirectories: true)
    try "[Services]\nHidden=com.example.hidden;\nPinned=com.example.pinned;\n".write(
      toFile: "\(desktop.root)/config/xdg-share/settings.ini", atomically: true, encoding: .utf8)
    // Invalid: its program is missing.
    var broken = BundleFixture(id: "com.example.broken", name: "Broken", ruleXML: Self.anyFile)
    broken.executableName = "run"
    let brokenPath = try broken.write(into: desktop.userExtensions)
    try FileManager.default.removeItem(atPath: "\(brokenPath)/run")
    // A program it needs is not there.
    try BundleFixture(
      id: "com.example.needy", name: "Needy", ruleXML: Self.anyFile,
      extraXML: "<key>XDGShareRequiredPrograms</key><array><string>no-such-program-here</string></array>"
    ).write(into: desktop.userExtensions)
    // Copied in by hand after register: the file managers do not have it.
    try BundleFixture(id: "com.example.new", name: "New", ruleXML: Self.anyFile).write(
      into: desktop.userExtensions)

    let result = try Tool.run(["doctor"], on: desktop)
    #expect(result.status == 1)
    let out = result.standardOutput
    let user = desktop.userExtensions
    #expect(out.contains("  \(user):\n"))
    #expect(
      out.contains(
        "    ✗ Broken (com.example.broken), com.example.broken.shareext: invalid, so not loaded; fix these, then check with xdg-share validate:\n"
      ))
    #expect(
      out.contains(
        "CFBundleExecutable: expected an executable file in the bundle, found no such file \"run\""))
    #expect(
      out.contains(
        "    · Needy (com.example.needy), com.example.needy.shareext: not offered: it needs the program no-such-program-here, not found on this desktop; install it\n"
      ))
    #expect(
      out.contains(
        "    · Fine (system) (com.example.fine), com.example.fine.shareext: not used: \(user)/com.example.fine.shareext has the same identifier and is read first\n"
      ))
    #expect(out.contains("    · Hidden (com.example.hidden), com.example.hidden.shareext: hidden by you"))
    #expect(
      out.contains(
        "    ✓ Pinned (com.example.pinned), com.example.pinned.shareext: loaded, pinned by you to the top of the share sheet\n"
      ))
    #expect(out.contains("  ✗ Thunar: stale (2 missing): run xdg-share register\n"))
    #expect(
      out.contains("      missing: \(desktop.root)/data/Thunar/sendto/xdg-share-com.example.new.desktop\n"))
    // Bundles in the order they are read: the user's folder, then the system's.
    let order = [
      "com.example.broken.shareext", "com.example.fine.shareext: loaded", "com.example.needy",
      "com.example.new", "Fine (system)", "com.example.hidden", "com.example.pinned",
    ]
    let positions = order.map { out.range(of: $0)?.lowerBound }
    #expect(positions.allSatisfy { $0 != nil })
    #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())

    let json = try WhyTests.object(try Tool.run(["doctor", "--json"], on: desktop))
    #expect(
      Set(json.keys) == ["folders", "bundles", "frontEnds", "registrations", "targets", "needsAttention"])
    #expect(json["needsAttention"] as? Bool == true)
    let bundles = try #require(json["bundles"] as? [[String: Any]])
    let states = Dictionary(
      bundles.map {
        ("\($0["id"] as? String ?? "")@\($0["folder"] as? String ?? "")", $0["state"] as? String ?? "")
      },
      uniquingKeysWith: { $1 })
    #expect(states["com.example.broken@\(user)"] == "invalid")
    #expect(states["com.example.needy@\(user)"] == "requirements-missing")
    #expect(states["com.example.fine@\(user)"] == "loaded")
    #expect(states["com.example.fine@\(desktop.systemExtensions)"] == "shadowed")
    #expect(states["com.example.hidden@\(desktop.systemExtensions)"] == "hidden")
    #expect(states["com.example.pinned@\(desktop.systemExtensions)"] == "pinned")
    let frontEnds = try #require(json["frontEnds"] as? [[String: Any]])
    let userFrontEnds = frontEnds.filter { $0["scope"] as? String == "user" }
    #expect(
      Set(userFrontEnds.compactMap { $0["frontEnd"] as? String }) == [
        "dolphin", "nautilus", "thunar", "nemo", "desktop-actions", "dbus", "application", "purpose",
        "browsers",
      ])
    #expect(userFrontEnds.first { $0["frontEnd"] as? String == "thunar" }?["state"] as? String == "stale")
    #expect(userFrontEnds.first { $0["frontEnd"] as? String == "dbus" }?["state"] as? String == "up-to-date")

    // What it says to do, done: the entries are up to date; the broken bundle remains (the needy
    // one is only worth knowing: issue 32).
    #expect(try Tool.run(["register"], on: desktop).status == 0)
    let again = try Tool.run(["doctor"], on: desktop)
    #expect(again.status == 1)
    #expect(!again.standardOutput.contains("stale"))
    #expect(again.standardOutput.hasSuffix("1 thing needs you: the lines marked ✗ say what to do.\n"))
  }

  /// Entries for a service removed by hand are left over until `register` runs.
  @Test func entriesOfAServiceGoneAreLeftOver() throws {
    let bundle = try BundleFixture(id: "com.example.gone", name: "Gone", ruleXML: Self.anyFile)
      .write(into: desktop.userExtensions)
    #expect(try Tool.run(["register"], on: desktop).status == 0)
    try FileManager.default.removeItem(atPath: bundle)
    let result = try Tool.run(["doctor"], on: desktop)
    #expect(result.status == 1)
    #expect(result.standardOutput.contains("left over for services no longer offered"))
    #expect(
      result.standardOutput.contains(
        "      left over: \(desktop.root)/data/Thunar/sendto/xdg-share-com.example.gone.desktop\n"))
  }
}
