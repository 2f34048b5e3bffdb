/// Why a predicate string of `NSExtensionActivationRule` was rejected: where, what the parser
/// expected there, and what it found.
///
/// Unknown keys, unbound variables and values of the wrong type are syntax errors too, so a rule
/// that cannot mean anything is reported when its bundle loads instead of never matching.
/// The error is data; ``message`` words it.
public struct PredicateSyntaxError: Error, Hashable, Sendable {
  /// What would have been valid at ``position``.
  public enum Expected: Hashable, Sendable {
    /// A predicate: a comparison, `NOT`, `(`, `TRUEPREDICATE` or `FALSEPREDICATE`.
    case predicate
    /// A value to compare: a constant, a key path or a SUBQUERY.
    case expression
    /// `==`, `<`, `BEGINSWITH`, `UTI-CONFORMS-TO` and the like.
    case comparisonOperator
    case openingParenthesis
    case closingParenthesis
    case comma
    /// The `$name` a SUBQUERY binds.
    case variable
    /// One of `allowed`, after "." or after a variable naming an extension item or attachment,
    /// which cannot be compared itself.
    case key(allowed: [String])
    /// One of `allowed` instead of the unknown key that was found; `allowed` is empty when the
    /// value has no keys at all.
    case knownKey(allowed: [String])
    /// One of the variables bound where the unbound one was found.
    case boundVariable(bound: [String])
    /// A collection: before `@count`, after `ANY`/`ALL`/`NONE`, as SUBQUERY's first argument.
    case collection
    /// Type identifiers, as `UTI-CONFORMS-TO`, `UTI-EQUALS` and quantifiers need on their left.
    case typeIdentifiers
    /// A string constant naming a type, as `UTI-CONFORMS-TO` and `UTI-EQUALS` need on their right.
    case quotedTypeIdentifier
    /// `ANY`, `ALL` or `NONE` before a collection compared with a non-type operator.
    case quantifier
    /// A single value, where a collection was found.
    case singleValue
    case number
    case string
    /// `NIL`, the only thing `userInfo` compares with.
    case null
    /// The quote that ends the string opening at ``PredicateSyntaxError/position``.
    case closingQuote(Character)
    /// `AND`, `OR` or the end of the predicate.
    case endOfInput
    /// No more than `limit` parentheses, `NOT`s and SUBQUERYs inside one another.
    case shallowerNesting(limit: Int)
  }

  /// What stood at ``position`` instead.
  public enum Found: Hashable, Sendable {
    /// A token or, for type errors, a whole operand, as written in the source.
    case token(String)
    case endOfInput
  }

  /// The 1-based character column in the predicate string, counting from its first character
  /// with line breaks counted as one character.
  public var position: Int
  public var expected: Expected
  public var found: Found

  public init(position: Int, expected: Expected, found: Found) {
    self.position = position
    self.expected = expected
    self.found = found
  }
}

extension PredicateSyntaxError: CustomStringConvertible {
  /// The error in words, such as `at column 37: expected ")", found end of predicate`.
  public var message: String {
    "at column \(position): \(problem)"
  }

  /// The error in words without its column, for where the place is said otherwise (a line and
  /// column in Info.plist): `expected ")", found end of predicate`.
  public var problem: String {
    let found: String
    switch self.found {
    case .endOfInput: found = "end of predicate"
    case .token(let text): found = Self.quoted(text)
    }
    if expected == .comparisonOperator, let instead = Self.insteadOfApples(self.found) {
      return "\(found) is an operator of Apple's NSPredicate that xdg-share does not have; use \(instead)"
    }
    let problem: String
    switch expected {
    case .knownKey(let allowed):
      let options =
        allowed.isEmpty
        ? "this value has no keys"
        : allowed.count == 1 ? "expected \(allowed[0])" : "expected one of " + allowed.joined(separator: ", ")
      problem = "unknown key \(found); \(options)"
    case .boundVariable(let bound):
      let options =
        bound.isEmpty
        ? "no variable is bound here (SUBQUERY binds one)"
        : "bound here: " + bound.joined(separator: ", ")
      problem = "unknown variable \(found); \(options)"
    case .closingQuote(let quote):
      problem = "string never closed; expected a closing \(quote), found \(found)"
    default:
      problem = "expected \(Self.phrase(for: expected)), found \(found)"
    }
    return problem
  }

  /// What to write instead of an operator of `NSPredicate` that xdg-share does not have
  /// (docs/activation-rules.md, "What is refused"); nil for anything else.
  private static func insteadOfApples(_ found: Found) -> String? {
    guard case .token(let word) = found else { return nil }
    return switch word.uppercased() {
    case "IN": "== with OR"
    case "BETWEEN": ">= AND <="
    case "MATCHES": "LIKE, BEGINSWITH, ENDSWITH or CONTAINS"
    default: nil
    }
  }

  /// The UTF-8 offset in `source`, the predicate this error is of, of the character at
  /// ``position``: where to look for it in the text the predicate was read from.
  public func offset(in source: String) -> Int {
    var index = source.startIndex
    for _ in 1..<max(position, 1) where index < source.endIndex {
      source.formIndex(after: &index)
    }
    return source.utf8.distance(from: source.startIndex, to: index)
  }

  public var description: String { message }

  private static func phrase(for expected: Expected) -> String {
    switch expected {
    case .predicate: "a predicate"
    case .expression: "a value, key path or SUBQUERY"
    case .comparisonOperator:
      "a comparison operator (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, "
        + "UTI-CONFORMS-TO, UTI-EQUALS)"
    case .openingParenthesis: "\"(\""
    case .closingParenthesis: "\")\""
    case .comma: "\",\""
    case .variable: "a variable such as $item"
    case .key(let allowed):
      allowed.isEmpty ? "a key" : "a key (one of " + allowed.joined(separator: ", ") + ")"
    case .knownKey(let allowed): "one of " + allowed.joined(separator: ", ")
    case .boundVariable: "a bound variable"
    case .collection: "a collection (extensionItems, attachments, registeredTypeIdentifiers or a SUBQUERY)"
    case .typeIdentifiers: "type identifiers (registeredTypeIdentifiers or a SUBQUERY variable over them)"
    case .quotedTypeIdentifier: "a quoted type identifier such as \"public.image\" or \"image/*\""
    case .quantifier: "ANY, ALL or NONE before a collection"
    case .singleValue: "a single value, not a collection"
    case .number: "a number"
    case .string: "a string"
    case .null: "nil"
    case .closingQuote(let quote): "a closing \(quote)"
    case .endOfInput: "AND, OR or the end of the predicate"
    case .shallowerNesting(let limit): "at most \(limit) parentheses, NOTs and SUBQUERYs inside one another"
    }
  }

  /// Source text as one short line: whitespace runs (the line breaks of Info.plist strings)
  /// become one space, control characters cannot reach a terminal, long operands are cut.
  private static func quoted(_ text: String) -> String {
    var line = ""
    var pendingSpace = false
    for character in text {
      if character.isWhitespace {
        pendingSpace = !line.isEmpty
        continue
      }
      if pendingSpace { line.append(" ") }
      pendingSpace = false
      if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
        let escaped = Diagnostics.escapedControl(scalar)
      {
        line += escaped
      } else {
        line.append(character)
      }
    }
    if line.count > 60 { line = line.prefix(57) + "..." }
    if let first = line.first, first == "\"" || first == "'" { return line }
    return "\"" + line + "\""
  }
}
