import FoundationEssentials
import ShareKitUI

/// Hoi's share extension, ported from iOS 8 (zichunping/share-extension-ios-tutorial): a sheet
/// listing the user's friends, read from the App Group the Hoi app shares with it; the friends
/// ticked get a Hoi with the shared picture or link, a fire-and-forget send.
///
/// On iOS, the storyboard (`NSExtensionMainStoryboard`) made a `ShareViewController` with a table
/// view of friends, slid it up in `viewWillAppear` (0.25 s) and down in `dismiss` (0.20 s). Here
/// `@main` names the class, `SheetViewController` slides it, and a `CheckList` is the table view.
@main
final class ShareViewController: SheetViewController {
  /// The App Group the app and the extension share ("group.ch.iphonso.hoi" on iOS too).
  static let groupName = "group.ch.iphonso.hoi"
  /// The shared defaults' key for the friends list, as the app writes it.
  static let friendsKey = "HoiFriends"

  private var friends: [String] = []
  private var problem: String?
  private var list: CheckList?

  override func viewDidLoad() {
    title = "Send a Hoi"
    primaryButtonTitle = "Hoi"
    // iOS: [[NSUserDefaults alloc] initWithSuiteName:@"group.ch.iphonso.hoi"], then
    // [userDefaults objectForKey:@"HoiFriends"] ?: an empty array.
    do {
      let defaults = try ShareGroup(Self.groupName).defaults
      if case .array(let values)? = defaults.value(forKey: Self.friendsKey) {
        friends = values.compactMap { if case .string(let name) = $0 { name } else { nil } }
      }
    } catch {
      problem = "\(error)"
    }
    // Nobody is ticked yet: the primary button waits for a friend.
    isPrimaryEnabled = false
  }

  override func loadContent() -> Widget {
    guard !friends.isEmpty else { return emptyState() }
    let list = CheckList(friends)
    list.onChange = { [weak self] list in self?.isPrimaryEnabled = !list.selection.isEmpty }
    self.list = list
    let content = Box(.vertical, spacing: 6)
    content.append(Label.heading("Friends"))
    content.append(list.view)
    return content
  }

  /// No friends (or no App Group): say why and what to do; the primary button stays insensitive.
  private func emptyState() -> Widget {
    let content = Box(.vertical, spacing: 6)
    content.setMargins(top: 24, bottom: 24)
    let heading = Label(problem == nil ? "No friends yet" : "Cannot read your friends")
    heading.addStyleClass("title-4")
    let detail = Label(
      problem ?? "Add friends in Hoi first, e.g. hoi-friends add Alice Bob, then share again.")
    detail.addStyleClass("dim-label")
    detail.wrap()
    content.append(heading)
    content.append(detail)
    return content
  }

  // iOS: `dismiss`'s completion, after the slide down:
  // [self.extensionContext completeRequestReturningItems:nil completionHandler:nil]. Hoi's push
  // is a record in the App Group's folder here, `sent.json`, which the app reads.
  override func didSelectPrimary() {
    guard let context = extensionContext else { return }
    let record = Hoi(
      request: context.requestID, friends: list?.selection ?? [],
      items: context.inputItems.flatMap(\.attachments).map(Hoi.describe))
    do {
      try record.append(to: ShareGroup(Self.groupName))
      context.completeRequest(returningItems: [])
    } catch {
      context.cancelRequest(withError: error)
    }
  }
}

/// One Hoi sent: who got which picture or link. `sent.json` in the App Group's folder is the
/// list of them, oldest first.
struct Hoi: Codable, Equatable {
  var request: String
  var friends: [String]
  /// A file's path, a link, or a text.
  var items: [String]

  static func describe(_ attachment: ItemProvider) -> String {
    if let bytes = attachment.filePathBytes {
      return String(validating: bytes, as: UTF8.self) ?? attachment.name ?? "a file"
    }
    return attachment.webURL?.absoluteString ?? attachment.text ?? ""
  }

  /// Adds the record to `sent.json`, replacing the file whole. The read-modify-write runs under
  /// the shared defaults' lock, so two Hois sent at once both land.
  func append(to group: ShareGroup) throws {
    let file = group.containerURL.appendingPathComponent("sent.json")
    try group.defaults.update { _ in
      var sent: [Hoi] = []
      if let data = try? Data(contentsOf: file) {
        sent = (try? JSONDecoder().decode([Hoi].self, from: data)) ?? []
      }
      sent.append(self)
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      try encoder.encode(sent).write(to: file, options: .atomic)
    }
  }
}
