import Foundation
import SharePOSIX

/// An X server of the test's own (Xvfb), on a display number it picks itself.
final class VirtualDisplay {
  let display: String
  private let process: ChildProcess

  static var isAvailable: Bool { FakePrograms.isInstalled("Xvfb") }

  init() throws {
    process = try ChildProcess.spawn(
      ["Xvfb", "-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "320x240x24"].map { Array($0.utf8) },
      environment: ProcessInfo.processInfo.environment, standardInput: .null, standardOutput: .pipe,
      standardError: .null, newProcessGroup: true)
    var output: [UInt8] = []
    while !output.contains(UInt8(ascii: "\n")) {
      guard try process.standardOutput?.waitReadable(timeout: 20) == true,
        let chunk = try process.standardOutput?.read(), !chunk.isEmpty
      else {
        process.signal(Signal.kill)
        _ = process.wait()
        throw POSIXError(.ETIMEDOUT)
      }
      output += chunk
    }
    display = ":" + String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  deinit {
    process.signal(Signal.terminate)
    _ = process.wait()
  }
}

/// A WebDAV server of the test's own: lighttpd with mod_webdav and Basic authentication, on a
/// free port of 127.0.0.1, serving a folder of the test's.
final class WebDAVServer {
  let root: String
  let port: Int
  let user = "alice"
  let password = "s3cret ü:x"
  private let process: ChildProcess

  static let modules = ["/usr/lib/lighttpd/mod_webdav.so", "/usr/lib/lighttpd/mod_authn_file.so"]
  static var isAvailable: Bool {
    FakePrograms.isInstalled("lighttpd") && modules.allSatisfy { FileManager.default.fileExists(atPath: $0) }
  }

  var baseURL: String { "http://127.0.0.1:\(port)" }

  /// Starts the server for `root` (created); `state` holds its configuration and logs.
  init(root: String, state: String) throws {
    self.root = root
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    try "\(user):\(password)\n".write(toFile: "\(state)/users", atomically: true, encoding: .utf8)
    var lastError: (any Error)?
    for _ in 1...10 {
      let port = try Self.freePort()
      let configuration = """
        server.document-root = "\(root)"
        server.bind = "127.0.0.1"
        server.port = \(port)
        server.modules = ("mod_access", "mod_webdav", "mod_auth", "mod_authn_file")
        server.errorlog = "\(state)/error.log"
        server.upload-dirs = ("\(state)")
        server.http-parseopts = ("url-ctrls-reject" => "disable")
        webdav.activate = "enable"
        webdav.is-readonly = "disable"
        auth.backend = "plain"
        auth.backend.plain.userfile = "\(state)/users"
        auth.require = ("" => ("method" => "basic", "realm" => "xdg-share test", "require" => "valid-user"))
        # A folder whose HEAD says nothing, as some servers do: only If-None-Match guards it.
        $HTTP["url"] =~ "^/no-head/" {
          $HTTP["request-method"] == "HEAD" { url.access-deny = ("") }
        }

        """
      try configuration.write(toFile: "\(state)/lighttpd.conf", atomically: true, encoding: .utf8)
      let process = try ChildProcess.spawn(
        ["lighttpd", "-D", "-f", "\(state)/lighttpd.conf"].map { Array($0.utf8) },
        environment: ProcessInfo.processInfo.environment, standardInput: .null, standardOutput: .null,
        standardError: .null, newProcessGroup: true)
      if Self.waitUntilListening(port: port, process: process) {
        self.process = process
        self.port = port
        return
      }
      process.signal(Signal.kill)
      _ = process.wait()
      lastError = POSIXError(.EADDRINUSE)
    }
    throw lastError ?? POSIXError(.EADDRINUSE)
  }

  deinit {
    process.signal(Signal.terminate)
    _ = process.wait()
  }

  /// A port nobody listens on just now.
  static func freePort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw POSIXError(.EMFILE) }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
      }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Whether something accepts connections on `port` within ten seconds, while `process` runs.
  static func waitUntilListening(port: Int, process: ChildProcess) -> Bool {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if process.wait(timeout: 0) != nil { return false }
      let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      address.sin_port = UInt16(port).bigEndian
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
      }
      close(socket)
      if connected { return true }
      usleep(20_000)
    }
    return false
  }
}
