import FoundationEssentials
import ShareKitUI

/// Microblog: the stock compose sheet with a 100-character limit and a "Visibility" item. Post
/// writes the post as JSON to `$XDG_DATA_HOME/microblog/` (standing in for the upload a real
/// service makes) and completes the request.
@main
final class MicroblogShare: ComposeServiceViewController {
  static let limit = 100
  static let visibilities = ["Public", "Followers", "Only me"]

  private let visibility = ConfigurationItem(title: "Visibility", value: "Public")

  override func viewDidLoad() {
    title = "Microblog"
    placeholder = "What’s happening?"
    visibility.tapHandler = { [weak self] in self?.chooseVisibility() }
  }

  override func isContentValid() -> Bool {
    let remaining = Self.limit - contentText.count
    charactersRemaining = remaining
    return remaining >= 0
  }

  override func configurationItems() -> [ConfigurationItem] {
    [visibility]
  }

  private func chooseVisibility() {
    let page = ChoiceListViewController(
      title: "Visibility", choices: Self.visibilities, selected: visibility.value
    ) { [weak self] choice in
      self?.visibility.value = choice
    }
    pushConfigurationViewController(page)
  }

  override func didSelectPost() {
    guard let context = extensionContext else { return }
    let attachments = context.inputItems.flatMap(\.attachments).compactMap {
      $0.name ?? $0.webURL?.absoluteString
    }
    let post = Post(text: contentText, visibility: visibility.value ?? "Public", attachments: attachments)
    do {
      try post.save(requestID: context.requestID)
      context.completeRequest(returningItems: [])
    } catch {
      context.cancelRequest(withError: error)
    }
  }
}

/// What Microblog would send to its server.
struct Post: Codable {
  var text: String
  var visibility: String
  var attachments: [String]

  /// Writes `post-<request>.json` in `$XDG_DATA_HOME/microblog/` (`~/.local/share` without it);
  /// on standard error when there is no home at all.
  func save(requestID: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(self)
    let environment = ProcessInfo.processInfo.environment
    let dataHome =
      environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? environment["HOME"].map { "\($0)/.local/share" }
    guard let dataHome else {
      print(String(decoding: data, as: UTF8.self))
      return
    }
    let folder = URL(fileURLWithPath: "\(dataHome)/microblog", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let safeID = String(requestID.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
    try data.write(to: folder.appendingPathComponent("post-\(safeID).json"), options: .atomic)
  }
}
