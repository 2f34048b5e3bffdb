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

  /// Why the rule refuses `selection`, or `nil` when it accepts it.
  public func rejection(of selection: ActivationSelection) -> RuleRejection? {
    switch self {
    case .dictionary(let rule): rule.rejection(of: selection)
    case .predicate(let predicate): predicate.evaluate(selection) ? nil : .predicateFalse
    }
  }
}
