import Foundation
import ShareTestSupport
import Testing

/// The Purpose plugins `register` writes (issue 32): one folder a service, named by its plugin
/// id, `org.xdgshare.<id>` without the prefix twice for a service whose id has it already (the
/// built-in ones, `org.xdgshare.save-to-folder`), and "Share…"; what `register` says counts them.
@Suite struct PurposePluginFolderTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  var purpose: String { "\(desktop.root)/data/kpackage/Purpose" }

  func install(_ id: String) throws {
    try BundleFixture(
      id: id, name: id,
      ruleXML: BundleFixture.dictionary([
        ("NSExtensionActivationSupportsImageWithMaxCount", "<integer>1</integer>")
      ])
    ).write(into: desktop.userExtensions)
  }

  func folders() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: purpose)) ?? []).sorted()
  }

  @Test func eachServiceHasOneFolderNamedByItsPluginIDAndTheCountSaysSo() throws {
    try install("org.xdgshare.example")
    try install("com.example.photos")
    let result = try Tool.run(["register"], on: desktop)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(folders() == ["org.xdgshare.com.example.photos", "org.xdgshare.example", "xdg-share.picker"])
    let metadata = try String(
      contentsOfFile: "\(purpose)/org.xdgshare.example/metadata.json", encoding: .utf8)
    #expect(
      metadata.contains(#""Id": "org.xdgshare.example""#)
        || metadata.contains(#""Id":"org.xdgshare.example""#))
    #expect(
      result.standardOutput.contains(
        "  KDE applications: Share… and 2 Purpose plugins in kpackage/Purpose\n"),
      "\(result.standardOutput)")
    // doctor agrees that what was written is what register writes.
    let doctor = try Tool.run(["doctor"], on: desktop)
    #expect(
      doctor.standardOutput.contains("  ✓ KDE applications: up to date (9 files)\n"),
      "\(doctor.standardOutput)")
  }

  /// Folders a register before this fix wrote, `org.xdgshare.org.xdgshare.<id>`, are stale for
  /// `doctor` and go with the next `register`, folders and all; `unregister` leaves none.
  @Test func doubledFoldersOfAnEarlierRegisterGo() throws {
    try install("org.xdgshare.example")
    #expect(try Tool.run(["register"], on: desktop).status == 0)
    // As the earlier register left it: the folder under the doubled name, in its record too.
    let right = "kpackage/Purpose/org.xdgshare.example"
    let doubled = "kpackage/Purpose/org.xdgshare.org.xdgshare.example"
    try FileManager.default.moveItem(
      atPath: "\(desktop.root)/data/\(right)", toPath: "\(desktop.root)/data/\(doubled)")
    let manifest = "\(desktop.root)/data/xdg-share/registered.json"
    let record = try String(contentsOfFile: manifest, encoding: .utf8)
    try record.replacingOccurrences(of: right, with: doubled).replacingOccurrences(
      of: right.replacingOccurrences(of: "/", with: "\\/"),
      with: doubled.replacingOccurrences(of: "/", with: "\\/")
    ).write(toFile: manifest, atomically: true, encoding: .utf8)
    #expect(folders() == ["org.xdgshare.org.xdgshare.example", "xdg-share.picker"])

    let doctor = try Tool.run(["doctor"], on: desktop)
    #expect(
      doctor.standardOutput.contains("  ✗ KDE applications: stale (3 missing, 3 left over"),
      "\(doctor.standardOutput)")

    #expect(try Tool.run(["register"], on: desktop).status == 0)
    #expect(folders() == ["org.xdgshare.example", "xdg-share.picker"])

    #expect(try Tool.run(["unregister"], on: desktop).status == 0)
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.root)/data/kpackage"))
  }
}
