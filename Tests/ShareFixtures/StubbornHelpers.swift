import Foundation

/// Helpers a plugin starts that try every way to outlive its request, for the containment tests:
/// one in a session of its own (`setsid`), one in a process group of its own that ignores SIGTERM
/// (as `Foundation.Process` leaves a child), and one in a session of its own, ignoring SIGTERM,
/// whose environment lacks the request's marker (`env -u XDG_SHARE_REQUEST_ID`). Each writes its
/// pid into `records`.
public struct StubbornHelpers: Sendable {
  public let records: String

  /// The helpers, by the name of the file each writes its pid to.
  public static let names = ["session", "group", "unmarked"]

  public struct Missing: Error, CustomStringConvertible {
    public let name: String
    public var description: String { "no pid recorded for the helper \(name)" }
  }

  /// - Parameter records: a folder of the test's own; created here.
  public init(records: String) throws {
    self.records = records
    try FileManager.default.createDirectory(atPath: records, withIntermediateDirectories: true)
  }

  /// Shell lines (for a `#!/bin/sh` plugin) that start the helpers and wait until each has
  /// written its pid.
  public var script: String {
    """
    setsid sh -c 'echo $$ > "\(records)/session.new"; mv "\(records)/session.new" "\(records)/session"; \
    exec sleep 60' < /dev/null > /dev/null 2>&1 &
    perl -e 'setpgrp(0, 0); $SIG{TERM} = "IGNORE"; open(F, ">", "\(records)/group.new"); print F $$; close F; \
    rename("\(records)/group.new", "\(records)/group"); sleep 60' < /dev/null > /dev/null 2>&1 &
    env -u XDG_SHARE_REQUEST_ID setsid perl -e '$SIG{TERM} = "IGNORE"; \
    open(F, ">", "\(records)/unmarked.new"); print F $$; close F; \
    rename("\(records)/unmarked.new", "\(records)/unmarked"); sleep 60' < /dev/null > /dev/null 2>&1 &
    while [ ! -s "\(records)/session" ] || [ ! -s "\(records)/group" ] || [ ! -s "\(records)/unmarked" ]; do
      sleep 0.02
    done
    """
  }

  /// Whether every helper has written its pid.
  public var areStarted: Bool {
    Self.names.allSatisfy { FileManager.default.fileExists(atPath: "\(records)/\($0)") }
  }

  /// The helpers' pids, in the order of ``names``.
  public func pids() throws -> [Int32] {
    try Self.names.map { name in
      let text = (try? String(contentsOfFile: "\(records)/\(name)", encoding: .utf8)) ?? ""
      guard let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw Missing(name: name)
      }
      return pid
    }
  }

  /// Whether `pid` names a live process (a zombie is not).
  public static func isRunning(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(close, offsetBy: 2)] != "Z"
  }

  /// The helpers still running after at most `timeout` seconds.
  public func running(after timeout: Double) throws -> [Int32] {
    let pids = try pids()
    let deadline = Date().addingTimeInterval(timeout)
    while pids.contains(where: Self.isRunning), Date() < deadline { usleep(20_000) }
    return pids.filter(Self.isRunning)
  }

  /// Waits at most `timeout` seconds for `pid` to be gone (or a zombie); whether it went.
  public static func waitUntilGone(_ pid: Int32, timeout: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while isRunning(pid) {
      guard Date() < deadline else { return false }
      usleep(10_000)
    }
    return true
  }

  /// Ends whatever is left (a test's own clean-up).
  public func killAll() {
    for pid in (try? pids()) ?? [] where Self.isRunning(pid) { kill(pid, SIGKILL) }
  }
}
