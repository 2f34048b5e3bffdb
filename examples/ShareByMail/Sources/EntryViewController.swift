import ShareKitUI

/// ShareByMail, ported from its iOS 8 extension (martinnormark/ShareByMail): a sheet of its own,
/// "Share this", with Cancel and Save. Save composes a mail with the shared files attached in the
/// desktop's mail program, asking the host through its broker (the sandbox keeps the mail program
/// out of reach), and completes the request; Cancel cancels it.
///
/// On iOS, `NSExtensionPrincipalClass` named `EntryViewController`, a navigation controller that
/// wrapped a `ShareViewController` and slid it up in `viewWillAppear` (0.25 s); the controller's
/// `hideExtensionWithCompletionHandler` slid it down (0.20 s) before ending the request. Here
/// `@main` names the class, and `SheetViewController` is the navigation controller and both slides.
@main
final class EntryViewController: SheetViewController {
  private let fields = FieldList()
  private let message = TextView()
  private var to: Entry?

  // iOS: ShareViewController.viewDidLoad, where the title and the two bar buttons were set.
  override func viewDidLoad() {
    title = "Share this"
    cancelButtonTitle = "Cancel"
    primaryButtonTitle = "Save"
  }

  // iOS: the view the navigation controller showed (white, empty in the seed); here the mail's
  // fields, filled from what is shared.
  override func loadContent() -> Widget {
    let draft = MailDraft(items: extensionContext?.inputItems ?? [])
    let to = fields.addField("To", text: draft.to, placeholder: "name@example.org")
    fields.addField("Subject", text: draft.subject)
    to.onChanged { [weak self] in self?.validate() }
    self.to = to
    initialFocus = to

    message.text = draft.body
    message.setAccessibleLabel("Message")
    message.setTextMargins(8)
    message.addStyleClass("card")
    let scrolled = ScrolledWindow(child: message)
    scrolled.setContentHeight(minimum: 120, maximum: 240)

    let content = Box(.vertical, spacing: 12)
    content.append(fields.view)
    content.append(scrolled)
    if !draft.attachments.isEmpty {
      let names = draft.attachments.map {
        String(decoding: $0.split(separator: UInt8(ascii: "/")).last ?? [], as: UTF8.self)
      }
      let attached = Label("Attached: " + names.joined(separator: ", "))
      attached.horizontalPosition = 0
      attached.addStyleClass("dim-label")
      attached.wrap()
      content.append(attached)
    }
    return content
  }

  /// Save is offered while the addresses could be handed to the mail program (or there are none:
  /// it asks).
  private func validate() {
    isPrimaryEnabled = MailDraft.addresses(in: to?.text ?? "") != nil
  }

  // iOS: saveButtonTapped, after hideExtensionWithCompletionHandler. The sheet is already sliding
  // out; the request ends once the host has handed the draft to the mail program, and is
  // cancelled with the host's code and sentence when it could not (no mail program set up).
  override func didSelectPrimary() {
    guard let context = extensionContext else { return }
    var draft = MailDraft(items: context.inputItems)
    draft.to = fields["To"] ?? ""
    draft.subject = fields["Subject"] ?? ""
    draft.body = message.text
    do {
      try MailComposer.compose(draft) { result in
        switch result {
        case .success: context.completeRequest(returningItems: [])
        case .failure(let error): context.cancelRequest(withError: error)
        }
      }
    } catch {
      context.cancelRequest(withError: error)
    }
  }

  // iOS: cancelButtonTapped, after hideExtensionWithCompletionHandler:
  // `extensionContext!.cancelRequestWithError(NSError())`. SheetViewController's default does the
  // same with the user's cancellation (`xdg-share share` exits with 3); written out to show the
  // mapping.
  override func didSelectCancel() {
    extensionContext?.cancelRequest(withError: ShareError.userCancelled())
  }
}
