import Foundation
import SharePOSIX
import Synchronization

/// A dbus-daemon of the test's own, with the desktop's environment, so that services it
/// activates see the throw-away XDG tree. Never the developer's session bus.
public final class PrivateBus: Sendable {
  public let address: String
  /// Where activatable `.service` files go.
  public let servicesDirectory: String
  private let process: ChildProcess
  /// The `dbus-daemon` process, for measuring it.
  public var pid: Int32 { process.pid }
  private let stopped = Mutex(false)

  init(root: String, environment: [String: String]) throws {
    servicesDirectory = "\(root)/bus-services"
    try FileManager.default.createDirectory(atPath: servicesDirectory, withIntermediateDirectories: true)
    let config = """
      <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
       "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
      <busconfig>
        <type>session</type>
        <listen>unix:path=\(root)/runtime/bus</listen>
        <servicedir>\(servicesDirectory)</servicedir>
        <policy context="default">
          <allow send_destination="*" eavesdrop="true"/>
          <allow eavesdrop="true"/>
          <allow own="*"/>
        </policy>
      </busconfig>
      """
    try config.write(toFile: "\(root)/bus.conf", atomically: true, encoding: .utf8)
    // The daemon prints its address once it accepts connections: until then a client may be
    // refused even though the socket file exists.
    process = try ChildProcess.spawn(
      ["dbus-daemon", "--nofork", "--nopidfile", "--print-address=1", "--config-file=\(root)/bus.conf"].map {
        Array($0.utf8)
      },
      environment: environment, standardInput: .null, standardOutput: .pipe, standardError: .inherit)
    address = "unix:path=\(root)/runtime/bus"
    var printed: [UInt8] = []
    let deadline = Date().addingTimeInterval(10)
    while !printed.contains(UInt8(ascii: "\n")) {
      guard Date() < deadline, let output = process.standardOutput,
        try output.waitReadable(timeout: deadline.timeIntervalSinceNow)
      else { throw CocoaError(.fileNoSuchFile) }
      let chunk = try output.read()
      guard !chunk.isEmpty else { throw CocoaError(.fileNoSuchFile) }
      printed += chunk
    }
  }

  deinit {
    stop()
  }

  /// Stops the bus daemon; later calls do nothing.
  public func stop() {
    guard
      !stopped.withLock({ stopped in
        defer { stopped = true }; return stopped
      })
    else { return }
    process.signal(Signal.terminate)
    _ = process.wait()
  }
}
