import Foundation
import Testing

/// Golden files: `Tests/<Target>/Snapshots/<name>.txt`, re-recorded when `RECORD_SNAPSHOTS=1`.
public enum Snapshot {
  public static func assertMatches(
    _ actual: String, named name: String, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let folder = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent(
      "Snapshots")
    let file = folder.appendingPathComponent(name + ".txt")
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try actual.write(to: file, atomically: true, encoding: .utf8)
      return
    }
    guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
      Issue.record("no golden file \(file.path); run with RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
      return
    }
    #expect(actual == expected, "differs from \(file.lastPathComponent)", sourceLocation: sourceLocation)
  }
}
