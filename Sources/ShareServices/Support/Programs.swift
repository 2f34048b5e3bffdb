import ShareCore
import ShareKit
import SharePOSIX

/// Runs the desktop's programs for the services: always an argv, never a shell.
struct Programs: Sendable {
  let environment: ServiceEnvironment

  /// How a started program went within the time it was given.
  enum Launch: Equatable, Sendable {
    /// It ended with this status (128 + the signal number when a signal ended it).
    case exited(Int32)
    /// It is still running: it is the application itself, or serves something (a clipboard).
    case stillRunning
  }

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

  /// Starts a program that may go on running after the request (a mail composer, an image
  /// viewer, a clipboard owner), writes `input` to it, and waits at most `grace` seconds for it to
  /// end.
  ///
  /// Its output goes to this process's standard error, the request's log; it is never read,
  /// so a program that keeps running never blocks on a pipe nobody empties.
  func launch(_ arguments: [[UInt8]], input: [UInt8]? = nil, grace: Double) throws(ShareError) -> Launch {
    let child: ChildProcess
    do {
      child = try ChildProcess.spawn(
        arguments, environment: [:], environmentBytes: environment.bytes,
        standardInput: input == nil ? .null : .pipe,
        standardOutput: .inherit, standardError: .inherit)
    } catch {
      throw Self.startFailure(arguments, error)
    }
    if let input, let stdin = child.standardInput {
      // A program that exits without reading all of it is judged by its exit status.
      try? stdin.write(input)
      stdin.close()
    }
    switch child.wait(timeout: grace) {
    case .exited(let status)?: return .exited(status)
    case .signalled(let signal)?: return .exited(128 + signal)
    case nil: return .stillRunning
    }
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
