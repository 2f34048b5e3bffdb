import FoundationEssentials
import ShareProtocol

extension ShareExtensionRunner {
  /// The process's request as a context, for a program that runs its own loop (ShareKitUI's
  /// sheets run GTK's): read as ``ShareExtension/main()`` reads it, with standard output diverted
  /// the same way. `finished` is called (on the thread that ended the request) once the final
  /// event is written.
  ///
  /// When the request cannot be read, sends a cancel event saying why and exits with status 1,
  /// as ``ShareExtension/main()`` does.
  package static func processContext(finished: @escaping @Sendable () -> Void) -> ExtensionContext {
    let sink = WatchedSink(
      inner: DescriptorSink(descriptor: SystemCalls.divertStandardOutput()), finished: finished)
    do {
      let bytes: [UInt8]
      do {
        bytes = try SystemCalls.readStandardInput()
      } catch {
        throw ShareError.invalidRequest(
          "cannot read the request on standard input: \(FoundationErrors.localizedDescription(of: error))")
      }
      let request = try decodeRequest(Data(bytes))
      return ExtensionContext(request: request, environment: ProcessInfo.processInfo.environment, sink: sink)
    } catch {
      let report = ShareError.report(for: error)
      sink.inner.send(.cancel(code: report.code, message: report.message))
      SystemCalls.exitProcess(1)
    }
  }

  /// Ends the process with `status`, as ``ShareExtension/main()`` does once its request has ended.
  package static func exitProcess(_ status: Int32) -> Never {
    SystemCalls.exitProcess(status)
  }
}

/// A sink that tells when the final event has gone out.
private struct WatchedSink: EventSink {
  let inner: DescriptorSink
  let finished: @Sendable () -> Void

  func write(line: [UInt8]) {
    inner.write(line: line)
  }

  func send(_ event: PluginEvent) {
    inner.send(event)
    if event.isFinal { finished() }
  }
}
