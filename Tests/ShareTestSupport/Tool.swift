import Foundation
public import ShareFixtures
public import SharePOSIX

/// Runs the built `xdg-share` binary, as a user would.
public enum Tool {
  /// The binary next to the test bundle (`.build/<config>/xdg-share`), or `XDG_SHARE_BINARY`.
  public static var path: String {
    if let override = ProcessInfo.processInfo.environment["XDG_SHARE_BINARY"] { return override }
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // swift-testing may run from inside the .xctest bundle folder.
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("xdg-share").path),
      directory.path != "/"
    {
      directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent("xdg-share").path
  }

  /// The outcome of one run, with the outputs decoded for assertions.
  public struct Result: Sendable {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
    public var rawOutput: [UInt8]
  }

  /// Runs `xdg-share` with raw-byte arguments on `desktop`.
  public static func run(
    _ arguments: [[UInt8]], on desktop: TemporaryDesktop, input: [UInt8] = [],
    environment extra: [String: String] = [:], environmentBytes: [String: [UInt8]] = [:]
  ) throws -> Result {
    let run = try CapturedRun.run(
      [Array(path.utf8)] + arguments, environment: desktop.environment.merging(extra) { $1 },
      environmentBytes: environmentBytes, workingDirectory: Array(desktop.files.utf8), input: input)
    return Result(
      status: run.status, standardOutput: String(decoding: run.standardOutput, as: UTF8.self),
      standardError: String(decoding: run.standardError, as: UTF8.self), rawOutput: run.standardOutput)
  }

  /// Runs `xdg-share` with string arguments on `desktop`.
  public static func run(
    _ arguments: [String], on desktop: TemporaryDesktop, input: String = "",
    environment: [String: String] = [:]
  ) throws -> Result {
    try run(arguments.map { Array($0.utf8) }, on: desktop, input: Array(input.utf8), environment: environment)
  }
}

extension TemporaryDesktop {
  /// The built `xdg-share daemon` on this desktop's private bus, once it owns its name
  /// (``ServiceDaemon``).
  ///
  /// - Parameters:
  ///   - extra: environment entries over the desktop's.
  ///   - environmentBytes: entries as bytes (a path that is not UTF-8).
  public func startDaemon(
    idleTimeout: Double = 0, environment extra: [String: String] = [:],
    environmentBytes: [String: [UInt8]] = [:]
  ) throws -> ChildProcess {
    try ServiceDaemon.start(
      tool: Tool.path, environment: environment.merging(extra) { $1 }, environmentBytes: environmentBytes,
      idleTimeout: idleTimeout)
  }
}
