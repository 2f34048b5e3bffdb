import Foundation
import ShareCore
import ShareHost
import SharePOSIX
import ShareTestSupport

/// One attachment of a request written by a test, as the host writes it.
enum RequestAttachment {
  case file([UInt8], typeIdentifiers: [String] = ["public.data", "application/octet-stream"])
  case link(String)
  case text(String)

  static func file(_ path: String) -> RequestAttachment { .file(Array(path.utf8)) }

  var json: [String: Any] {
    switch self {
    case .file(let path, let types):
      var object: [String: Any] = ["typeIdentifiers": types, "url": Bytes.fileURL(path)]
      if let string = String(validating: path, as: UTF8.self) { object["path"] = string }
      object["name"] = String(decoding: path.split(separator: UInt8(ascii: "/")).last ?? [], as: UTF8.self)
      if let size = try? FileSystem.status(path).size { object["size"] = size }
      return object
    case .link(let url):
      return ["typeIdentifiers": ["public.url"], "url": url]
    case .text(let text):
      return ["typeIdentifiers": ["public.plain-text", "text/plain"], "text": text]
    }
  }
}

/// What a service process said and how it ended.
struct ServiceRun {
  struct Progress: Equatable {
    var fraction: Double?
    var message: String?
  }

  /// What came back in a `complete` event: each attachment's `path`/`url`/`text`.
  struct Returned: Equatable {
    var typeIdentifiers: [String]
    var url: String?
    var path: String?
    var text: String?

    /// A file's path bytes, decoded from its `file://` URL.
    var filePath: [UInt8]? {
      guard let url, url.hasPrefix("file://") else { return nil }
      return Bytes.percentDecoded(String(url.dropFirst(7)))
    }
  }

  var status: Int32
  var progress: [Progress] = []
  var returned: [Returned]?
  var cancelCode: Int?
  var cancelMessage: String?
  /// The `fail` event's code and message: the service or its server failed.
  var failCode: Int?
  var failMessage: String?
  var standardError: String
  var lines: [String]

  var completed: Bool { returned != nil }

  init(status: Int32, output: [UInt8], error: [UInt8]) throws {
    self.status = status
    standardError = String(decoding: error, as: UTF8.self)
    lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    for line in lines {
      let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
      if let complete = event["complete"] as? [String: Any] {
        let items = complete["returningItems"] as? [[String: Any]] ?? []
        returned = items.flatMap { ($0["attachments"] as? [[String: Any]]) ?? [] }.map {
          Returned(
            typeIdentifiers: $0["typeIdentifiers"] as? [String] ?? [], url: $0["url"] as? String,
            path: $0["path"] as? String, text: $0["text"] as? String)
        }
      } else if let cancel = event["cancel"] as? [String: Any] {
        let error = cancel["error"] as? [String: Any]
        cancelCode = error?["code"] as? Int
        cancelMessage = error?["message"] as? String
      } else if let fail = event["fail"] as? [String: Any] {
        let error = fail["error"] as? [String: Any]
        failCode = error?["code"] as? Int
        failMessage = error?["message"] as? String
      } else if event["progress"] != nil || event["message"] != nil {
        progress.append(
          Progress(fraction: event["progress"] as? Double, message: event["message"] as? String))
      }
    }
  }
}

/// Runs bundled services as the host does: the bundle's `share` directly, in the bundle's folder,
/// with the request on standard input and the `XDG_SHARE_*` variables set.
enum ServiceRunner {
  /// The request the host writes; `configuration`, when given, as the compose sheet's values.
  static func request(
    _ id: String, _ attachments: [RequestAttachment], configuration: [String: String]? = nil
  ) throws -> [UInt8] {
    var request: [String: Any] = [
      "version": 1, "requestId": UUID().uuidString.lowercased(), "serviceId": id,
      "inputItems": [["attachments": attachments.map(\.json)]], "userInfo": [String: Any](),
    ]
    if let configuration {
      request["compose"] = ["contentText": "", "configuration": configuration]
    }
    return Array(try JSONSerialization.data(withJSONObject: request)) + [UInt8(ascii: "\n")]
  }

  static func environment(_ id: String, on desktop: TemporaryDesktop, extra: [String: String]) -> [String:
    String]
  {
    var environment = desktop.environment.merging(extra) { $1 }
    environment["XDG_SHARE_REQUEST_ID"] = "test"
    environment["XDG_SHARE_SERVICE_ID"] = id
    environment["XDG_SHARE_BUNDLE_PATH"] = desktop.bundle(id)
    environment["XDG_SHARE_APPLICATION_GROUPS"] = ""
    return environment
  }

  /// Runs the service `id` (installed on `desktop`) on `attachments`, as the host does: leader of
  /// a process group of its own, standard error to a log file (a program the service leaves
  /// running, such as a mail composer, must not hold a pipe the test waits on).
  ///
  /// - Parameter stopLeftovers: whether to SIGTERM what the service left running in its group
  ///   once it has exited (a clipboard owner must live on).
  static func run(
    _ id: String, _ attachments: [RequestAttachment], on desktop: TemporaryDesktop,
    environment extra: [String: String] = [:], environmentBytes: [String: [UInt8]] = [:],
    configuration: [String: String]? = nil, stopLeftovers: Bool = true, timeLimit: Double = 120
  ) throws -> ServiceRun {
    let bundle = desktop.bundle(id)
    let log = "\(desktop.root)/service-\(UUID().uuidString).log"
    let logDescriptor = try FileDescriptor.openForAppending(Array(log.utf8))
    // The broker the host serves each run with: what the service asks of the desktop (a mail, the
    // clipboard, a viewer) is done here, with the test's environment (its fake programs).
    var serviceEnvironment = environment(id, on: desktop, extra: extra)
    let service = BundleLoader(languages: []).load(bundleAt: bundle).service
    let secrets = SecretToolStore(environment: serviceEnvironment)
    let broker = try Broker(
      paths: SearchPaths(environment: serviceEnvironment),
      actions: DesktopBrokerActions(
        environment: serviceEnvironment, log: FilePath(log), service: service, secrets: secrets))
    defer { broker.stop() }
    serviceEnvironment[Broker.environmentVariable] = broker.socketPath.text
    let child = try ChildProcess.spawn(
      [Array("\(bundle)/share".utf8)], environment: serviceEnvironment,
      environmentBytes: environmentBytes, workingDirectory: Array(bundle.utf8), standardInput: .pipe,
      standardOutput: .pipe,
      standardError: .descriptor(logDescriptor), newProcessGroup: true)
    logDescriptor.close()
    // As the host composes: the Secure items' values the keyring holds, where none was given.
    var configuration = configuration
    for item in service?.composeSheet?.configurationItems ?? [] where item.isSecure {
      if configuration?[item.identifier] == nil,
        let stored = try? secrets.lookup(service: id, item: item.identifier)
      {
        configuration = (configuration ?? [:]).merging([item.identifier: stored]) { $1 }
      }
    }
    let input = try request(id, attachments, configuration: configuration)
    Thread.detachNewThread {
      try? child.standardInput?.write(input)
      child.standardInput?.close()
    }
    // A service that hangs fails its test instead of hanging the suite.
    var output: [UInt8] = []
    let deadline = Date().addingTimeInterval(timeLimit)
    while let stdout = child.standardOutput {
      guard try stdout.waitReadable(timeout: max(0, deadline.timeIntervalSinceNow)) else {
        child.signal(Signal.kill)
        _ = child.wait()
        throw ServiceTimeout(service: id, seconds: timeLimit, output: String(decoding: output, as: UTF8.self))
      }
      let chunk = try stdout.read()
      if chunk.isEmpty { break }
      output += chunk
    }
    let termination = child.wait()
    if stopLeftovers { child.signal(Signal.terminate) }
    let status: Int32 =
      switch termination {
      case .exited(let code): code
      case .signalled(let signal): 128 + signal
      }
    let error = (try? Data(contentsOf: URL(fileURLWithPath: log))).map(Array.init) ?? []
    return try ServiceRun(status: status, output: output, error: error)
  }
}

/// The keyring of the test's desktop as the host keeps the Secure items' values in it, through
/// secret-tool run on the desktop's bus (libsecret in the test's process would ask the bus the
/// process was started with).
struct SecretToolStore: SecretStore {
  var environment: [String: String]

  private func attributes(_ service: String, _ item: String) -> [String] {
    ["xdg:schema", "org.xdgshare.Configuration", "service", service, "item", item]
  }

  func lookup(service: String, item: String) throws(SecretStoreFailure) -> String? {
    guard FakePrograms.isInstalled("secret-tool"),
      let run = try? CapturedRun.run(
        (["secret-tool", "lookup"] + attributes(service, item)).map { Array($0.utf8) },
        environment: environment),
      run.status == 0
    else { return nil }
    return String(decoding: run.standardOutput, as: UTF8.self)
  }

  func store(_ secret: String, service: String, item: String, label: String) throws(SecretStoreFailure) {
    let run = try? CapturedRun.run(
      (["secret-tool", "store", "--label=\(label)"] + attributes(service, item)).map { Array($0.utf8) },
      environment: environment, input: Array(secret.utf8))
    guard run?.status == 0 else { throw SecretStoreFailure(message: "secret-tool could not store it") }
  }

  func clear(service: String, item: String) throws(SecretStoreFailure) {}
}

/// A service that did not end in time; it has been killed.
struct ServiceTimeout: Error, CustomStringConvertible {
  var service: String
  var seconds: Double
  var output: String

  var description: String { "\(service) did not end within \(Int(seconds)) seconds; it said: \(output)" }
}

/// Byte helpers shared by the tests.
enum Bytes {
  /// A `file://` URL percent-encoding every byte but `A-Z a-z 0-9 - . _ ~ /`, as the host does.
  static func fileURL(_ path: [UInt8]) -> String {
    var out = "file://"
    for byte in path {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"), UInt8(ascii: "/"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        out += String(format: "%%%02X", byte)
      }
    }
    return out
  }

  /// `text` with every `%XX` decoded to its byte.
  static func percentDecoded(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    var bytes = Array(text.utf8)[...]
    while let byte = bytes.popFirst() {
      if byte == UInt8(ascii: "%"), bytes.count >= 2,
        let value = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16)
      {
        out.append(value)
        bytes = bytes.dropFirst(2)
      } else {
        out.append(byte)
      }
    }
    return out
  }

  /// The names in `folder` (not `.` and `..`), as bytes, sorted.
  static func names(in folder: String) throws -> [[UInt8]] {
    guard let directory = opendir(folder) else { throw POSIXError(.ENOENT) }
    defer { closedir(directory) }
    var names: [[UInt8]] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
      if name != [UInt8(ascii: ".")] && name != [UInt8(ascii: "."), UInt8(ascii: ".")] { names.append(name) }
    }
    return names.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// The contents of the file at `path` (any bytes).
  static func contents(_ path: [UInt8]) throws -> [UInt8] {
    let descriptor = try FileDescriptor.openForReading(path)
    defer { descriptor.close() }
    return try descriptor.readToEnd()
  }

  /// The last component of a path.
  static func lastComponent(_ path: [UInt8]) -> [UInt8] {
    Array(path.split(separator: UInt8(ascii: "/")).last ?? [])
  }
}
