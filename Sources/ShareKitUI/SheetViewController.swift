import ShareGtk
import ShareKit

/// A sheet of the extension's own (ShareByMail's "Share this", Hoi's list of friends): modal,
/// sliding in and out as the compose sheet does, with a title, Cancel, a primary button, and the
/// extension's widgets below. Subclass it and mark the subclass `@main`:
///
/// ```swift
/// import ShareKitUI
///
/// @main
/// final class HoiSheet: SheetViewController {
///   private let friends = CheckList(["Anna", "Bruno", "Chiara"])
///
///   override func viewDidLoad() {
///     title = "Send to Friends"
///     primaryButtonTitle = "Send"
///     friends.onChange = { [weak self] list in self?.isPrimaryEnabled = !list.selection.isEmpty }
///     isPrimaryEnabled = false
///   }
///
///   override func loadContent() -> Widget { friends.view }
///
///   override func didSelectPrimary() {
///     // Send to friends.selection… then:
///     extensionContext?.completeRequest(returningItems: [])
///   }
/// }
/// ```
///
/// The primary button behaves as the compose sheet's Post: it tells the host the user has
/// posted (``ExtensionContext/didPost()``), slides the sheet out at once and then calls
/// ``didSelectPrimary()``; the process runs until the request ends. Ctrl+Enter chooses it;
/// Escape cancels (on a pushed page, goes back). The sheet stays above the window it was shared
/// from when `XDG_SHARE_PARENT_WINDOW` names it (`x11:<XID>`, `wayland:<handle>`).
@MainActor
open class SheetViewController: ExtensionSheetController, SheetContent {
  /// The primary button's title ("Save", "Send", …); set it in ``viewDidLoad()``.
  public var primaryButtonTitle = "Share"
  /// Whether the primary button can be used; turn it off while the form is incomplete.
  public var isPrimaryEnabled = true {
    didSet { host?.isPrimaryEnabled = isPrimaryEnabled }
  }
  /// The widget that has the keyboard focus when the sheet opens (the first field, say).
  public var initialFocus: Widget?

  /// The sheet's content below its header bar; it scrolls when taller than the screen allows.
  open func loadContent() -> Widget { Box(.vertical) }

  /// The user chose the primary button; the sheet is already sliding out. Do the work and end
  /// the request; the default completes it without items.
  open func didSelectPrimary() {
    extensionContext?.completeRequest(returningItems: [])
  }

  /// The program's entry point (`@main`): reads the request on standard input, shows the sheet,
  /// and exits once the request has ended and the sheet has slid out.
  public static func main() {
    SheetRuntime.run { self.init() }
  }

  // MARK: SheetContent

  func makeBody() -> Widget {
    let content = loadContent()
    content.setMargins(top: 12, bottom: 18, start: 18, end: 18)
    let scrolled = ScrolledWindow(child: content)
    scrolled.setContentHeight(minimum: 0, maximum: 480)
    return scrolled
  }

  func sheetBuilt() {
    host?.isPrimaryEnabled = isPrimaryEnabled
  }

  func primaryChosen() { didSelectPrimary() }
}

/// What the compose sheet (``ComposeServiceViewController``) and a sheet of the extension's own
/// (``SheetViewController``) have alike: the request, the sheet's title and Cancel, pages pushed
/// over the sheet. Subclass one of those two rather than this.
@MainActor
open class ExtensionSheetController {
  /// The request; set before ``viewDidLoad()``.
  public private(set) var extensionContext: ExtensionContext?

  /// The sheet's title; the service's name is a good one.
  public var title = "Share"
  /// The title of the Cancel button.
  public var cancelButtonTitle = "Cancel"

  weak var host: SheetHost?

  public required init() {}

  /// Called once the request is known, before the sheet is built: set the title and the button
  /// titles here (and the compose sheet's placeholder).
  open func viewDidLoad() {}

  /// The user chose Cancel (or pressed Escape); the default cancels the request as the user's
  /// choice (`xdg-share share` exits with status 3).
  open func didSelectCancel() {
    extensionContext?.cancelRequest(withError: ShareError.userCancelled())
  }

  /// The sheet has finished sliding in.
  open func presentationAnimationDidFinish() {}

  /// Slides `controller`'s page in over the sheet, with Back.
  public func pushConfigurationViewController(_ controller: ConfigurationViewController) {
    host?.push(controller)
  }

  /// Goes back from the page on top to the one below.
  public func popConfigurationViewController() {
    host?.pop()
  }

  // What SheetContent asks that both answer alike.

  var sheetTitle: String { title }

  /// Takes the request, then calls ``viewDidLoad()``.
  func attach(_ context: ExtensionContext, host: SheetHost) {
    extensionContext = context
    self.host = host
    viewDidLoad()
  }

  func presented() { presentationAnimationDidFinish() }

  func cancelChosen() { didSelectCancel() }
}

/// The old name of ``SheetViewController``, which was also the name of the share sheet's module
/// (`ShareSheet`): kept so that extensions written against it still build.
@available(*, deprecated, renamed: "SheetViewController")
public typealias ShareSheet = SheetViewController
