import FoundationEssentials
import ShareGtk
import ShareKit

/// What the sheet's window shows on its first page and how it answers its buttons: the compose
/// sheet and a custom ``SheetViewController`` are both one.
@MainActor
protocol SheetContent: AnyObject {
  var sheetTitle: String { get }
  var primaryButtonTitle: String { get }
  var cancelButtonTitle: String { get }
  /// Called once, before anything is built, with the request.
  func attach(_ context: ExtensionContext, host: SheetHost)
  /// The first page's content, below the header bar.
  func makeBody() -> Widget
  /// The window and its buttons exist.
  func sheetBuilt()
  /// The widget that has the keyboard focus when the sheet opens.
  var initialFocus: Widget? { get }
  /// Post (or the custom sheet's primary button), after the sheet started sliding out.
  func primaryChosen()
  /// Cancel or Escape, after the sheet started sliding out.
  func cancelChosen()
  /// The slide-in has ended.
  func presented()
}

/// One process, one request, one sheet: reads the request as ShareKit's runner does, runs GTK,
/// shows the sheet, and exits once the request has ended and the sheet has slid out.
@MainActor
enum SheetRuntime {
  /// The sheet being shown: kept here, as GTK's callbacks hold it only weakly.
  private static var content: (any SheetContent)?
  /// The window's host while GTK runs, for the request's end and Cancel.
  private(set) static var host: SheetHost?

  /// Why a sheet cannot open where there is no display.
  static let noDisplayMessage =
    "this service shows a window, and there is no display (DISPLAY or WAYLAND_DISPLAY): share from the desktop"

  /// The application id when the service's identifier is not a valid one.
  static let fallbackApplicationID = "org.xdgshare.Extension"

  /// `make` is called once GTK has started: an extension's stored properties may be widgets.
  static func run(_ make: @escaping @MainActor () -> any SheetContent) -> Never {
    // Before the request's threads: it sets an environment variable.
    Renderer.avoidSoftwareOpenGL(environment: ProcessInfo.processInfo.environment)
    let context = ShareExtensionRunner.processContext(finished: {
      // Any thread may end the request (background work after Post): the sheet hears it on the
      // main actor, which GLib's loop drains (ShareGtk's main-queue pump).
      Task { @MainActor in SheetRuntime.host?.requestEnded() }
    })
    let environment = ProcessInfo.processInfo.environment
    // Shared from a terminal with no desktop: GTK would only say it cannot open a display and exit
    // with no final event; the user must act first, so the request is cancelled, saying how.
    if (environment["DISPLAY"] ?? "").isEmpty && (environment["WAYLAND_DISPLAY"] ?? "").isEmpty {
      context.cancelRequest(withError: ShareError(code: 1, message: noDisplayMessage))
      ShareExtensionRunner.exitProcess(0)
    }
    show(
      make, context: context, applicationID: context.serviceID,
      parent: ParentWindowName.parse(environment["XDG_SHARE_PARENT_WINDOW"]), environment: environment)
    ShareExtensionRunner.exitProcess(0)
  }

  /// Shows `make()`'s sheet for `context` in the application `applicationID` (or
  /// ``fallbackApplicationID``) and runs GTK until the loop ends: once the request has ended and
  /// the sheet has slid out. A window closed without the request ending cancels it.
  static func show(
    _ make: @escaping @MainActor () -> any SheetContent, context: ExtensionContext, applicationID: String,
    parent: ParentWindow?, environment: [String: String]
  ) {
    let application = Application(
      id: Application.isValidID(applicationID) ? applicationID : fallbackApplicationID)
    let host = SheetHost(
      application: application, context: context, log: AnimationLog(environment: environment), parent: parent)
    self.host = host
    _ = application.run {
      let content = make()
      self.content = content
      content.attach(context, host: host)
      host.present(content)
    }
    // The window closed without the request ending (the loop ended some other way).
    if !context.isFinished { context.cancelRequest(withError: ShareError.userCancelled()) }
    self.host = nil
    self.content = nil
  }
}

/// `XDG_SHARE_PARENT_WINDOW`, in xdg-desktop-portal's form: `x11:<XID in hex>` or
/// `wayland:<handle>`. Anything else is no parent.
enum ParentWindowName {
  static func parse(_ given: String?) -> ParentWindow? {
    guard let given else { return nil }
    if given.hasPrefix("x11:") {
      var digits = given.dropFirst(4)
      if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
      guard let xid = UInt(digits, radix: 16), xid != 0 else { return nil }
      return .x11(xid)
    }
    if given.hasPrefix("wayland:"), given.count > 8 { return .wayland(String(given.dropFirst(8))) }
    return nil
  }
}
