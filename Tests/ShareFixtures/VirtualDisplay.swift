import Foundation
import SharePOSIX

/// An Xvfb server of the test's own, on a display number no other server holds: from
/// `firstNumber` up (each suite its own range), well away from the `:0` a developer's or another
/// tool's server may take.
public final class VirtualDisplay: Sendable {
  public let name: String
  private let server: ChildProcess

  public init(firstNumber: Int) throws {
    var number = firstNumber + Int(ProcessStatus.currentProcess % 50)
    while true {
      guard number < firstNumber + 250 else { throw VirtualDisplayError.didNotStart }
      defer { number += 1 }
      if FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") { continue }
      // `-displayfd 1`: the server writes the number once it accepts connections; nothing if the
      // number was taken meanwhile. `-noreset`: no new server generation between clients.
      let server = try ChildProcess.spawn(
        [
          "Xvfb", ":\(number)", "-displayfd", "1", "-nolisten", "tcp", "-noreset", "-screen", "0",
          "1280x800x24",
        ]
        .map { Array($0.utf8) },
        environment: ProcessInfo.processInfo.environment, standardOutput: .pipe, standardError: .null)
      var written: [UInt8] = []
      while !written.contains(UInt8(ascii: "\n")) {
        let chunk = (try? server.standardOutput?.read()) ?? []
        if chunk.isEmpty { break }
        written += chunk
      }
      guard written.contains(UInt8(ascii: "\n")) else {
        _ = server.wait()
        continue
      }
      self.server = server
      name = ":\(number)"
      return
    }
  }

  deinit {
    server.signal(Signal.terminate)
    _ = server.wait()
  }

  public enum VirtualDisplayError: Error {
    case didNotStart
  }
}
