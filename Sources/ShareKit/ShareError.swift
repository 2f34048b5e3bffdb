public import FoundationEssentials

/// An error a share extension reports to the host: a code and a message for the user.
///
/// Throw it from ``ShareExtension/perform(context:)`` or pass it to
/// ``ExtensionContext/cancelRequest(withError:)``; the host shows the message and records both.
/// Other errors are reported too, with code 1 and their `LocalizedError` description (or their
/// `String(describing:)`).
///
/// | code | meaning | made by |
/// |---|---|---|
/// | 1 | a failure of the extension's own | ``init(_:)`` |
/// | 2 | the request on standard input cannot be read | ``invalidRequest(_:)`` |
/// | 3 | the program does not serve the requested service | ``unknownService(_:served:)`` |
/// | 4 | an App Group that is malformed or not declared | ``applicationGroup(_:)`` |
/// | 5 | the shared key-value store cannot be read or written | ``storage(_:)`` |
/// | -1000 | an attachment holds no item of the asked type (`NSItemProviderItemUnavailableError`) | ``itemUnavailable(_:)`` |
/// | 3072 | the user cancelled (`NSUserCancelledError`) | ``userCancelled(_:)`` |
public struct ShareError: Error, LocalizedError, Equatable, Sendable {
  /// The error's code, sent to the host with the message.
  public var code: Int
  /// What went wrong, in words for the user.
  public var message: String
  /// Whether the service or its server failed (down, refused, 5xx, disk full), so the request
  /// ends as *failed*; otherwise, thrown from ``ShareExtension/perform(context:)``, it ends as
  /// *cancelled* (the user stopped it or must act first). See ``serviceFailed(_:code:)``.
  public var isServiceFailure = false

  /// An error with a code of your choosing.
  public init(code: Int, message: String) {
    self.code = code
    self.message = message
  }

  /// A failure of the extension's own, with code 1.
  public init(_ message: String) {
    self.init(code: 1, message: message)
  }

  /// The message, for `localizedDescription` and other `LocalizedError` users.
  public var errorDescription: String? { message }

  /// The user stopped the request (code 3072, as Cocoa's `NSUserCancelledError`).
  public static func userCancelled(_ message: String = "cancelled") -> ShareError {
    ShareError(code: 3072, message: message)
  }

  /// The service or its server failed: thrown from ``ShareExtension/perform(context:)``, the
  /// request ends as *failed* (exit status 4 of `xdg-share`, D-Bus `Response` 2), not cancelled.
  /// It is sent as a `fail` event, whose message the host shows as it is.
  public static func serviceFailed(_ message: String, code: Int = 1) -> ShareError {
    var error = ShareError(code: code, message: message)
    error.isServiceFailure = true
    return error
  }

  /// An attachment has no item of the type asked for (code -1000, as
  /// `NSItemProviderItemUnavailableError`).
  public static func itemUnavailable(_ message: String) -> ShareError {
    ShareError(code: -1000, message: message)
  }

  /// The request on standard input cannot be read (code 2).
  public static func invalidRequest(_ message: String) -> ShareError {
    ShareError(code: 2, message: message)
  }

  /// The program was started for a service it does not serve (code 3).
  public static func unknownService(_ id: String, served: [String]) -> ShareError {
    let list = served.sorted().joined(separator: ", ")
    return ShareError(
      code: 3, message: "this program serves \(list.isEmpty ? "no service" : list), not '\(id)'")
  }

  /// An App Group that is malformed, or that the bundle does not declare (code 4).
  public static func applicationGroup(_ message: String) -> ShareError {
    ShareError(code: 4, message: message)
  }

  /// The shared key-value store or its container cannot be read or written (code 5).
  public static func storage(_ message: String) -> ShareError {
    ShareError(code: 5, message: message)
  }

  /// The code and message the host is sent for any error: a ``ShareError``'s own; 3072 for a
  /// `CancellationError`; otherwise code 1 with the error's `LocalizedError` description,
  /// Foundation's description for an `NSError` or a `CustomNSError` (such as `CocoaError`), or
  /// else `String(describing:)`.
  public static func report(for error: any Error) -> ShareError {
    switch error {
    case let error as ShareError:
      return error
    case is CancellationError:
      return .userCancelled()
    default:
      if let description = (error as? any LocalizedError)?.errorDescription {
        return ShareError(description)
      }
      if FoundationErrors.isFoundationError(error) {
        return ShareError(FoundationErrors.localizedDescription(of: error))
      }
      return ShareError(String(describing: error))
    }
  }
}
