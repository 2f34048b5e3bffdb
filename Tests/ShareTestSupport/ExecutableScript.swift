import Foundation
import SharePOSIX

/// A script a test runs as a program, written so that running it cannot fail with ETXTBSY
/// ("Text file busy").
///
/// A descriptor this process holds open for writing is inherited, for the moment between fork
/// and exec, by every program another test running in parallel starts, close-on-exec or not; a
/// program whose file is open for writing anywhere cannot be run. So the text is written to a
/// draft here and copied into place by another process (`install`), which no test forks from.
public enum ExecutableScript {
  /// Writes `text` to `path`, mode 0755.
  public static func write(_ text: String, to path: String) throws {
    let draft = path + ".draft"
    try text.write(toFile: draft, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: draft) }
    let copy = try CapturedRun.run(
      ["install", "-m", "0755", draft, path].map { Array($0.utf8) },
      environment: ProcessInfo.processInfo.environment)
    guard copy.status == 0 else { throw POSIXError(.EIO) }
  }
}
