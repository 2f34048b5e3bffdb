import Foundation
import ShareTestSupport
import Testing

/// `xdg-share doctor` points at the log of a service's last run to publish its direct targets when
/// that log holds something, and says nothing of logs that hold nothing.
@Suite struct DoctorPublishingLogTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
    try BundleFixture(
      id: "com.example.notes", name: "Notes",
      ruleXML: BundleFixture.activationDictionary([("SupportsText", "<true/>")])
    ).write(into: desktop.userExtensions)
  }

  func write(_ text: String, to path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  var targets: String { "\(desktop.root)/state/xdg-share/targets" }
  var logs: String { "\(desktop.root)/state/xdg-share/publishers" }

  @Test func aLogThatHoldsSomethingIsPointedAt() throws {
    try write(#"{"targets": [{"id": "jana", "title": "Jana"}]}"#, to: "\(targets)/com.example.notes.json")
    try write(
      "no devices\nxdg-share: the program exited with status 3\n", to: "\(logs)/com.example.notes.log")
    try write("cannot reach the server\n", to: "\(logs)/com.example.gone.log")
    let doctor = try Tool.run(["doctor"], on: desktop)
    #expect(doctor.status == 0, "\(doctor.standardOutput)")
    #expect(
      doctor.standardOutput.contains(
        """
        Direct targets the services published, in \(targets):
          ✓ com.example.notes: 1 target
              its program's last run to publish them wrote to \(logs)/com.example.notes.log
          · com.example.gone: nothing published; its program's last run wrote to \(logs)/com.example.gone.log

        """))
    let json =
      try JSONSerialization.jsonObject(
        with: Data(try Tool.run(["doctor", "--json"], on: desktop).standardOutput.utf8)) as? [String: Any]
    let listed = try #require(json?["publishingLogs"] as? [[String: String]])
    #expect(listed.map { $0["service"] } == ["com.example.gone", "com.example.notes"])
    #expect(listed.first?["log"] == "\(logs)/com.example.gone.log")
  }

  @Test func anEmptyLogChangesNothing() throws {
    try write("", to: "\(logs)/com.example.notes.log")
    let doctor = try Tool.run(["doctor"], on: desktop)
    #expect(!doctor.standardOutput.contains("Direct targets"))
    let json =
      try JSONSerialization.jsonObject(
        with: Data(try Tool.run(["doctor", "--json"], on: desktop).standardOutput.utf8)) as? [String: Any]
    #expect(json?["publishingLogs"] == nil)
  }
}
