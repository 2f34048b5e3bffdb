/// What a share service accepts: `NSExtensionActivationRule`, parsed once when its bundle loads.
public enum ActivationRule: Sendable, Equatable {
  /// The dictionary form, with Apple's `NSExtensionActivationSupports…` keys.
  case dictionary(DictionaryRule)
  /// The predicate form: an `NSPredicate` format string over `extensionItems`.
  case predicate(Predicate)

  /// Whether the service accepts `selection`.
  public func accepts(_ selection: ActivationSelection) -> Bool {
    switch self {
    case .dictionary(let rule): rule.accepts(selection)
    case .predicate(let predicate): predicate.evaluate(selection)
    }
  }

  /// An attachment as a person knows it: ``ShareItem/shortName``, a folder's with a slash.
  static func name(of attachment: Attachment) -> String {
    attachment.item.shortName + (attachment.file?.isDirectory == true ? "/" : "")
  }
}
