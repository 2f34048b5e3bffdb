package import ShareProtocol

extension ExtensionContext {
  /// A context for a request the host itself serves, not read from standard input: the compose
  /// sheet `xdg-share-sheet --compose` shows for a service that declares `XDGShareComposeSheet`
  /// runs ShareKitUI's sheet on it. `events` hears each event the sheet sends, on the thread that
  /// sent it, instead of a plugin's standard output.
  package convenience init(
    request: PluginRequest, environment: [String: String],
    events: @escaping @Sendable (PluginEvent) -> Void
  ) {
    self.init(request: request, environment: environment, sink: ClosureSink(events: events))
  }
}

/// Hands events to a closure; nothing is written anywhere.
private struct ClosureSink: EventSink {
  let events: @Sendable (PluginEvent) -> Void

  func write(line: [UInt8]) {}

  func send(_ event: PluginEvent) {
    events(event)
  }
}
