import Dispatch
import FoundationEssentials
import ShareCore
import ShareGtk
import ShareHost
import ShareProtocol

/// The progress page: what is being done, how far it has come, and a way to stop it.
@MainActor
final class ProgressView {
  let box = Box(.vertical, spacing: 12)
  let title = Label()
  let bar = ProgressBar()
  let message = Label()
  let cancel: Button
  /// Whether the bar pulses (work of unknown length); a timer keeps it moving.
  private var pulsing = false

  init() {
    box.setMargins(top: 18, bottom: 24, start: 24, end: 24)
    box.align(vertical: .center)
    box.expand(vertically: true)
    title.addStyleClass("title-3")
    title.wrap()
    message.wrap(lines: 3)
    message.addStyleClass("dim-label")
    cancel = Button(label: "")
    cancel.addStyleClass("pill")
    cancel.align(horizontal: .center)
    for widget in [title, bar, message, cancel] as [Widget] { box.append(widget) }
  }

  func update(fraction: Double?, message text: String?) {
    if let text { message.text = text }
    message.isVisible = !message.text.isEmpty
    bar.setFraction(fraction)
    if fraction == nil, !pulsing {
      pulsing = true
      pulse()
    } else if fraction != nil {
      pulsing = false
    }
  }

  func stop() {
    pulsing = false
  }

  private func pulse() {
    guard pulsing else { return }
    bar.setFraction(nil)
    DispatchQueue.main.asyncAfter(deadline: .now() + 0.12) { [weak self] in
      MainActor.assumeIsolated { self?.pulse() }
    }
  }
}

extension PickerWindow {
  /// How long a success stays on screen before the window closes by itself, in seconds.
  static let successDisplayTime = 5.0

  /// Shares with the service `id`: its compose sheet when it declares one (Cancel there comes
  /// back to the list), the progress page, then the outcome.
  func choose(_ id: String, target: DirectTarget? = nil) {
    // A service named on the command line may refuse the items: it is chosen all the same, and
    // its refusal says what it takes and what it was given.
    guard !editing, run == nil, let loaded,
      let service = loaded.accepting.first(where: { $0.id == id }) ?? loaded.registry.service(withID: id)
    else { return }
    closeGeneration += 1
    // The share outlives the window: the application waits for it.
    application.hold()
    // The program's own sheet, and the declared compose sheet, stay above the picker.
    var environment = self.environment
    let handle = window.portalHandle
    if let handle { environment["XDG_SHARE_PARENT_WINDOW"] = handle }

    let application = self.application
    let report = self.report
    let text = self.text
    // What goes on once the window is gone; held by the share's handlers, not by the window.
    let background = BackgroundShare()
    self.background = background
    let end: @Sendable @MainActor (ShareEnd) -> Void = { [weak self] end in
      if case .composeCancelled = end {
        // Nothing was shared: back to the list, as if no service had been chosen.
        self?.composeCancelled()
        application.release()
        return
      }
      report(SheetResult(end, serviceID: id))
      if let self, self.isOpen, !background.isInBackground {
        self.run = nil
        self.showEnd(end, service: service)
        application.release()
      } else {
        // Nobody is looking at the window any more: the desktop tells how it went.
        let (summary, body, critical) = Self.notification(for: end, service: service, text: text)
        background.finish(summary: summary, body: body, critical: critical) { application.release() }
      }
    }
    let share: Share
    do {
      share = try ServiceSource.share(
        service, loaded: loaded, environment: environment,
        prompt: composePrompt(for: service, environment: environment, parent: handle ?? ""), caller: caller,
        target: target)
    } catch {
      end(.refused(error))
      return
    }
    if !share.asksCompose { showProgress(service) }
    run = ShareRun.start(
      share,
      composed: { [weak self] in
        guard let self, self.isOpen else { return }
        self.showProgress(service)
      },
      progress: { [weak self] fraction, message in
        background.progress(fraction, message)
        guard let self, self.isOpen else { return }
        self.progress.update(fraction: fraction, message: message)
      },
      posted: { [weak self] in
        // The plugin's own sheet is done: the work goes on in the background, the picker goes.
        background.isPosted = true
        self?.window.close()
      },
      end: end)
    background.run = run
  }

  /// The progress page, while the share with `service` runs.
  private func showProgress(_ service: ShareService) {
    editButton.isVisible = false
    progress.title.text = text("Sharing with {service}…", ["service": service.name])
    progress.message.text = ""
    progress.cancel.label = text("Cancel")
    progress.cancel.isSensitive = true
    progress.update(fraction: nil, message: nil)
    stack.show(Page.progress)
    // The focus leaves the search field before it goes insensitive.
    progress.cancel.grabFocus()
    search.isSensitive = false
  }

  /// The compose sheet of `service`, when it declares one: shown by this program (`--compose`),
  /// above the picker's window, its values remembered as `xdg-share share` remembers them.
  private func composePrompt(
    for service: ShareService, environment: [String: String], parent: String
  ) -> any ComposePrompt {
    guard service.composeSheet != nil else { return DefaultsComposePrompt() }
    let program = Self.ownProgram ?? SheetProgram.locate(environment: environment) ?? SheetProgram.name
    return SheetComposePrompt(program: program, environment: environment, parent: parent)
  }

  /// This program, for its compose sheet.
  private static var ownProgram: String? {
    HelperProgram.running()?.string
  }

  /// The compose sheet was cancelled: the list again, the window as it was before the choice.
  private func composeCancelled() {
    run = nil
    background = nil
    guard isOpen else { return }
    // After a Retry the outcome page was showing.
    search.isSensitive = true
    editButton.isVisible = !rows.isEmpty
    stack.show(Page.choose)
    search.grabFocus()
  }

  /// The window is being closed: before a choice the picker is cancelled; a share already
  /// running goes on in the background, its progress and end in a notification. With the
  /// compose sheet open, nothing was posted yet: it closes, and nothing is shared.
  func windowClosing() {
    closeGeneration += 1
    if run?.isComposing == true {
      cancelShare()
      return
    }
    progressView?.stop()
    guard run != nil, let background, !background.isCancelled, let name = progressView?.title.text else {
      return
    }
    background.start(summary: name, cancelLabel: text("Cancel"))
  }

  func cancelShare() {
    background?.isCancelled = true
    run?.cancel()
    progressView?.cancel.isSensitive = false
  }

  /// The sheet is told to stop (SIGTERM: `Cancel` on D-Bus, Ctrl-C in the terminal that started
  /// it, the session ending): a share running is cancelled, so that its program ends with it and
  /// the request is recorded as cancelled, and the window closes.
  func terminate() {
    cancelShare()
    window.close()
  }

  /// Shows how the share ended.
  func showEnd(_ end: ShareEnd, service: ShareService) {
    progressView?.stop()
    let told = Self.telling(end, service: service, text: text)
    var buttons: [Button] = []
    var footnote = ""
    if case .finished(.completed(let items), _) = end {
      let returned = items.flatMap(\.attachments)
      if let copyable = returned.lazy.compactMap(Self.copyableText).first {
        buttons.append(copyButton(copyable))
      }
      let files = returned.compactMap { $0.isFile ? $0.url : nil }
      if !files.isEmpty { buttons += [saveButton(files), showInFolderButton(files)] }
      footnote = text("This window closes by itself.")
      closeLater(after: Self.successDisplayTime)
    }
    if told.retries { buttons.append(retryButton(service)) }
    buttons.append(closeButton())
    status.footnote.text = footnote
    status.show(icon: told.icon, style: told.style, title: told.title, detail: told.detail, buttons: buttons)
    stack.show(Page.status)
    buttons.first?.grabFocus()
  }

  /// How the window's status page and the notification of a window closed tell an end.
  struct EndTelling {
    /// The icon's names, the first the theme has.
    var icon: [String]
    var style: String
    var title: String
    /// What it returned, or why it did not complete.
    var detail: String
    /// Whether Retry is offered.
    var retries: Bool
    /// Whether a notification of it is urgent: it neither completed nor was cancelled.
    var critical: Bool
  }

  /// How `end` of a share with `service` is told: its title in the user's language; its detail
  /// in ShareEnd's words (``ShareEnd/message(naming:)``), save what the service returned, its own
  /// reason to cancel (none when the user cancelled) and the time limit it ran past, in the
  /// user's language.
  static func telling(_ end: ShareEnd, service: ShareService, text: SheetText) -> EndTelling {
    let name = ["service": service.name]
    let critical = ![.completed, .cancelled].contains(end.status)
    func told(_ icon: String, _ style: String, _ title: String, _ detail: String?, retries: Bool = false)
      -> EndTelling
    {
      EndTelling(
        icon: [icon], style: style, title: title, detail: detail ?? end.message() ?? "", retries: retries,
        critical: critical)
    }
    switch end {
    case .finished(.completed(let items), _):
      var completed = told(
        "emblem-ok-symbolic", "success", doneTitle(service: service, text: text),
        items.flatMap(\.attachments).map(describe).joined(separator: "\n"))
      completed.icon.append("object-select-symbolic")
      return completed
    case .finished(.cancelled(_, let message), _):
      return told("dialog-information-symbolic", "dim-label", text("{service} cancelled", name), message)
    case .finished(.failed, _):
      return told("dialog-error-symbolic", "error", text("{service} failed", name), nil, retries: true)
    case .finished(.timedOut(let seconds), _):
      let shown = Int(seconds.rounded())
      let stopped = text(
        shown == 1 ? "Stopped after {seconds} second" : "Stopped after {seconds} seconds",
        ["seconds": "\(shown)"])
      return told(
        "dialog-warning-symbolic", "warning", text("{service} took too long", name), stopped, retries: true)
    case .refused, .noServiceAccepts:
      return told("dialog-error-symbolic", "error", text("Cannot share with {service}", name), nil)
    case .composeFailed:
      return told(
        "dialog-error-symbolic", "error", text("Cannot share with {service}", name), nil, retries: true)
    case .composeCancelled, .notChosen:
      return told("dialog-information-symbolic", "dim-label", text("{service} cancelled", name), "")
    }
  }

  /// Closes the window after `seconds`, unless something happens meanwhile (a button pressed
  /// starts the countdown again; the window closed or another share started stops it).
  func closeLater(after seconds: Double) {
    closeGeneration += 1
    let generation = closeGeneration
    DispatchQueue.main.asyncAfter(deadline: .now() + seconds) { [weak self] in
      MainActor.assumeIsolated {
        guard let self, self.closeGeneration == generation, self.isOpen else { return }
        self.window.close()
      }
    }
  }

  private func copyButton(_ value: String) -> Button {
    let button = Button(label: text("Copy"))
    button.addStyleClass("pill")
    button.addStyleClass("suggested-action")
    button.onClick { [weak self, weak button] in
      guard let self, let button else { return }
      Clipboard.copy(value, from: button)
      button.label = self.text("Copied")
      self.closeLater(after: Self.successDisplayTime)
    }
    return button
  }

  private func showInFolderButton(_ fileURLs: [String]) -> Button {
    let button = Button(label: text("Show in folder"))
    button.addStyleClass("pill")
    button.onClick { [weak self] in
      guard let self else { return }
      self.closeLater(after: Self.successDisplayTime)
      let detail = self.status.detail
      let failure = self.text("No file manager could show the file")
      DispatchQueue.global().async {
        let shown = DesktopCalls.showItems(fileURLs)
        Task { @MainActor in
          guard !shown else { return }
          detail.text = failure
          detail.isVisible = true
        }
      }
    }
    return button
  }

  private func retryButton(_ service: ShareService) -> Button {
    let button = Button(label: text("Retry"))
    button.addStyleClass("pill")
    button.addStyleClass("suggested-action")
    button.onClick { [weak self] in self?.choose(service.id) }
    return button
  }

  /// The title of a share that completed: an action is done, a share service has shared.
  static func doneTitle(service: ShareService, text: SheetText) -> String {
    let name = ["service": service.name]
    return service.kind == .action ? text("{service} finished", name) : text("Shared with {service}", name)
  }

  /// A returned attachment in a line: a file's path, a link, a text.
  static func describe(_ attachment: AttachmentPayload) -> String {
    if let url = attachment.url {
      if attachment.isFile, let path = FilePath(fileURL: url) { return path.displayString }
      return url
    }
    return attachment.text ?? attachment.name ?? ""
  }

  /// What "Copy" copies: a returned link, else a returned text.
  static func copyableText(_ attachment: AttachmentPayload) -> String? {
    if let url = attachment.url, !attachment.isFile { return url }
    return attachment.text
  }

  /// The notification telling how a share ended whose window was closed.
  static func notification(for end: ShareEnd, service: ShareService, text: SheetText) -> (
    String, String, Bool
  ) {
    let told = telling(end, service: service, text: text)
    return (told.title, told.detail, told.critical)
  }
}
