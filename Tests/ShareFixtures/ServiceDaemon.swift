import Foundation
public import ShareDBus
public import SharePOSIX

/// `xdg-share daemon` on a desktop's private bus, for the tests and benchmarks that call the
/// D-Bus service: started, and returned once it owns `org.xdgshare.Share`.
public enum ServiceDaemon {
  public static let busName = "org.xdgshare.Share"

  /// Starts `tool daemon` with `environment` (which names the private bus) and waits, up to
  /// `deadline` seconds, for the service to own its name: on the bus's `NameOwnerChanged`
  /// signal, not by asking again and again.
  ///
  /// - Parameters:
  ///   - idleTimeout: `--idle-timeout`; 0 never idles out.
  ///   - environmentBytes: entries as bytes, over `environment`'s (a path that is not UTF-8).
  ///   - quiet: whether the service's output is dropped rather than shown with the test's.
  /// - Throws: `DBusFailure` when the service did not take its name in time, or exited.
  public static func start(
    tool: String, environment: [String: String], environmentBytes: [String: [UInt8]] = [:],
    idleTimeout: Double = 0, deadline: Double = 20, quiet: Bool = false
  ) throws -> ChildProcess {
    guard let address = environment["DBUS_SESSION_BUS_ADDRESS"] else {
      throw DBusFailure(name: "test", message: "the environment names no bus")
    }
    let client = try BusConnection.connect(address: address)
    // Subscribed before the service starts, so that its taking the name cannot be missed.
    try client.addMatch(
      "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(busName)'")
    let daemon = try ChildProcess.spawn(
      [tool, "daemon", "--idle-timeout", String(idleTimeout)].map { Array($0.utf8) },
      environment: environment, environmentBytes: environmentBytes, standardInput: .null,
      standardOutput: quiet ? .null : .inherit, standardError: quiet ? .null : .inherit)
    if try owned(on: client) { return daemon }
    let end = MonotonicClock.now + deadline
    while MonotonicClock.now < end {
      let signal = client.waitForMessage(timeout: min(0.5, end - MonotonicClock.now)) { message in
        guard message.member == "NameOwnerChanged" else { return false }
        let arguments = message.arguments()
        return arguments.count == 3 && arguments[0] == .string(busName) && arguments[2] != .string("")
      }
      if signal != nil { return daemon }
      // Gone before it took the name: no use waiting for the rest of the deadline.
      if daemon.hasEnded {
        throw DBusFailure(
          name: "test", message: "the service exited (\(daemon.wait())) before it owned \(busName)")
      }
    }
    daemon.signal(SIGTERM)
    _ = daemon.wait()
    throw DBusFailure(name: "test", message: "the service did not own \(busName) within \(deadline) seconds")
  }

  /// Whether `busName` has an owner now.
  public static func owned(on client: BusConnection) throws -> Bool {
    let ask = DBusMessage.methodCall(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
      member: "NameHasOwner")
    ask.append([.string(busName)])
    return try client.call(ask, timeout: 10).arguments().first == .boolean(true)
  }
}
