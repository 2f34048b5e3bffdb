import ShareCore
import ShareHost

/// Wording of `configure` and of the compose step before a share.
extension Wording {
  static func noConfigurationItems(_ service: ShareService) -> String {
    "\(service.name) (\(service.id)) has no configuration items (it declares no XDGShareComposeSheet "
      + "with ConfigurationItems)"
  }

  static func unknownItem(_ identifier: String, of service: ShareService) -> String {
    let items = service.composeSheet?.configurationItems.map(\.identifier) ?? []
    let suggestion = Suggestion.nearest(to: identifier, in: items)
    return "\(service.name) has no configuration item '\(identifier)'"
      + (suggestion.map { "; did you mean '\($0)'?" } ?? "; its items: \(items.joined(separator: ", "))")
  }

  static func notAChoice(_ value: String, of item: ComposeSheetDeclaration.Item) -> String {
    ComposeFailure.notAChoice(item: item.title, value: value, choices: item.choices ?? []).message
  }

  /// What a non-interactive `configure` still lacks: each item's title and the `--set` to give it.
  static func stillMissing(_ items: [ComposeSheetDeclaration.Item]) -> String {
    "still without a value: "
      + items.map { "\($0.title) (--set \($0.identifier)=VALUE)" }.joined(separator: ", ")
  }

  /// The heading of an item as `configure` asks it.
  static func itemHeading(_ item: ComposeSheetDeclaration.Item) -> String {
    item.title + (item.isSecure ? " (kept in the Secret Service, typed without echo)" : "")
  }

  static func choiceLine(_ number: Int, _ choice: String) -> String { "  \(number). \(choice)\n" }

  /// `Server [https://dav.example]: `; a secure item shows only whether a value is kept.
  static func itemPrompt(_ item: ComposeSheetDeclaration.Item, current: String?) -> String {
    let shown: String
    switch (item.isSecure, current) {
    case (true, .some): shown = " [kept; Enter keeps it]"
    case (_, nil): shown = ""
    case (false, let value?): shown = " [\(value)]"
    }
    return item.title + shown + ": "
  }

  static func choiceHint(_ answer: String, count: Int) -> String {
    "'\(answer)' is none of them: type a number from 1 to \(count), or the choice itself\n"
  }

  static func valueRequired(_ item: ComposeSheetDeclaration.Item) -> String {
    "'\(item.title)' has no value yet: type one\n"
  }

  static func configured(_ service: ShareService, file: String) -> String {
    "Saved the configuration of \(service.name) in \(file)"
  }

  static let composeCancelled = "cancelled"
}
