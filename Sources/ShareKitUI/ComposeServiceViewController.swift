import ShareGtk
import ShareKit

/// The stock compose sheet (Apple's `SLComposeServiceViewController`): the shared text to edit,
/// a count of characters left, a preview of the attachments, configuration items, and Cancel and
/// Post. Subclass it and mark the subclass `@main`:
///
/// ```swift
/// import ShareKitUI
///
/// @main
/// final class ShareViewController: ComposeServiceViewController {
///   override func isContentValid() -> Bool {
///     charactersRemaining = 100 - contentText.count
///     return charactersRemaining! >= 0
///   }
///
///   override func didSelectPost() {
///     // Send contentText… then:
///     extensionContext!.completeRequest(returningItems: [])
///   }
/// }
/// ```
///
/// The sheet slides in over 0.25 s and out over 0.20 s. Post tells the host the user has posted
/// (``ExtensionContext/didPost()``), slides the sheet out at once and then calls
/// ``didSelectPost()``, whose work may take as long as it needs: the process runs until the
/// request ends. Ctrl+Enter posts; Escape cancels (on a pushed page, goes back).
@MainActor
open class ComposeServiceViewController: ExtensionSheetController, SheetContent {
  /// The title of the Post button ("Save", "Send", …); set it in ``viewDidLoad()``.
  public var postButtonTitle = "Post"

  /// The text in the sheet: at first the shared text (the input items' content text), then as
  /// the user edits it.
  public var contentText: String {
    get { view?.text ?? storedText }
    set {
      storedText = newValue
      view?.text = newValue
    }
  }

  /// Whether the sheet has a text to edit; set it to false in ``viewDidLoad()`` for a sheet that
  /// only asks its configuration items (a folder to save to), whose ``contentText`` then stays
  /// the shared text.
  public var showsText = true

  /// Shown greyed in the text field while it is empty.
  public var placeholder: String? {
    didSet { view?.placeholder = placeholder }
  }

  /// The count shown below the text, "N characters remaining", in the warning colour while the
  /// content is not valid; `nil` shows none. Set it in ``isContentValid()``, from
  /// `contentText.count` (characters as the user sees them: grapheme clusters).
  public var charactersRemaining: Int? {
    didSet { view?.showRemaining(charactersRemaining) }
  }

  private var storedText = ""
  private var view: ComposeView?
  private var items: [ConfigurationItem] = []

  // MARK: Overridable

  /// Whether Post may be used now; called after every edit. Count ``charactersRemaining`` here.
  open func isContentValid() -> Bool { true }

  /// Checks the content again (calls ``isContentValid()``) and updates Post and the count.
  /// Called after every edit; call it when something else changes what is valid.
  open func validateContent() {
    let valid = isContentValid()
    view?.showValidity(valid)
    host?.isPrimaryEnabled = valid
  }

  /// The user chose Post; the sheet is already sliding out. Do the work and end the request; the
  /// default completes it without items.
  open func didSelectPost() {
    extensionContext?.completeRequest(returningItems: [])
  }

  /// The lines below the text; asked for when the sheet is built and by
  /// ``reloadConfigurationItems()``.
  open func configurationItems() -> [ConfigurationItem] { [] }

  /// The preview beside the text; `nil` shows the default: a thumbnail of the first image, the
  /// icon and name of another file, or a link's host.
  open func loadPreviewView() -> Widget? { nil }

  // MARK: Calls

  /// Asks ``configurationItems()`` again and shows the new list.
  public func reloadConfigurationItems() {
    items = configurationItems()
    view?.showItems(items)
  }

  /// The program's entry point (`@main`): reads the request on standard input, shows the sheet,
  /// and exits once the request has ended and the sheet has slid out.
  public static func main() {
    SheetRuntime.run { self.init() }
  }

  // MARK: SheetContent

  var primaryButtonTitle: String { postButtonTitle }

  /// The shared text first, so that ``viewDidLoad()`` finds it in ``contentText``.
  override func attach(_ context: ExtensionContext, host: SheetHost) {
    storedText = context.inputItems.compactMap(\.attributedContentText).joined(separator: "\n")
    super.attach(context, host: host)
  }

  func makeBody() -> Widget {
    let view = ComposeView(text: storedText, placeholder: placeholder, showsText: showsText)
    self.view = view
    view.onEdit = { [weak self] in self?.validateContent() }
    let preview = loadPreviewView() ?? DefaultPreview.make(for: extensionContext?.inputItems ?? [])
    if let preview { view.showPreview(preview) }
    reloadConfigurationItems()
    view.showRemaining(charactersRemaining)
    return view.root
  }

  var initialFocus: Widget? { showsText ? view?.textView : nil }

  func primaryChosen() { didSelectPost() }

  /// Validates once the buttons exist, so that Post starts in the right state.
  func sheetBuilt() {
    validateContent()
  }
}
