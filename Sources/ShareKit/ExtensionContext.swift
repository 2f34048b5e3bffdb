public import FoundationEssentials
internal import ShareCore
public import ShareProtocol
import Synchronization

/// The request a share extension serves: what the user shared, and the way back to the host.
///
/// The counterpart of Apple's `NSExtensionContext`. Report progress with ``setProgress(_:message:)``
/// and end the request with ``completeRequest(returningItems:)`` or ``cancelRequest(withError:)``.
/// Only the first of those two counts: later calls, and progress after them, are ignored. Every
/// method may be called from any task or thread; each event reaches the host at once.
public final class ExtensionContext: Sendable {
  /// What the user shared. The host sends one item holding one attachment per file, link and
  /// text, in the order shared; the item's ``ExtensionItem/attributedContentText`` joins the texts.
  public let inputItems: [ExtensionItem]
  /// The request's identifier, as `xdg-share history` shows it.
  public let requestID: String
  /// The identifier of the service the request is for (the bundle's `CFBundleIdentifier`).
  public let serviceID: String
  /// Extra information from the host; empty unless the sharing application sends some.
  public let userInfo: [String: JSONValue]
  /// What the user wrote and chose in the compose sheet the bundle declares in its `Info.plist`
  /// (`XDGShareComposeSheet`), shown by the host before the extension starts; `nil` when the
  /// bundle declares none.
  public let composition: Composition?
  /// The extension's bundle folder (`XDG_SHARE_BUNDLE_PATH`); also the working directory.
  public let bundleURL: URL?
  /// The direct target the user chose (one of ``ShareTargets``' published), or nil when the
  /// user chose the extension itself. Its ``ShareTarget/identifier`` is the one published; the
  /// compose sheet the bundle declares is not shown for a target.
  public let target: ShareTarget?

  private let sink: any EventSink
  private let finished = Mutex(false)

  init(request: PluginRequest, environment: [String: String], sink: any EventSink) {
    inputItems = request.inputItems.map(ExtensionItem.init(payload:))
    requestID = request.requestId
    serviceID = request.serviceId
    userInfo = request.userInfo
    target = request.target.map(ShareTarget.init(payload:))
    composition = request.compose.map {
      Composition(contentText: $0.contentText, configuration: $0.configuration)
    }
    // The bundle's folder as the host gave it, bytes that are not UTF-8 included.
    bundleURL = environment["XDG_SHARE_BUNDLE_PATH"].flatMap {
      $0.isEmpty
        ? nil
        : ShareGroup.url(
          of: FilePath(
            bytes: SystemCalls.environmentBytes(restoring: ["XDG_SHARE_BUNDLE_PATH": $0]).values.first ?? []),
          isDirectory: true)
    }
    self.sink = sink
  }

  /// Ends the request successfully, handing `items` back to the host, which shows the files,
  /// links and texts they hold (a saved file's path, an uploaded file's link).
  ///
  /// Only an item's ``ExtensionItem/attributedContentText`` and its attachments are sent.
  public func completeRequest(returningItems items: [ExtensionItem] = []) {
    sendFinal(.complete(returningItems: items.map(\.payload)))
  }

  /// Ends the request unsuccessfully; the host shows the error's message.
  ///
  /// A ``ShareError`` is sent with its code and message; ``ShareError/userCancelled(_:)`` when the
  /// user chose to stop. Any other error is sent with code 1 and its description.
  public func cancelRequest(withError error: any Error) {
    let report = ShareError.report(for: error)
    if (error as? ShareError)?.isServiceFailure == true {
      sendFinal(.fail(code: report.code, message: report.message))
    } else {
      sendFinal(.cancel(code: report.code, message: report.message))
    }
  }

  /// Tells the host how far the request has come, for a progress bar or notification.
  ///
  /// - Parameters:
  ///   - fraction: the part done, clamped to 0…1 (NaN counts as 0).
  ///   - message: what is happening now, e.g. "Uploading photo.png".
  public func setProgress(_ fraction: Double, message: String? = nil) {
    let clamped = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
    finished.withLock { finished in
      guard !finished else { return }
      sink.send(.progress(fraction: clamped, message: message))
    }
  }

  /// Tells the host the user has posted: the extension's sheet is gone and the work goes on in the
  /// background, so closing the window it was shared from no longer stops it, and the host shows
  /// its progress in a notification. ``ComposeServiceViewController`` sends it on Post.
  public func didPost() {
    finished.withLock { finished in
      guard !finished else { return }
      sink.send(.posted)
    }
  }

  /// Whether the request has ended (completed or cancelled).
  package var isFinished: Bool {
    finished.withLock { $0 }
  }

  private func sendFinal(_ event: PluginEvent) {
    finished.withLock { finished in
      guard !finished else { return }
      finished = true
      sink.send(event)
    }
  }
}

/// What the user wrote and chose in a declared compose sheet (`XDGShareComposeSheet`).
public struct Composition: Sendable, Equatable {
  /// The sheet's text as the user left it.
  public var contentText: String
  /// Each configuration item's value, by its `Identifier`.
  public var configuration: [String: String]

  public init(contentText: String, configuration: [String: String] = [:]) {
    self.contentText = contentText
    self.configuration = configuration
  }
}
