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

  /// Why the rule refuses `attachments`, or `nil` when it accepts them; for a predicate, the
  /// attachments it refuses, when that is the reason (a folder among files, a PDF among images).
  public func rejection(of attachments: [Attachment], types: TypeSystem) -> RuleRejection? {
    guard let rejection = rejection(of: ActivationSelection(attachments: attachments, types: types)) else {
      return nil
    }
    guard rejection == .predicateFalse, !attachments.isEmpty else { return rejection }
    // A predicate says only yes or no. Asked about each attachment alone, it tells which ones it
    // takes: when it takes some and not others, the others are the reason. With one attachment
    // that says nothing (a rule may want two), except for a folder, which is then the reason.
    if attachments.count == 1 {
      return attachments[0].file?.isDirectory == true
        ? .refusesItems([Self.name(of: attachments[0])]) : rejection
    }
    let refused = attachments.filter { !accepts(ActivationSelection(attachments: [$0], types: types)) }
    guard !refused.isEmpty, refused.count < attachments.count else { return rejection }
    return .refusesItems(refused.map(Self.name))
  }

  /// An attachment as a person knows it: ``ShareItem/shortName``, a folder's with a slash.
  static func name(of attachment: Attachment) -> String {
    attachment.item.shortName + (attachment.file?.isDirectory == true ? "/" : "")
  }

  /// Why the rule refuses `selection`, or `nil` when it accepts it.
  public func rejection(of selection: ActivationSelection) -> RuleRejection? {
    switch self {
    case .dictionary(let rule): rule.rejection(of: selection)
    case .predicate(let predicate): predicate.evaluate(selection) ? nil : .predicateFalse
    }
  }
}
