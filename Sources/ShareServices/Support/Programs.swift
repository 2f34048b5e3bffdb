import ShareCore
import ShareKit
import SharePOSIX

/// Runs the desktop's programs for the services: always an argv, never a shell.
struct Programs: Sendable {
  let environment: ServiceEnvironment

  /// Runs `arguments` to its end with its output captured.
  ///
  /// - Throws: ``ShareError`` naming the program when it cannot be started.
  func run(_ arguments: [[UInt8]], input: [UInt8] = []) throws(ShareError) -> CapturedRun {
    do {
      return try CapturedRun.run(
        arguments, environment: [:], environmentBytes: environment.bytes, input: input)
    } catch {
      throw Self.startFailure(arguments, error)
    }
  }

  /// Runs `arguments` given as strings.
  func run(_ arguments: [String], input: [UInt8] = []) throws(ShareError) -> CapturedRun {
    try run(arguments.map { Array($0.utf8) }, input: input)
  }

  /// The first line of a program's error output, for a message.
  static func firstLine(_ output: [UInt8]) -> String? {
    let text = String(decoding: output, as: UTF8.self)
    let line = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingSpaces() }
    guard let line, !line.isEmpty else { return nil }
    return String(line.prefix(300))
  }

  private static func startFailure(_ arguments: [[UInt8]], _ error: SystemError) -> ShareError {
    let name = FileNames.display(FileNames.lastComponent(of: arguments.first ?? []))
    if error.isNotFound {
      return ShareError(code: 127, message: "\(name) is not installed")
    }
    return ShareError("Cannot start \(name): \(error.reason)")
  }
}
