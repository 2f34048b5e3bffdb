import ShareGtk
import ShareKit

/// The sheet's window: a header bar with Cancel, the title and the primary button over the
/// content, pages pushed over it, the slide up on opening and down on leaving, and the keys.
///
/// It holds the application while the request runs after the sheet has gone (posting in the
/// background), and lets it end once both are over.
@MainActor
final class SheetHost {
  /// How long the sheet takes to slide in and out, in seconds (Hoi's sheet: 0.25 s and 0.20 s).
  static let slideInSeconds = 0.25
  static let slideOutSeconds = 0.20
  /// The sheet's width, in logical pixels.
  static let width: Int32 = 480

  private enum Phase {
    case opening, shown, leaving, gone
  }

  let application: Application
  let context: ExtensionContext
  private let log: AnimationLog?
  private let parent: ParentWindow?
  private weak var content: (any SheetContent)?
  private var window: Window?
  private var revealer: Revealer?
  private var pages: PageStack?
  private var primaryButton: Button?
  private var phase = Phase.opening
  private var holding = false
  private var requestHasEnded = false
  /// The configuration pages pushed, so that each lives while it is shown.
  private var pushed: [ConfigurationViewController] = []

  init(application: Application, context: ExtensionContext, log: AnimationLog?, parent: ParentWindow?) {
    self.application = application
    self.context = context
    self.log = log
    self.parent = parent
  }

  // MARK: Opening

  func present(_ content: any SheetContent) {
    self.content = content
    Style.addCSS(Self.css)
    let window = Window(application: application, title: content.sheetTitle)
    window.isModal = true
    let header = HeaderBar()
    header.showWindowButtons(false)
    header.setTitle(content.sheetTitle)
    let cancel = Button(label: content.cancelButtonTitle)
    cancel.onClick { [weak self] in self?.cancel() }
    let primary = Button(label: content.primaryButtonTitle)
    primary.addStyleClass("suggested-action")
    primary.onClick { [weak self] in self?.post() }
    header.packStart(cancel)
    header.packEnd(primary)
    primaryButton = primary

    let first = Box(.vertical)
    first.append(header)
    let body = content.makeBody()
    body.expand(vertically: true)
    first.append(body)
    content.sheetBuilt()
    let pages = PageStack(root: first)
    let revealer = Revealer(child: pages)
    revealer.align(vertical: .end)
    revealer.addStyleClass("share-sheet")
    window.setContent(revealer)
    window.setDefaultSize(width: Self.width, height: max(240, pages.naturalHeight(forWidth: Self.width)))
    window.isResizable = false
    self.window = window
    self.pages = pages
    self.revealer = revealer

    window.onCloseRequest { [weak self] in
      guard let self, phase == .opening || phase == .shown else { return false }
      // The window manager's close (Alt+F4): as Cancel, sliding out first.
      self.cancel()
      return true
    }
    window.onKeyPress(.capture) { [weak self] key, modifiers in
      self?.handle(key, modifiers) ?? false
    }
    if let parent { window.setTransientParent(parent) }
    window.present()
    if let focus = content.initialFocus { window.setFocus(focus) }
    window.onFirstFrame { [weak self] in self?.slideIn() }
  }

  private func slideIn() {
    guard let revealer, phase == .opening else { return }
    revealer.reveal(true, over: Self.slideInSeconds) { [weak self] measured in
      guard let self, phase == .opening else { return }
      log?.record("slide-in", seconds: measured)
      phase = .shown
      content?.presented()
    }
  }

  // MARK: The buttons

  /// Whether the primary button (Post) can be used.
  var isPrimaryEnabled: Bool {
    get { primaryButton?.isSensitive ?? false }
    set { primaryButton?.isSensitive = newValue }
  }

  private func handle(_ key: Key, _ modifiers: KeyModifiers) -> Bool {
    switch key {
    case .escape:
      if let pages, pages.depth > 1 {
        pop()
      } else {
        cancel()
      }
      return true
    case .enter where modifiers.contains(.control):
      post()
      return true
    default:
      return false
    }
  }

  /// Post: tells the host, slides out at once, then lets the extension do its work; the process
  /// runs on until the request ends.
  func post() {
    guard phase == .opening || phase == .shown, isPrimaryEnabled else { return }
    phase = .leaving
    context.didPost()
    hold()
    slideOut()
    content?.primaryChosen()
  }

  /// Cancel (or Escape): slides out, then lets the extension end the request.
  func cancel() {
    guard phase == .opening || phase == .shown else { return }
    phase = .leaving
    hold()
    slideOut()
    content?.cancelChosen()
  }

  /// The request has ended (by the extension, after Post or Cancel, or on its own).
  func requestEnded() {
    requestHasEnded = true
    if phase == .opening || phase == .shown {
      phase = .leaving
      slideOut()
    }
    if holding {
      holding = false
      application.release()
    }
  }

  private func hold() {
    guard !holding, !requestHasEnded else { return }
    holding = true
    application.hold()
  }

  private func slideOut() {
    guard let revealer else { return }
    revealer.reveal(false, over: Self.slideOutSeconds) { [weak self] measured in
      guard let self else { return }
      log?.record("slide-out", seconds: measured)
      phase = .gone
      pushed.removeAll()
      window?.close()
      window = nil
    }
  }

  // MARK: Pages

  func push(_ page: ConfigurationViewController) {
    guard let pages else { return }
    page.host = self
    let box = Box(.vertical)
    let header = HeaderBar()
    header.showWindowButtons(false)
    header.setTitle(page.title)
    let back = Button(iconName: "go-previous-symbolic")
    back.setAccessibleLabel("Back")
    back.tooltip = "Back"
    back.onClick { [weak self] in self?.pop() }
    header.packStart(back)
    box.append(header)
    let content = ScrolledWindow(child: page.loadView())
    content.expand(vertically: true)
    box.append(content)
    pushed.append(page)
    pages.push(box)
    back.grabFocus()
  }

  func pop() {
    guard let pages, pages.depth > 1 else { return }
    pages.pop()
    if let page = pushed.popLast() { page.host = nil }
    content?.initialFocus?.grabFocus()
  }

  static let css = """
    .share-sheet { background-color: @window_bg_color; }
    .share-sheet-count { font-feature-settings: "tnum"; }
    .share-sheet-preview { border-radius: 6px; }
    .share-sheet-row { font-weight: normal; border-radius: 0; }
    .share-sheet-row:checked { background: none; }
    """
}
