import Dispatch
import FoundationEssentials
import ShareCore
import ShareGtk
import ShareHost
import Synchronization

/// The picker's window and what it does before a service is chosen: the summary, the search, the
/// list of services, edit mode. What follows a choice is in `PickerWindow+Sharing.swift`.
///
/// Every handler GTK holds captures the window weakly, so a closed window frees its controller
/// (counted in ``freed``, which a test reads).
@MainActor
final class PickerWindow {
  /// Controllers whose windows are open: the caller keeps each here, the window's end removes it.
  static var live: [PickerWindow] = []
  /// How many controllers were freed.
  nonisolated static let freed = Atomic<Int>(0)

  let application: Application
  let window: Window
  let text: SheetText
  let items: [ShareItem]
  let environment: [String: String]
  /// Where the picker's result goes (the exit status, the result line).
  let report: @MainActor @Sendable (SheetResult) -> Void

  let editButton: Button
  let summary: SummaryView
  let stack = Stack()
  let search: SearchEntry
  let list = ListBox()
  let noMatch = Label()
  let settingsProblem = Label()
  /// The pages other than the list, made when first shown: a window that opens on its list
  /// draws its first frame sooner.
  private(set) var statusView: StatusView?
  private(set) var progressView: ProgressView?

  var loaded: LoadedSelection?
  /// The services' icons as loaded, for the rows made again.
  private var iconTextures: [String: Texture] = [:]
  var model: PickerModel?
  /// The rows, in the order shown.
  var rows: [ServiceRowView] = []
  /// The services whose rows are made after the first frame, in the order shown.
  private var pendingServices: [ShareService] = []
  /// The rows made before the first frame: more than the list's 420 pixels show, so that the
  /// rest, made right after it, come below the fold and the list's height does not change. A
  /// hundred rows made, styled and measured before the window appears took a fifth of its start.
  static let rowsBeforeFirstFrame = 12
  var editing = false
  /// The row of action extensions, under the services.
  let actionsRow: ActionsRow
  /// The row of direct targets, above the services.
  let targetsRow: TargetsRow
  /// In edit mode: whether the direct targets are offered.
  let suggestionsRow = Box(.horizontal, spacing: 12)
  let suggestionsSwitch = Switch(isActive: true)
  /// The share going on, once a service is chosen, and what it does without the window.
  var run: ShareRun?
  var background: BackgroundShare?
  var isOpen = true
  /// Bumped when a countdown to close must no longer fire.
  var closeGeneration = 0
  /// Settings are written one change at a time, off the main actor; the process waits for the
  /// last before it exits.
  nonisolated static let settingsQueue = DispatchQueue(label: "xdg-share-sheet.settings")

  /// Who asks, said under the window's title; the preview's line the caller gave.
  let caller: SheetCaller?
  let givenTitle: String?
  /// Whether the window keeps its parent from input.
  let modal: Bool

  init(
    application: Application, items: [ShareItem], text: SheetText, environment: [String: String],
    caller: SheetCaller? = nil, title: String? = nil, modal: Bool = false,
    report: @escaping @MainActor @Sendable (SheetResult) -> Void
  ) {
    self.application = application
    self.caller = caller
    self.givenTitle = title
    self.modal = modal
    self.items = items
    self.text = text
    self.environment = environment
    self.report = report
    window = Window(application: application, title: text("Share"))
    window.setDefaultSize(width: 440, height: -1)
    editButton = Button(label: text("Edit"))
    search = SearchEntry(placeholder: text("Search"))
    actionsRow = ActionsRow(text: text)
    targetsRow = TargetsRow(text: text)
    var preliminary = SelectionSummary(
      attachments: items.map { Attachment(item: $0, typeIdentifiers: []) }, text: text, describe: { _ in "" })
    if let title { preliminary.title = title }
    summary = SummaryView(preliminary, icons: Self.icons(for: preliminary, contentTypeIcons: []))
    build()
  }

  isolated deinit {
    Self.freed.add(1, ordering: .relaxed)
  }

  private func build() {
    let header = HeaderBar()
    editButton.setAccessibleLabel(text("Edit"))
    editButton.isVisible = false
    editButton.onClick { [weak self] in self?.setEditing(!(self?.editing ?? true)) }
    header.packEnd(editButton)

    search.setAccessibleLabel(text("Search services"))
    search.setMargins(top: 6, bottom: 6, start: 18, end: 18)
    search.onSearchChanged { [weak self] in self?.applyFilter() }
    search.onActivate { [weak self] in self?.chooseFirstMatch() }

    list.addStyleClass("boxed-list")
    noMatch.wrap()
    noMatch.addStyleClass("dim-label")
    noMatch.setMargins(top: 18, bottom: 18, start: 12, end: 12)
    list.setPlaceholder(noMatch)
    let listBox = Box(.vertical)
    listBox.setMargins(top: 6, bottom: 18, start: 18, end: 18)
    listBox.append(list)
    let scroller = ScrolledWindow(child: listBox)
    scroller.setContentHeight(minimum: 120, maximum: 420)
    settingsProblem.wrap()
    settingsProblem.addStyleClass("error")
    settingsProblem.isVisible = false
    settingsProblem.setMargins(start: 18, end: 18)
    let suggestionsLabel = Label(text("Suggest devices, people and folders"))
    suggestionsLabel.wrap()
    suggestionsLabel.horizontalPosition = 0
    suggestionsLabel.expand(horizontally: true)
    suggestionsSwitch.setAccessibleLabel(text("Suggestions"))
    suggestionsSwitch.onToggled { [weak self] in self?.changeSuggestions() }
    suggestionsRow.append(suggestionsLabel)
    suggestionsRow.append(suggestionsSwitch)
    suggestionsRow.setMargins(top: 6, bottom: 6, start: 18, end: 18)
    suggestionsRow.isVisible = false
    let choosePage = Box(.vertical)
    for widget in [
      search, settingsProblem, targetsRow.container, suggestionsRow, scroller, actionsRow.container,
    ]
      as [Widget]
    {
      choosePage.append(widget)
    }

    stack.add(choosePage, name: Page.choose)

    let content = Box(.vertical)
    content.append(header)
    // Who asks, above what they share: a site or an app the user may not expect, said in full.
    if let caller {
      let words =
        switch caller {
        case .site(let site): text("{site} wants to share", ["site": site])
        case .application(let name, _): text("Share from {app}", ["app": name])
        }
      let asking = Label(words)
      asking.wrap()
      asking.addStyleClass("dim-label")
      asking.setMargins(top: 6, start: 18, end: 18)
      asking.horizontalPosition = 0
      content.append(asking)
    }
    for widget in [summary.box, stack] as [Widget] { content.append(widget) }
    window.setContent(content)

    search.captureKeys(from: window)
    window.onKeyPress(.capture) { [weak self] key, modifiers in
      self?.handleKey(key, modifiers) ?? false
    }
    window.onCloseRequest { [weak self] in
      self?.windowClosing()
      return false
    }
    window.onClosed { [weak self] in
      guard let self else { return }
      isOpen = false
      Self.live.removeAll { $0 === self }
    }
  }

  /// The page of status and outcomes.
  var status: StatusView {
    if let statusView { return statusView }
    let made = StatusView()
    stack.add(made.box, name: Page.status)
    statusView = made
    return made
  }

  /// The page of a share in progress.
  var progress: ProgressView {
    if let progressView { return progressView }
    let made = ProgressView()
    made.cancel.onClick { [weak self] in self?.cancelShare() }
    stack.add(made.box, name: Page.progress)
    progressView = made
    return made
  }

  /// Says that the services are loading, for a window that opens before they come.
  func showLoading() {
    guard loaded == nil else { return }
    status.show(icon: nil, title: text("Loading services…"), detail: "", buttons: [])
    stack.show(Page.status)
  }

  /// The stack's pages.
  enum Page {
    static let status = "status"
    static let choose = "choose"
    static let progress = "progress"
  }

  /// Whether the window was shown.
  private(set) var isPresented = false

  /// Shows the window, the first time only; returns whether it did.
  @discardableResult
  func present(parent: SheetArguments.Parent?) -> Bool {
    guard !isPresented else { return false }
    isPresented = true
    switch parent {
    case .x11(let xid): window.setTransientParent(.x11(xid))
    case .wayland(let handle): window.setTransientParent(.wayland(handle))
    case nil: break
    }
    if parent != nil, modal { window.isModal = true }
    window.present()
    scheduleRemainingRows()
    return true
  }

  /// Calls `handler` after the window's first frame.
  func onFirstFrame(_ handler: @escaping @MainActor () -> Void) {
    window.onFirstFrame(handler)
  }

  // MARK: Services

  /// Shows the loaded services, or why there are none.
  func show(_ loaded: LoadedSelection, iconTextures: [String: Texture]) {
    self.loaded = loaded
    self.iconTextures = iconTextures
    var shown = loaded.summary
    if let givenTitle { shown.title = givenTitle }
    summary.show(shown, icons: Self.icons(for: shown, contentTypeIcons: loaded.summaryIcons))
    guard loaded.problems.isEmpty else {
      report(SheetResult(.refused(.unreadableFiles(loaded.problems))))
      let names = loaded.problems.map { $0.path.displayString }.joined(separator: ", ")
      status.show(
        icon: ["dialog-error-symbolic"], style: "error", title: text("Cannot read {file}", ["file": names]),
        detail: loaded.problems.map { Diagnostics.reason($0.reason) }.joined(separator: "\n"),
        buttons: [closeButton()])
      stack.show(Page.status)
      return
    }
    model = PickerModel(
      accepting: loaded.accepting, settings: loaded.settings, kinds: loaded.kinds, uses: loaded.uses,
      now: Date())
    // Action extensions go in their row, share services in the list.
    actionsRow.set(
      loaded.accepting.filter { $0.kind == .action }, iconTextures: iconTextures,
      choose: { [weak self] id in self?.choose(id) })
    suggestionsSwitch.isActive = loaded.settings.suggestions
    // The rows on screen first, in the order shown; the others after the first frame.
    var first: [ShareService] = []
    pendingServices = []
    var listed = 0
    for state in model?.rows(editing: true) ?? [] where state.service.kind != .action {
      if listed < Self.rowsBeforeFirstFrame {
        first.append(state.service)
        if !state.isHidden { listed += 1 }
      } else {
        pendingServices.append(state.service)
      }
    }
    rows = first.map(makeRow)
    editButton.isVisible = !rows.isEmpty
    refreshRows()
    search.grabFocus()
    if isPresented { scheduleRemainingRows() }
  }

  private func makeRow(_ service: ShareService) -> ServiceRowView {
    let id = service.id
    return ServiceRowView(
      service: service, iconTexture: iconTextures[id], text: text,
      choose: { [weak self] in self?.choose(id) },
      togglePin: { [weak self] in self?.changeSetting(id, pin: true) },
      toggleHidden: { [weak self] in self?.changeSetting(id, pin: false) })
  }

  /// Makes the rows left for after the next frame, once what waits for that frame has run.
  private func scheduleRemainingRows() {
    guard !pendingServices.isEmpty else { return }
    window.onFirstFrame { [weak self] in
      DispatchQueue.main.async { [weak self] in MainActor.assumeIsolated { self?.makeRemainingRows() } }
    }
  }

  /// Makes the rows not made yet, below the others (they come after them in the order shown);
  /// at once when something needs every row (the search, edit mode, the arrow keys).
  func makeRemainingRows() {
    guard let model, !pendingServices.isEmpty else { return }
    let pending = pendingServices
    pendingServices = []
    let states = Dictionary(
      model.rows(editing: true).map { ($0.service.id, $0) }, uniquingKeysWith: { first, _ in first })
    for service in pending {
      let view = makeRow(service)
      let state = states[service.id]
      view.update(pinned: state?.isPinned ?? false, hidden: state?.isHidden ?? false, editing: editing)
      list.append(view.row)
      rows.append(view)
    }
    applyFilter()
  }

  /// Puts the rows in order, shows each one's state, and the page that fits.
  func refreshRows() {
    guard let model else { return }
    // Edit mode lists every row, hidden ones too.
    if editing { makeRemainingRows() }
    let all = model.rows(editing: true)
    actionsRow.arrange(all.filter { $0.service.kind == .action })
    targetsRow.set(
      model.targetRows(loaded?.targets ?? []), iconTextures: iconTextures,
      choose: { [weak self] id, target in self?.choose(id, target: target) })
    suggestionsRow.isVisible = editing && !(loaded?.targets.isEmpty ?? true)
    let order = all.filter { $0.service.kind != .action }
    let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1.service.id, $0) })
    for view in rows { list.remove(view.row) }
    rows.sort { (position[$0.service.id] ?? 0) < (position[$1.service.id] ?? 0) }
    for (view, state) in zip(rows, order) {
      view.update(pinned: state.isPinned, hidden: state.isHidden, editing: editing)
      list.append(view.row)
    }
    applyFilter()
    let anyOffered = rows.contains { !$0.isHidden } || actionsRow.isOffered
    report(SheetResult(anyOffered ? .notChosen(.declined) : .noServiceAccepts(itemCount: items.count)))
    if anyOffered || editing {
      if stack.visiblePage != Page.progress { stack.show(Page.choose) }
    } else {
      status.footnote.text = ""
      status.show(
        icon: ["dialog-information-symbolic"], title: text("No service can share this"),
        detail: text("Share services that accept it can be installed, or hidden ones shown again with Edit."),
        buttons: [closeButton()])
      stack.show(Page.status)
    }
  }

  /// Shows the rows the search finds (and in edit mode the hidden ones); marks the first, which
  /// Enter chooses.
  func applyFilter() {
    let query = search.text
    if !query.isEmpty || editing { makeRemainingRows() }
    var first = true
    for view in rows {
      let shown = (editing || !view.isHidden) && PickerModel.matches(view.service, query: query)
      view.row.isVisible = shown
      view.row.setAccessibilityHidden(!shown)
      view.main.setStyleClass("first-match", shown && first && !query.isEmpty && !editing)
      if shown { first = false }
    }
    actionsRow.filter(query: query, editing: editing, markFirst: first)
    targetsRow.filter(query: query, editing: editing, enabled: model?.settings.suggestions ?? true)
    let found = !first || !actionsRow.visible.isEmpty
    noMatch.text = query.isEmpty || found ? "" : text("No service matches “{query}”", ["query": query])
    // GTK shows the placeholder only without rows, but leaves it in the accessibility tree.
    noMatch.setAccessibilityHidden(!first)
  }

  var visibleRows: [ServiceRowView] { rows.filter { $0.row.isVisible } }

  /// Enter in the search field: the first service found, marked as such while one searches.
  private func chooseFirstMatch() {
    guard !editing, !search.text.isEmpty, let first = visibleRows.first else { return chooseFirstAction() }
    choose(first.service.id)
  }

  // MARK: Edit mode

  func setEditing(_ on: Bool) {
    editing = on
    editButton.label = on ? text("Done") : text("Edit")
    editButton.setAccessibleLabel(on ? text("Done") : text("Edit"))
    editButton.setStyleClass("suggested-action", on)
    refreshRows()
  }

  /// Pins or unpins (`pin`), else hides or shows, the service `id`; writes it to the settings.
  private func changeSetting(_ id: String, pin: Bool) {
    guard var model, let view = rows.first(where: { $0.service.id == id }) else { return }
    let focusOnPin = view.pin?.containsFocus ?? false
    let wanted: Bool
    if pin {
      PickerModel.togglePin(id, in: &model.settings)
      wanted = model.settings.pinnedServices.contains(id)
    } else {
      PickerModel.toggleHidden(id, in: &model.settings)
      wanted = model.settings.hiddenServices.contains(id)
    }
    self.model = model
    refreshRows()
    // The row moved: the focus stays on the button the user pressed.
    (focusOnPin || pin ? view.pin : view.hide)?.grabFocus()
    let environment = environment
    saveSettings(
      { settings in
        if pin {
          settings.pinnedServices.removeAll { $0 == id }
          if wanted { settings.pinnedServices.append(id) }
        } else if wanted {
          settings.hiddenServices.insert(id)
        } else {
          settings.hiddenServices.remove(id)
        }
      },
      then: { if !pin { ServiceSource.followHiddenServices(environment: environment) } })
  }

  /// The suggestions switch turned: offer the direct targets or not, and keep it in the
  /// settings (`Suggestions=false`).
  private func changeSuggestions() {
    guard var model, model.settings.suggestions != suggestionsSwitch.isActive else { return }
    let wanted = suggestionsSwitch.isActive
    model.settings.suggestions = wanted
    self.model = model
    refreshRows()
    saveSettings({ $0.suggestions = wanted })
  }

  /// Writes `change` to the settings file on ``settingsQueue``, then runs `then` there; a file
  /// that cannot be written is named under the list until a later write succeeds.
  private func saveSettings(
    _ change: @escaping @Sendable (inout UserSettings) -> Void, then: @escaping @Sendable () -> Void = {}
  ) {
    let file = SettingsFile(paths: SearchPaths.system(environment: environment))
    Self.settingsQueue.async {
      do {
        try file.update(change)
        then()
        Task { @MainActor [weak self] in self?.settingsProblem.isVisible = false }
      } catch {
        let message = "\(file.path.text): \(error)"
        Task { @MainActor [weak self] in
          self?.settingsProblem.text = message
          self?.settingsProblem.isVisible = true
        }
      }
    }
  }

  // MARK: Keys

  private func handleKey(_ key: Key, _ modifiers: KeyModifiers) -> Bool {
    switch key {
    case .escape:
      if editing && stack.visiblePage == Page.choose {
        setEditing(false)
      } else if !search.text.isEmpty && stack.visiblePage == Page.choose {
        // As GNOME's search fields: the search goes first, the window with the next Escape.
        search.text = ""
        search.grabFocus()
      } else {
        window.close()
      }
      return true
    case .up, .down:
      guard modifiers.isEmpty, stack.visiblePage == Page.choose else { return false }
      window.showFocus()
      return moveFocus(by: key == .down ? 1 : -1)
    default:
      return false
    }
  }

  /// Moves the focus to the row above or below, in the same column; above the first row is the
  /// row of suggestions when it is shown, above that the search field; below the last row is
  /// the row of actions.
  private func moveFocus(by step: Int) -> Bool {
    makeRemainingRows()
    let shown = visibleRows
    let firstAction = editing ? nil : actionsRow.visible.first?.button
    let firstTarget = editing ? nil : targetsRow.visible.first?.button
    if actionsRow.containsFocus {
      guard step < 0 else { return true }
      return shown.last?.focusableButtons.first?.grabFocus() ?? firstTarget?.grabFocus() ?? search.grabFocus()
    }
    if targetsRow.row.containsFocus {
      guard step > 0 else { return search.grabFocus() }
      return (shown.first?.focusableButtons.first ?? firstAction)?.grabFocus() ?? true
    }
    if search.containsFocus {
      guard step > 0 else { return true }
      return (firstTarget ?? shown.first?.focusableButtons.first ?? firstAction)?.grabFocus() ?? false
    }
    guard let index = shown.firstIndex(where: { $0.row.containsFocus }) else { return false }
    let column = shown[index].focusableButtons.firstIndex { $0.containsFocus } ?? 0
    let target = index + step
    if target < 0 { return firstTarget?.grabFocus() ?? search.grabFocus() }
    guard target < shown.count else { return firstAction?.grabFocus() ?? true }
    let buttons = shown[target].focusableButtons
    return buttons[min(column, buttons.count - 1)].grabFocus()
  }

  // MARK: Helpers

  /// The picker's own style, over libadwaita's.
  static let css = """
    .share-summary .thumbnail { border-radius: 8px; }
    button.service { padding: 6px 8px; }
    button.service.first-match { background-color: alpha(@accent_bg_color, 0.14); }
    row.editing button.service { background: none; }
    row.hidden-service button.service { opacity: 0.6; }
    row.service-row button.pinned { color: @accent_color; }
    """

  func closeButton() -> Button {
    let button = Button(label: text("Close"))
    button.addStyleClass("pill")
    button.onClick { [weak self] in self?.window.close() }
    return button
  }

  static func icons(for summary: SelectionSummary, contentTypeIcons: [String]) -> [String] {
    switch summary.picture {
    case .icons(let names): names
    case .contentType, .thumbnail: contentTypeIcons + ["text-x-generic", "text-x-generic-symbolic"]
    }
  }
}
