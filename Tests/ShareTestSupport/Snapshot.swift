public import Foundation
public import Testing

/// Golden files: `Tests/<Target>/Snapshots/<name>.txt`, or any checked-in file.
///
/// With `RECORD_SNAPSHOTS=1` a golden file that differs (or is missing) is written anew and the
/// test still fails, so recording never hides a difference: run again without it to see it pass.
public enum Snapshot {
  /// Compares `actual` with `Snapshots/<name>.txt` beside the test file.
  public static func assertMatches(
    _ actual: String, named name: String, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let folder = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent(
      "Snapshots")
    try assertMatches(
      actual, file: folder.appendingPathComponent(name + ".txt"), sourceLocation: sourceLocation)
  }

  /// Compares `actual` with the checked-in `file`.
  public static func assertMatches(
    _ actual: String, file: URL, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let expected = try? String(contentsOf: file, encoding: .utf8)
    if expected == actual { return }
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try actual.write(to: file, atomically: true, encoding: .utf8)
      Issue.record(
        "recorded \(file.path); check the change and run again without RECORD_SNAPSHOTS",
        sourceLocation: sourceLocation)
      return
    }
    guard let expected else {
      Issue.record("no golden file \(file.path); run with RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
      return
    }
    #expect(
      actual == expected, "differs from \(file.path); RECORD_SNAPSHOTS=1 writes it anew",
      sourceLocation: sourceLocation)
  }
}
