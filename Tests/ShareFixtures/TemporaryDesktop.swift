import Foundation
import SharePOSIX
import Synchronization

/// A throw-away home and XDG tree, so tests and benchmarks never touch the developer's own.
///
/// `XDG_DATA_DIRS` holds one folder whose `mime` links to the system's shared-mime-info database:
/// content detection is real, while no system-wide share service can leak into a test.
public final class TemporaryDesktop: Sendable {
  public let root: String
  private let bus = Mutex<PrivateBus?>(nil)

  /// Makes the tree under the temporary directory, as `<prefix>-XXXXXX` (`mkdtemp`).
  public init(prefix: String = "xdg-share-test") throws {
    let template = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-XXXXXX").path
    var buffer = Array(template.utf8CString)
    guard let made = mkdtemp(&buffer) else { throw CocoaError(.fileWriteUnknown) }
    root = String(cString: made)
    for folder in ["home", "data", "system", "config", "state", "cache", "runtime", "files"] {
      try FileManager.default.createDirectory(atPath: "\(root)/\(folder)", withIntermediateDirectories: true)
    }
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: "\(root)/runtime")
    try FileManager.default.createSymbolicLink(
      atPath: "\(root)/system/mime", withDestinationPath: "/usr/share/mime")
  }

  deinit {
    // The bus watches its configuration file: stop it before the tree goes.
    bus.withLock { $0?.stop() }
    try? FileManager.default.removeItem(atPath: root)
  }

  /// The environment of a process started on this desktop.
  public var environment: [String: String] {
    // The desktop's own bus once started; never the developer's session bus.
    environment(busAddress: bus.withLock { $0?.address })
  }

  /// The environment of a process started on this desktop, on the bus at `busAddress`; with `nil`,
  /// on none (an address where no bus listens).
  public func environment(busAddress: String?) -> [String: String] {
    var environment = [
      "HOME": "\(root)/home",
      "XDG_DATA_HOME": "\(root)/data",
      "XDG_DATA_DIRS": "\(root)/system",
      "XDG_CONFIG_HOME": "\(root)/config",
      "XDG_STATE_HOME": "\(root)/state",
      "XDG_CACHE_HOME": "\(root)/cache",
      "XDG_RUNTIME_DIR": "\(root)/runtime",
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "LANG": "C.UTF-8",
    ]
    environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress ?? "unix:path=\(root)/runtime/no-bus"
    // Under Tests/Scripts/sanitize.sh the programs are sanitized too, and read its options (the
    // suppressions of system libraries' leaks among them).
    for name in ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"] {
      environment[name] = ProcessInfo.processInfo.environment[name]
    }
    return environment
  }

  /// Starts a private bus for this desktop; ``environment`` points to it from now on.
  @discardableResult
  public func startBus() throws -> PrivateBus {
    let started = try PrivateBus(root: root, environment: environment)
    bus.withLock { $0 = started }
    return started
  }

  /// The `XDG_STATE_HOME` a sandboxed service `id` sees: its container's (docs/sandbox.md).
  public func containerState(of serviceID: String) -> String {
    "\(root)/data/xdg-share/containers/\(serviceID)/state"
  }

  /// The user's extensions folder.
  public var userExtensions: String { "\(root)/data/xdg-share/extensions" }
  /// A system extensions folder (listed in `XDG_DATA_DIRS`).
  public var systemExtensions: String { "\(root)/system/xdg-share/extensions" }
  /// A folder for the files a test shares.
  public var files: String { "\(root)/files" }

  /// Writes `contents` to `files/name` (the name may be any bytes) and returns its path.
  @discardableResult
  public func writeFile(named name: [UInt8], contents: [UInt8]) throws -> [UInt8] {
    let path = Array("\(files)/".utf8) + name
    let descriptor = try FileDescriptor.create(path, mode: 0o644)
    try descriptor.write(contents)
    descriptor.close()
    return path
  }

  @discardableResult
  public func writeFile(named name: String, contents: String) throws -> String {
    let path = "\(files)/\(name)"
    try contents.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }
}

/// A 1×1 PNG, for detection tests and benchmarks.
public let tinyPNG: [UInt8] = [
  0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
  0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00,
  0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0x0F, 0x00, 0x01, 0x01, 0x01, 0x00, 0x18, 0xDD, 0x8D,
  0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
]
