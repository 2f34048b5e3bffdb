import Foundation
import ShareProtocol
import Synchronization
import Testing

@testable import ShareKit

/// Records the lines an extension writes, in place of standard output.
final class RecordingSink: EventSink {
  private let recorded = Mutex<[String]>([])

  func write(line: [UInt8]) {
    let text = String(decoding: line, as: UTF8.self)
    recorded.withLock { $0.append(text) }
  }

  /// Every line written, each with its newline.
  var lines: [String] { recorded.withLock { $0 } }

  /// Every line decoded as the host decodes it.
  var events: [PluginEvent] {
    get throws {
      try lines.map { try JSONDecoder().decode(PluginEvent.self, from: Data($0.utf8)) }
    }
  }
}

/// A request as the host encodes it: one JSON line.
func requestLine(_ request: PluginRequest) throws -> Data {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return try encoder.encode(request) + Data("\n".utf8)
}

/// A context for `items`, writing to `sink`.
func makeContext(
  items: [ItemPayload] = [], sink: RecordingSink, environment: [String: String] = [:]
) -> ExtensionContext {
  ExtensionContext(
    request: PluginRequest(requestId: "r-1", serviceId: "ch.example.hoi.share", inputItems: items),
    environment: environment, sink: sink)
}

/// Serves `request` with the extension `type`, as `main()` does, and returns the exit status.
func serve(
  _ type: any ShareExtension.Type, request: PluginRequest, sink: RecordingSink
) async throws -> Int32 {
  await ShareExtensionRunner.serve(
    input: .success(try requestLine(request)), environment: [:], sink: sink, choosing: { _ in type })
}

/// A temporary folder, removed when the value goes away.
final class TemporaryFolder: Sendable {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory.appendingPathComponent("sharekit-test-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}
