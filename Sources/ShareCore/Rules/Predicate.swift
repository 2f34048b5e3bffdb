/// An `NSExtensionActivationRule` predicate string, parsed and type-checked.
///
/// Built by ``PredicateParser/parse(_:)`` and run by ``evaluate(_:)``. The tree is already
/// resolved: variables are SUBQUERY nesting depths rather than names (each SUBQUERY keeps the
/// name its author gave its variable, to print the rule back as written), key paths are typed
/// collections and values, and type identifier constants are lowercase. Whatever reaches this
/// type is known to make sense, so evaluation never meets an error.
///
/// The object model is Apple's: the root has `extensionItems`; an extension item has
/// `attachments`, `attributedContentText`, `attributedTitle` and `userInfo`; an attachment has
/// `registeredTypeIdentifiers`.
public indirect enum Predicate: Sendable, Equatable {
  /// `TRUEPREDICATE` or `FALSEPREDICATE`.
  case constant(Bool)
  /// `NOT p`, `!p`.
  case not(Predicate)
  /// `p AND q AND …`, in source order; evaluation stops at the first false operand.
  case and([Predicate])
  /// `p OR q OR …`, in source order; evaluation stops at the first true operand.
  case or([Predicate])
  /// A comparison of two single values.
  case comparison(Operand, Operator, Operand)
  /// `ANY`, `ALL` or `NONE` of a collection of type identifiers compared with a single value.
  /// A collection on the left of `UTI-CONFORMS-TO` or `UTI-EQUALS` without a quantifier is
  /// parsed as `ANY`, as real rules sometimes leave it out.
  case quantified(Quantifier, CollectionExpression, Operator, Operand)

  /// How many elements of a collection must pass a comparison.
  public enum Quantifier: Sendable, Hashable {
    /// `ANY` or `SOME`: at least one; false on an empty collection.
    case any
    /// `ALL`: every one; true on an empty collection.
    case all
    /// `NONE`: not one; true on an empty collection.
    case none
  }

  /// A comparison operator.
  public enum Operator: Sendable, Hashable {
    /// `==`, `=`
    case equal
    /// `!=`, `<>`
    case notEqual
    /// `<`
    case less
    /// `<=`, `=<`
    case lessOrEqual
    /// `>`
    case greater
    /// `>=`, `=>`
    case greaterOrEqual
    /// `BEGINSWITH`
    case beginsWith
    /// `ENDSWITH`
    case endsWith
    /// `CONTAINS`: the right string occurs in the left one.
    case contains
    /// `LIKE`: the right string is a pattern where `*` matches any run of characters and `?`
    /// one character. There is no escape for a literal `*` or `?`.
    case like
    /// `UTI-CONFORMS-TO`: the left type identifier conforms to the right one (a UTI, a MIME
    /// type or a `type/*` wildcard).
    case conformsTo
    /// `UTI-EQUALS`: the left type identifier is the right one.
    case typeEquals
  }

  /// A single value.
  public enum Operand: Sendable, Equatable {
    /// A literal. Strings compared with type identifiers are lowercase; MIME aliases are not
    /// resolved, as the parser knows no MIME database.
    case constant(Constant)
    /// The type identifier bound to a SUBQUERY variable over `registeredTypeIdentifiers`.
    /// `variable` is the SUBQUERY's nesting depth, 0 for the outermost.
    case typeIdentifier(variable: Int)
    /// A key of the extension item bound to the SUBQUERY variable at depth `variable`.
    case itemValue(ItemValue, variable: Int)
    /// `collection.@count`: how many elements the collection has.
    case count(CollectionExpression)
  }

  /// A literal value.
  public enum Constant: Sendable, Equatable {
    /// `NIL`, `NULL`, and any key of `userInfo`, which is always empty here.
    case null
    /// `TRUE`/`YES`, `FALSE`/`NO`; compares as the number 1 or 0.
    case bool(Bool)
    /// An integer or decimal number.
    case number(Double)
    /// A quoted string.
    case string(String)
  }

  /// The single-valued keys of an extension item.
  public enum ItemValue: Sendable, Equatable {
    /// The shared text, or nil when the selection holds none.
    case attributedContentText
    /// Always nil: a desktop selection has no title.
    case attributedTitle
    /// Always an empty dictionary: equal to nothing but itself, not nil.
    case userInfo
  }

  /// A collection: extension items, attachments or type identifiers.
  public indirect enum CollectionExpression: Sendable, Equatable {
    /// The root's `extensionItems`.
    case extensionItems
    /// The `attachments` of one extension item or of each item of a collection, flattened.
    case attachments(of: Source)
    /// The `registeredTypeIdentifiers` of one attachment or of each attachment of a collection,
    /// flattened.
    case registeredTypeIdentifiers(of: Source)
    /// `SUBQUERY(collection, $variable, predicate)`: the elements for which `predicate` holds
    /// while bound to the variable at depth `variable`, which the source names `$name`.
    case subquery(CollectionExpression, variable: Int, name: String, Predicate)
  }

  /// Where the key of a collection is read.
  public enum Source: Sendable, Equatable {
    /// The element bound to the SUBQUERY variable at this depth.
    case variable(Int)
    /// Each element of a collection (`extensionItems.attachments`).
    case each(CollectionExpression)
  }
}
