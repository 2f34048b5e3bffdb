import FoundationEssentials
import ShareProtocol

/// Where a plugin's events go: one call per event, with the whole line (newline included).
///
/// The seam between the context and standard output, so that tests can record the lines.
/// Implementations write each line at once and return only when it is written.
protocol EventSink: Sendable {
  func write(line: [UInt8])
  /// Writes `event`; a requirement so that a sink may watch the events (see `processContext`).
  func send(_ event: PluginEvent)
}

extension EventSink {
  /// Writes `event` as one line of JSON.
  func send(_ event: PluginEvent) {
    write(line: Self.encode(event))
  }

  static func encode(_ event: PluginEvent) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Events hold only strings, finite numbers and arrays of them: encoding cannot fail.
    let data =
      (try? encoder.encode(event))
      ?? Data(#"{"cancel":{"error":{"code":1,"message":"unencodable event"}}}"#.utf8)
    return Array(data) + [UInt8(ascii: "\n")]
  }
}

/// Writes events to a descriptor (the host's pipe), unbuffered: each line is written as soon as
/// it is sent.
struct DescriptorSink: EventSink {
  let descriptor: Int32

  init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  func write(line: [UInt8]) {
    // A host that has gone away cannot be told anything more; the write is simply lost.
    SystemCalls.write(line, to: descriptor)
  }
}
