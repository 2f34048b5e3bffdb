import FoundationEssentials
import ShareGtk
import ShareKit

/// The compose sheet shown by the host itself rather than by an extension's process:
/// `xdg-share-sheet --compose` shows a service's declared sheet (`XDGShareComposeSheet`) with
/// the very ``ComposeServiceViewController`` an extension in Swift gets, on a context it made
/// (``ExtensionContext/init(request:environment:events:)``), and answers the host itself.
///
/// The same window as ``SheetRuntime``'s, but returning instead of ending the process, so that
/// the caller decides its exit status.
@MainActor
package enum HostedSheet {
  /// Shows `make()`'s sheet for `context` and runs GTK until the request has ended and the sheet
  /// has slid out. A window closed without the request ending cancels it.
  ///
  /// The context's event sink must call ``requestEnded()`` on the final event.
  package static func run(
    context: ExtensionContext, applicationID: String, parent: ParentWindow?, environment: [String: String],
    make: @escaping @MainActor () -> ComposeServiceViewController
  ) {
    SheetRuntime.show(
      make, context: context, applicationID: applicationID, parent: parent, environment: environment)
  }

  /// The request has ended (the final event was sent): the sheet lets the loop end once it has
  /// slid out. Any thread may call it.
  nonisolated package static func requestEnded() {
    Task { @MainActor in SheetRuntime.host?.requestEnded() }
  }

  /// Cancel, as the button: the sheet slides out and the request ends cancelled.
  package static func cancel() {
    SheetRuntime.host?.cancel()
  }
}
