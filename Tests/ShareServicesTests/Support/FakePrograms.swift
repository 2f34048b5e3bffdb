import Foundation
import SharePOSIX
import ShareTestSupport

/// Programs that stand in for the desktop's (xdg-email, kdeconnect-cli, wl-copy…): shell scripts
/// in a folder put first on `PATH`, that record every call.
///
/// Each call is recorded in `<records>/<name>/<n>.args`, its arguments NUL-separated byte for
/// byte, and its standard input in `<n>.stdin`.
struct FakePrograms {
  let directory: String
  let records: String

  init(desktop: TemporaryDesktop) throws {
    try self.init(root: desktop.root)
  }

  /// Fakes a sandboxed service runs: in its container, the one folder of the test's tree its
  /// sandbox binds (read-write, at its path), so that it finds them on `PATH` and they record.
  init(desktop: TemporaryDesktop, insideContainerOf serviceID: String) throws {
    try self.init(root: "\(desktop.root)/data/xdg-share/containers/\(serviceID)")
  }

  private init(root: String) throws {
    directory = "\(root)/fake-bin"
    records = "\(root)/fake-records"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: records, withIntermediateDirectories: true)
  }

  /// `PATH` with the fakes first, then the system's.
  var path: String {
    "\(directory):" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
  }

  /// `PATH` with the fakes alone: a real program is seen only once ``linkReal(_:)`` links it in.
  var isolatedPath: String { directory }

  /// Makes the real program `name` (found on the test's `PATH`) visible in the fakes' folder.
  func linkReal(_ name: String) throws {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
      let candidate = "\(folder)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) {
        try FileManager.default.createSymbolicLink(
          atPath: "\(directory)/\(name)", withDestinationPath: candidate)
        return
      }
    }
    throw POSIXError(.ENOENT)
  }

  /// Whether `name` is on the test's `PATH`.
  static func isInstalled(_ name: String) -> Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
    }
  }

  /// Installs a fake `name` that records its call, then runs `body` (shell).
  func install(_ name: String, body: String = "exit 0") throws {
    let folder = "\(records)/\(name)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let script = """
      #!/bin/sh
      PATH="$PATH:/usr/bin:/bin"
      records='\(folder)'
      n=0
      [ -f "$records/count" ] && read -r n < "$records/count"
      n=$((n + 1))
      echo "$n" > "$records/count"
      for argument in "$@"; do printf '%s\\0' "$argument"; done > "$records/$n.args"
      \(body)

      """
    try ExecutableScript.write(script, to: "\(directory)/\(name)")
  }

  /// Shell that saves standard input as the call's `.stdin`.
  static let recordInput = "cat > \"$records/$n.stdin\""

  /// How many times `name` was called.
  func callCount(_ name: String) -> Int {
    (try? String(contentsOfFile: "\(records)/\(name)/count", encoding: .utf8))
      .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
  }

  /// The arguments of call `number` (from 1) of `name`, byte for byte.
  func arguments(_ name: String, call number: Int = 1) throws -> [[UInt8]] {
    let data = try Data(contentsOf: URL(fileURLWithPath: "\(records)/\(name)/\(number).args"))
    var arguments: [[UInt8]] = []
    var current: [UInt8] = []
    for byte in data {
      if byte == 0 {
        arguments.append(current)
        current = []
      } else {
        current.append(byte)
      }
    }
    return arguments
  }

  /// The standard input of call `number` of `name`.
  func input(_ name: String, call number: Int = 1) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: "\(records)/\(name)/\(number).stdin")))
  }
}

/// Names no shell must ever see: metacharacters, a newline, bytes that are not UTF-8, a leading
/// dash, a very long name, percent signs.
enum HostileNames {
  static let all: [[UInt8]] = [
    Array("$(touch pwned) `x` 'q' \"d\";|&.png".utf8),
    Array("new\nline.txt".utf8),
    [0x6C, 0x61, 0x74, 0x69, 0x6E, 0x2D, 0xE9, 0xFF, 0x2E, 0x74, 0x78, 0x74],
    Array("-leading-dash.txt".utf8),
    Array((String(repeating: "long", count: 60) + ".txt").utf8),
    Array("%20 percent%.txt".utf8),
    Array("Grüße 😀.txt".utf8),
  ]

  /// Writes each name in the desktop's files folder with distinct contents; returns the paths.
  static func write(on desktop: TemporaryDesktop) throws -> [[UInt8]] {
    try all.enumerated().map { index, name in
      try desktop.writeFile(named: name, contents: Array("contents \(index)\n".utf8))
    }
  }
}
