import FoundationEssentials
import ShareProtocol

/// A share extension written in Swift: the program of a `.shareext` bundle.
///
/// Declare a type, mark it `@main`, and do the work in ``perform(context:)``:
///
/// ```swift
/// import ShareKit
///
/// @main
/// struct HoiShare: ShareExtension {
///   func perform(context: ExtensionContext) async throws {
///     for attachment in context.inputItems.flatMap(\.attachments) {
///       // …
///     }
///     context.completeRequest()
///   }
/// }
/// ```
///
/// The program reads the request the host writes on standard input, calls ``perform(context:)``
/// once and writes the events the host reads on standard output. Standard output is the host's
/// channel: `print` (and any program the extension starts) writes to standard error instead,
/// which the host keeps in the request's log.
public protocol ShareExtension {
  /// Called once per process, before ``perform(context:)``.
  init()

  /// Serves the request: look at `context.inputItems`, report progress, and end the request with
  /// ``ExtensionContext/completeRequest(returningItems:)`` or
  /// ``ExtensionContext/cancelRequest(withError:)``.
  ///
  /// Throwing ends the request as `cancelRequest(withError:)` does. Returning without ending it
  /// completes it with no items.
  func perform(context: ExtensionContext) async throws

  /// Publishes the extension's direct targets (``ShareTargets/publish(_:)``) as they are now,
  /// without a request: the host runs the program so, with `XDG_SHARE_PUBLISH_TARGETS=1`, when
  /// something its bundle watches changes (`XDGShareTargetSignals`). By default, nothing.
  static func publishTargets() async throws
}

extension ShareExtension {
  public static func publishTargets() async throws {}
}

extension ShareExtension {
  /// The program's entry point, used by `@main`: serves the one request on standard input.
  ///
  /// Exits with status 0 once the request has ended (completed, cancelled or failed, by
  /// ``perform(context:)`` or by what it threw); with status 1, after a cancel event saying why,
  /// when the request cannot be read.
  // `@concurrent`: under NonisolatedNonsendingByDefault an async function takes its caller's
  // actor, and `@main` accepts only a plain `async` entry point.
  @concurrent public static func main() async {
    await ShareExtensionRunner.serveProcess { _ in Self.self }
  }
}

/// Runs one of several share extensions from a single executable, for a family of bundles that
/// share one program (each bundle's `CFBundleExecutable` may point at a symbolic link to it):
///
/// ```swift
/// @main
/// enum Services {
///   static func main() async {
///     await ShareExtensionRunner.run([
///       "ch.example.hoi.mail": MailShare.self,
///       "ch.example.hoi.chat": ChatShare.self,
///     ])
///   }
/// }
/// ```
public enum ShareExtensionRunner {
  /// Serves the request on standard input with the extension registered for its service
  /// identifier (the bundle's `CFBundleIdentifier`), then exits.
  ///
  /// Exits with status 0 once the request has ended; with status 1, after a cancel event saying
  /// why, when the request cannot be read or no extension serves its service.
  public static func run(_ services: [String: any ShareExtension.Type]) async {
    await serveProcess(choosing: chooser(for: services))
  }

  /// Picks the extension for a request's service, or says which services the program serves.
  static func chooser(
    for services: [String: any ShareExtension.Type]
  ) -> (String) throws -> any ShareExtension.Type {
    { serviceID in
      guard let type = services[serviceID] else {
        throw ShareError.unknownService(serviceID, served: Array(services.keys))
      }
      return type
    }
  }

  /// Serves the process's request: events to the original standard output, `print` to standard
  /// error, the request from standard input.
  static func serveProcess(
    choosing choose: (String) throws -> any ShareExtension.Type
  ) async -> Never {
    let environment = ProcessInfo.processInfo.environment
    // Run to publish direct targets: no request, no events; the status says how it went.
    if environment["XDG_SHARE_PUBLISH_TARGETS"] == "1" {
      SystemCalls.exitProcess(await publishTargets(environment: environment, choosing: choose))
    }
    let sink = DescriptorSink(descriptor: SystemCalls.divertStandardOutput())
    let input = Result { () throws(CocoaError) in Data(try SystemCalls.readStandardInput()) }.mapError {
      error in
      ShareError.invalidRequest(
        "cannot read the request on standard input: \(FoundationErrors.localizedDescription(of: error))")
    }
    let status = await serve(input: consume input, environment: environment, sink: sink, choosing: choose)
    SystemCalls.exitProcess(status)
  }

  /// Publishes the targets of the service `XDG_SHARE_SERVICE_ID`: 0 when it did, 1 (with why on
  /// standard error) when it could not.
  static func publishTargets(
    environment: [String: String], choosing choose: (String) throws -> any ShareExtension.Type
  ) async -> Int32 {
    do {
      guard let service = environment["XDG_SHARE_SERVICE_ID"], !service.isEmpty else {
        throw ShareError("XDG_SHARE_PUBLISH_TARGETS without XDG_SHARE_SERVICE_ID")
      }
      try await choose(service).publishTargets()
      return 0
    } catch {
      _ = SystemCalls.write(Array("\(ShareError.report(for: error).message)\n".utf8), to: 2)
      return 1
    }
  }

  /// Serves one request and returns the exit status: 0 when the request ended, 1 when it could
  /// not be served (it was unreadable, or `choose` threw; one final event, a cancel).
  static func serve(
    input: consuming Result<Data, ShareError>, environment: [String: String], sink: any EventSink,
    choosing choose: (String) throws -> any ShareExtension.Type
  ) async -> Int32 {
    let request: PluginRequest
    let type: any ShareExtension.Type
    do {
      // Consumes `input`: the request's bytes are freed before `perform` runs. A service may end
      // the process from inside it (a signal); nothing must hold them then, or LeakSanitizer
      // reports them at exit and turns the exit status into 1.
      request = try decodeRequest(input.get())
      type = try choose(request.serviceId)
    } catch {
      let report = ShareError.report(for: error)
      sink.send(.cancel(code: report.code, message: report.message))
      return 1
    }
    let context = ExtensionContext(request: request, environment: environment, sink: sink)
    do {
      try await type.init().perform(context: context)
    } catch {
      context.cancelRequest(withError: error)
    }
    // Returning without ending the request completes it (ignored when it has ended).
    context.completeRequest()
    return 0
  }

  /// The request, or an error that says what is wrong with it.
  static func decodeRequest(_ data: Data) throws(ShareError) -> PluginRequest {
    guard data.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
      throw .invalidRequest("no request on standard input; share extensions are started by xdg-share")
    }
    do {
      return try JSONDecoder().decode(PluginRequest.self, from: data)
    } catch DecodingError.keyNotFound(let key, let context) {
      throw .invalidRequest(
        "the request on standard input lacks \(CodingPath.describe(context.codingPath + [key]))")
    } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
      throw .invalidRequest(
        "the request on standard input has a wrong value at \(CodingPath.describe(context.codingPath))")
    } catch DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
      throw .invalidRequest(
        "the request on standard input has a wrong value at \(CodingPath.describe(context.codingPath))")
    } catch {
      throw .invalidRequest("the request on standard input is not JSON")
    }
  }
}
