import Foundation
import SharePOSIX
import Synchronization

/// A real keyring of the test's own: gnome-keyring-daemon's Secret Service on the desktop's private
/// bus, its keyrings under the throw-away `XDG_DATA_HOME`, created and unlocked with a throw-away
/// password. Never the developer's keyring or session bus.
public final class TestKeyring: Sendable {
  /// Whether gnome-keyring-daemon and dbus-send are installed.
  public static var isAvailable: Bool {
    ["gnome-keyring-daemon", "dbus-send"].allSatisfy { program in
      (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
      }
    }
  }

  /// Where the daemon keeps the keyrings (`login.keyring`), to look for passwords in clear.
  public let directory: String
  private let process: ChildProcess
  /// The bus started for the keyring, stopped with it.
  private let bus: PrivateBus?
  private let stopped = Mutex(false)

  /// Starts the desktop's private bus when it has none, then the daemon on it, and waits until it
  /// owns `org.freedesktop.secrets`.
  public init(desktop: TemporaryDesktop, password: String = "throw-away") throws {
    bus =
      desktop.environment["DBUS_SESSION_BUS_ADDRESS"]?.hasSuffix("/no-bus") ?? true
      ? try desktop.startBus() : nil
    let environment = desktop.environment
    directory = "\(environment["XDG_DATA_HOME"] ?? desktop.root)/keyrings"
    // --foreground keeps it this process's child, to stop and reap; --unlock reads the login
    // keyring's password on standard input and creates the keyring with it.
    process = try ChildProcess.spawn(
      ["gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets"].map { Array($0.utf8) },
      environment: environment, standardInput: .pipe, standardOutput: .null, standardError: .null)
    try process.standardInput?.write(Array(password.utf8))
    process.standardInput?.close()
    let deadline = Date().addingTimeInterval(15)
    while !Self.ownsSecretsName(environment: environment) {
      guard Date() < deadline else {
        stop()
        throw KeyringNotReady()
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
  }

  deinit {
    stop()
  }

  /// Stops the daemon, and the bus if it started it; later calls do nothing.
  public func stop() {
    guard
      !stopped.withLock({ stopped in
        defer { stopped = true }; return stopped
      })
    else { return }
    process.signal(Signal.terminate)
    _ = process.wait()
    bus?.stop()
  }

  /// Whether some files under ``directory`` hold `bytes` (a password stored in clear).
  public func filesContain(_ bytes: [UInt8]) -> Bool {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.contains { name in
      guard let data = FileManager.default.contents(atPath: "\(directory)/\(name)") else { return false }
      return Array(data).firstRange(of: bytes) != nil
    }
  }

  private static func ownsSecretsName(environment: [String: String]) -> Bool {
    let arguments = [
      "dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
      "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets",
    ]
    guard let run = try? CapturedRun.run(arguments.map { Array($0.utf8) }, environment: environment) else {
      return false
    }
    return run.status == 0 && String(decoding: run.standardOutput, as: UTF8.self).contains("boolean true")
  }
}

/// gnome-keyring-daemon did not take `org.freedesktop.secrets` on the private bus in time.
public struct KeyringNotReady: Error, CustomStringConvertible {
  public var description: String { "gnome-keyring-daemon did not start on the private bus" }
}
