import Foundation
public import SharePOSIX

/// Plays KDE Purpose's side of one job as its `ProcessJob` does (`src/externalprocess/
/// processjob.cpp`, 5.103): listens on a socket, starts a plugin's `contents/code/main*` with
/// `--server SOCKET --pluginType T --pluginPath P`, sends it `input` (the captured bytes: the
/// length line and the CBOR) once it connects, and reads its JSON lines until it exits.
public struct PurposeHost {
  /// What the plugin answered, a JSON object a line, and how it ended.
  public struct Job {
    public var lines: [[String: Any]]
    public var termination: ChildProcess.Termination
    /// Whether the plugin connected at all (a real host crashes when it does not).
    public var connected: Bool

    /// The job as the host sees it at its end: the last value of each key.
    public func last(_ key: String) -> Any? { lines.last { $0[key] != nil }?[key] }
    public var error: Int { last("error") as? Int ?? 0 }
    public var errorText: String { last("errorText") as? String ?? "" }
    public var url: String? { (last("output") as? [String: Any])?["url"] as? String }
    public var percents: [Int] { lines.compactMap { $0["percent"] as? Int } }
  }

  public let desktop: TemporaryDesktop

  public init(desktop: TemporaryDesktop) {
    self.desktop = desktop
  }

  /// The plugin folder `register` wrote for the service `id`.
  public func plugin(_ id: String) -> String { "\(desktop.root)/data/kpackage/Purpose/org.xdgshare.\(id)" }

  /// Runs the plugin at `folder` on `input`; `started` sees the process once it runs (to signal
  /// it), `timeout` bounds the whole job.
  public func run(
    _ folder: String, input: [UInt8], pluginType: String = "Export", main: String = "main.run",
    environment extra: [String: String] = [:], timeout: Double = 60,
    started: (ChildProcess) throws -> Void = { _ in }
  ) throws -> Job {
    let socket = "\(desktop.root)/runtime/randomname-\(UInt32.random(in: 0...UInt32.max))"
    let listener = try UnixSocket.listen(at: Array(socket.utf8))
    defer {
      listener.close()
      unlink(socket)
    }
    let program = "\(folder)/contents/code/\(main)"
    let child = try ChildProcess.spawn(
      [program, "--server", socket, "--pluginType", pluginType, "--pluginPath", program].map {
        Array($0.utf8)
      },
      environment: desktop.environment.merging(extra) { $1 }, workingDirectory: Array(desktop.files.utf8))
    try started(child)
    let deadline = Date().addingTimeInterval(timeout)
    var connection: FileDescriptor?
    while connection == nil, Date() < deadline {
      connection = try listener.accept(timeout: 0.2)
      if connection == nil, child.wait(timeout: 0) != nil { break }
    }
    guard let connection else {
      child.signal(Signal.kill)
      return Job(lines: [], termination: child.wait(), connected: false)
    }
    try connection.write(input)
    var received: [UInt8] = []
    while Date() < deadline, try connection.waitReadable(timeout: deadline.timeIntervalSinceNow) {
      // A reset ends the connection as its end does: what came before it counts.
      guard let chunk = try? connection.read(), !chunk.isEmpty else { break }
      received += chunk
    }
    let termination =
      child.wait(timeout: max(0, deadline.timeIntervalSinceNow))
      ?? {
        child.signal(Signal.kill)
        return child.wait()
      }()
    // Only whole lines count, as `QLocalSocket::readLine` gives them to the host.
    let lines = received.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).dropLast(
      received.last == UInt8(ascii: "\n") ? 0 : 1
    ).compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any]
    }
    return Job(lines: Array(lines), termination: termination, connected: true)
  }

  /// The bytes Purpose sends for `input`: its length, a newline, the payload.
  public static func framed(_ payload: [UInt8]) -> [UInt8] { Array("\(payload.count)\n".utf8) + payload }
}
