// Longer than 400 lines on purpose: the grammar reads top to bottom as one recursive-descent
// parser, and its scanner works on the same position state; split, each half would need the
// other's internals.
/// Parses the `NSPredicate` subset that `NSExtensionActivationRule` strings use.
///
/// Supported: `TRUEPREDICATE`, `FALSEPREDICATE`, `AND`/`&&`, `OR`/`||`, `NOT`/`!` (NOT binds
/// tighter than AND, AND tighter than OR), parentheses, `ANY`/`SOME`/`ALL`/`NONE`,
/// `SUBQUERY(collection, $variable, predicate)`, `@count`, the keys of Apple's extension context,
/// the operators of ``Predicate/Operator``, quoted strings with backslash escapes, numbers, `NIL`/`NULL`,
/// `TRUE`/`YES`/`FALSE`/`NO`. Keywords are case-insensitive; keys and variables are not.
/// Whitespace, line breaks included, may stand between any two tokens.
public enum PredicateParser {
  /// Parses and type-checks a predicate string.
  ///
  /// - Parameter source: The predicate, as written in `NSExtensionActivationRule`.
  /// - Returns: The predicate, with variables resolved and type constants lowercased.
  /// - Throws: ``PredicateSyntaxError`` for the first problem in the string: bad syntax, an
  ///   unknown key, an unbound variable, or values that cannot be compared.
  public static func parse(_ source: String) throws(PredicateSyntaxError) -> Predicate {
    var parser = Parser(source)
    return try parser.parseRule()
  }
}

private typealias SyntaxError = PredicateSyntaxError

private struct Token {
  enum Kind: Equatable {
    /// A key or keyword; `UTI-CONFORMS-TO` and `UTI-EQUALS` are one word.
    case word
    /// `$name`.
    case variable
    /// `@count` and its unsupported siblings.
    case collectionOperator
    case string(String)
    case number(Double)
    case symbol
    /// A character that starts no token; left to the parser so the error says what was expected.
    case unknown
    case end
  }

  var kind: Kind
  /// UTF-8 offsets into the source, end exclusive.
  var start: Int
  var end: Int
  /// The source text.
  var text: String
  /// The text uppercased for words, to match keywords against; empty otherwise.
  var keyword: String
}

/// What the elements of a collection, or a variable, are.
private enum ElementKind: Equatable {
  case item
  case attachment
  case typeIdentifier
}

/// The type of a single value, for checking comparisons before they are ever run.
private enum ValueKind: Equatable {
  case null
  case bool
  case number
  case text
  case string
  case typeIdentifier
  case dictionary

  enum Category { case null, number, string, dictionary }

  var category: Category {
    switch self {
    case .null: .null
    case .bool, .number: .number
    case .text, .string, .typeIdentifier: .string
    case .dictionary: .dictionary
    }
  }
}

/// A key path or constant while it is being read.
private enum Typed {
  case root
  /// An extension item or attachment bound to a variable: it can only be read through a key.
  case object(ElementKind, variable: Int)
  case collection(Predicate.CollectionExpression, ElementKind)
  case value(Predicate.Operand, ValueKind)
}

/// A whole operand: what a comparison or SUBQUERY can use, with its place in the source.
private struct Operand {
  enum Parsed {
    case collection(Predicate.CollectionExpression, ElementKind)
    case value(Predicate.Operand, ValueKind)
  }

  var parsed: Parsed
  var start: Int
  var end: Int
}

private struct Parser {
  static let rootKeys = ["extensionItems"]
  static let itemKeys = ["attachments", "attributedContentText", "attributedTitle", "userInfo"]
  static let attachmentKeys = ["registeredTypeIdentifiers"]
  static let reservedWords: Set<String> = [
    "AND", "OR", "NOT", "ANY", "SOME", "ALL", "NONE", "SUBQUERY", "TRUEPREDICATE", "FALSEPREDICATE",
    "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "IN", "BETWEEN", "UTI-CONFORMS-TO",
    "UTI-EQUALS",
  ]

  // UTF-8 rather than Characters: grapheme breaking made parsing several times slower.
  // Columns are counted in Characters only when an error is reported.
  let bytes: [UInt8]
  /// Where the lexer continues.
  var index = 0
  /// The lookahead token, not yet consumed.
  var token = Token(kind: .end, start: 0, end: 0, text: "", keyword: "")
  /// The end of the last consumed token, so that an operand's source text can be quoted.
  var previousEnd = 0
  /// The variables of the enclosing SUBQUERYs, outermost first; the index is the depth.
  var scope: [(name: String, kind: ElementKind)] = []
  /// How many parentheses, NOTs and SUBQUERYs enclose the token.
  var nesting = 0
  // Parsing and evaluation recurse once per level; a hostile Info.plist must not be able to
  // overflow the stack of a secondary thread. Real rules nest four or five levels.
  static let maximumNesting = 32

  init(_ source: String) {
    bytes = Array(source.utf8)
  }

  mutating func parseRule() throws(SyntaxError) -> Predicate {
    try advance()
    let predicate = try parseOr()
    guard token.kind == .end else { throw error(.endOfInput) }
    return predicate
  }

  // MARK: Predicates

  mutating func parseOr() throws(SyntaxError) -> Predicate {
    try parseJoined("OR", "||", Predicate.or) { (parser: inout Self) throws(SyntaxError) in
      try parser.parseAnd()
    }
  }

  mutating func parseAnd() throws(SyntaxError) -> Predicate {
    try parseJoined("AND", "&&", Predicate.and) { (parser: inout Self) throws(SyntaxError) in
      try parser.parseNot()
    }
  }

  /// Terms that `word` or `symbol` joins: one alone is itself, several are `join(terms)`.
  private mutating func parseJoined(
    _ word: String, _ symbol: String, _ join: ([Predicate]) -> Predicate,
    term: (inout Self) throws(SyntaxError) -> Predicate
  ) throws(SyntaxError) -> Predicate {
    var terms = [try term(&self)]
    while isWord(word) || isSymbol(symbol) {
      try advance()
      terms.append(try term(&self))
    }
    return terms.count == 1 ? terms[0] : join(terms)
  }

  mutating func parseNot() throws(SyntaxError) -> Predicate {
    guard isWord("NOT") || isSymbol("!") else { return try parsePrimary() }
    try enter()
    defer { nesting -= 1 }
    return .not(try parseNot())
  }

  mutating func parsePrimary() throws(SyntaxError) -> Predicate {
    if isSymbol("(") {
      try enter()
      defer { nesting -= 1 }
      let predicate = try parseOr()
      try expect(")", .closingParenthesis)
      return predicate
    }
    if isWord("TRUEPREDICATE") || isWord("FALSEPREDICATE") {
      let value = isWord("TRUEPREDICATE")
      try advance()
      return .constant(value)
    }
    switch token.kind {
    case .word where Self.reservedWords.contains(token.keyword) && !startsComparison(token):
      throw error(.predicate)
    case .word, .variable, .string, .number:
      return try parseComparison()
    default:
      throw error(.predicate)
    }
  }

  mutating func parseComparison() throws(SyntaxError) -> Predicate {
    var quantifier: Predicate.Quantifier?
    if isWord("ANY") || isWord("SOME") {
      quantifier = .any
    } else if isWord("ALL") {
      quantifier = .all
    } else if isWord("NONE") {
      quantifier = Predicate.Quantifier.none
    }
    if quantifier != nil { try advance() }
    let left = try parseOperand()
    let op = try parseOperator()
    let right = try parseOperand()

    guard case .value(var rightOperand, let rightKind) = right.parsed else {
      throw error(.singleValue, at: right)
    }
    switch left.parsed {
    case .collection(let collection, let element):
      let isTypeOperator = op == .conformsTo || op == .typeEquals
      // Real rules sometimes leave out ANY before a UTI operator; read them as their authors meant.
      guard let quantifier = quantifier ?? (isTypeOperator ? .any : nil) else {
        throw error(.quantifier, at: left)
      }
      guard element == .typeIdentifier else { throw error(.typeIdentifiers, at: left) }
      // Stands for each element; only its kind is checked.
      var leftOperand = Predicate.Operand.typeIdentifier(variable: 0)
      try check(&leftOperand, .typeIdentifier, left, op, &rightOperand, rightKind, right)
      return .quantified(quantifier, collection, op, rightOperand)
    case .value(var leftOperand, let leftKind):
      guard quantifier == nil else { throw error(.collection, at: left) }
      try check(&leftOperand, leftKind, left, op, &rightOperand, rightKind, right)
      return .comparison(leftOperand, op, rightOperand)
    }
  }

  mutating func parseOperator() throws(SyntaxError) -> Predicate.Operator {
    let op: Predicate.Operator
    switch (token.kind, token.kind == .word ? token.keyword : token.text) {
    case (.symbol, "=="), (.symbol, "="): op = .equal
    case (.symbol, "!="), (.symbol, "<>"): op = .notEqual
    case (.symbol, "<"): op = .less
    case (.symbol, "<="), (.symbol, "=<"): op = .lessOrEqual
    case (.symbol, ">"): op = .greater
    case (.symbol, ">="), (.symbol, "=>"): op = .greaterOrEqual
    case (.word, "BEGINSWITH"): op = .beginsWith
    case (.word, "ENDSWITH"): op = .endsWith
    case (.word, "CONTAINS"): op = .contains
    case (.word, "LIKE"): op = .like
    case (.word, "UTI-CONFORMS-TO"): op = .conformsTo
    case (.word, "UTI-EQUALS"): op = .typeEquals
    default: throw error(.comparisonOperator)
    }
    try advance()
    return op
  }

  /// Rejects comparisons that could never be true for a reason the author did not mean, and
  /// lowercases strings compared with type identifiers, which are lowercase.
  func check(
    _ leftOperand: inout Predicate.Operand, _ leftKind: ValueKind, _ left: Operand, _ op: Predicate.Operator,
    _ rightOperand: inout Predicate.Operand, _ rightKind: ValueKind, _ right: Operand
  ) throws(SyntaxError) {
    if op == .conformsTo || op == .typeEquals {
      guard leftKind == .typeIdentifier else { throw error(.typeIdentifiers, at: left) }
      guard case .constant(.string(let type)) = rightOperand else {
        throw error(.quotedTypeIdentifier, at: right)
      }
      rightOperand = .constant(.string(type.lowercased()))
      return
    }
    if leftKind == .typeIdentifier, case .constant(.string(let string)) = rightOperand {
      rightOperand = .constant(.string(string.lowercased()))
    }
    if rightKind == .typeIdentifier, case .constant(.string(let string)) = leftOperand {
      leftOperand = .constant(.string(string.lowercased()))
    }
    let leftCategory = leftKind.category
    let rightCategory = rightKind.category
    switch op {
    case .beginsWith, .endsWith, .contains, .like:
      guard leftCategory == .string || leftCategory == .null else { throw error(.string, at: left) }
      guard rightCategory == .string || rightCategory == .null else { throw error(.string, at: right) }
    default:
      if leftCategory == .null || rightCategory == .null { return }
      let isOrdering = op != .equal && op != .notEqual
      if isOrdering && leftCategory == .dictionary { throw error(.number, at: left) }
      guard leftCategory == rightCategory else {
        let expected: SyntaxError.Expected =
          switch leftCategory {
          case .number: .number
          case .string: .string
          case .dictionary, .null: .null
          }
        throw error(expected, at: right)
      }
    }
  }

  // MARK: Operands

  mutating func parseOperand() throws(SyntaxError) -> Operand {
    let start = token.start
    var typed: Typed
    var segment = token
    switch token.kind {
    case .string(let value):
      typed = .value(.constant(.string(value)), .string)
      try advance()
    case .number(let value):
      typed = .value(.constant(.number(value)), .number)
      try advance()
    case .variable:
      typed = try variable()
      try advance()
    case .word:
      switch token.keyword {
      case "NIL", "NULL":
        typed = .value(.constant(.null), .null)
        try advance()
      case "TRUE", "YES", "FALSE", "NO":
        let value = token.keyword == "TRUE" || token.keyword == "YES"
        typed = .value(.constant(.bool(value)), .bool)
        try advance()
      case "SUBQUERY":
        typed = try parseSubquery()
      case let word where Self.reservedWords.contains(word):
        throw error(.expression)
      default:
        typed = try member(named: token.text, of: .root, segment: segment)
        try advance()
      }
    default:
      throw error(.expression)
    }
    while isSymbol(".") {
      try advance()
      guard token.kind == .word || token.kind == .collectionOperator else {
        throw error(.key(allowed: Self.keys(of: typed)))
      }
      let key = token
      typed = try member(named: key.text, of: typed, segment: segment)
      segment = key
      try advance()
    }
    let parsed: Operand.Parsed
    switch typed {
    case .collection(let collection, let element): parsed = .collection(collection, element)
    case .value(let operand, let kind): parsed = .value(operand, kind)
    case .root, .object: throw error(.key(allowed: Self.keys(of: typed)))
    }
    return Operand(parsed: parsed, start: start, end: previousEnd)
  }

  /// The current `$name` token, resolved to the innermost SUBQUERY that binds it.
  func variable() throws(SyntaxError) -> Typed {
    let name = String(token.text.dropFirst())
    guard let depth = scope.lastIndex(where: { $0.name == name }) else {
      var bound: [String] = []
      for (name, _) in scope where !bound.contains("$" + name) { bound.append("$" + name) }
      throw error(.boundVariable(bound: bound))
    }
    switch scope[depth].kind {
    case .item: return .object(.item, variable: depth)
    case .attachment: return .object(.attachment, variable: depth)
    case .typeIdentifier: return .value(.typeIdentifier(variable: depth), .typeIdentifier)
    }
  }

  mutating func parseSubquery() throws(SyntaxError) -> Typed {
    try enter()
    defer { nesting -= 1 }
    try expect("(", .openingParenthesis)
    let source = try parseOperand()
    guard case .collection(let collection, let element) = source.parsed else {
      throw error(.collection, at: source)
    }
    try expect(",", .comma)
    guard token.kind == .variable else { throw error(.variable) }
    let variable = String(token.text.dropFirst())
    scope.append((variable, element))
    try advance()
    try expect(",", .comma)
    let predicate = try parseOr()
    scope.removeLast()
    try expect(")", .closingParenthesis)
    return .collection(.subquery(collection, variable: scope.count, name: variable, predicate), element)
  }

  /// The key `name` read from `typed`; `segment` is the token that produced `typed`, blamed
  /// when `@count` is read from something that is not a collection.
  func member(named name: String, of typed: Typed, segment: Token) throws(SyntaxError) -> Typed {
    switch (typed, name) {
    case (.root, "extensionItems"):
      return .collection(.extensionItems, .item)
    case (.object(.item, let depth), "attachments"):
      return .collection(.attachments(of: .variable(depth)), .attachment)
    case (.object(.item, let depth), "attributedContentText"):
      return .value(.itemValue(.attributedContentText, variable: depth), .text)
    case (.object(.item, let depth), "attributedTitle"):
      return .value(.itemValue(.attributedTitle, variable: depth), .text)
    case (.object(.item, let depth), "userInfo"):
      return .value(.itemValue(.userInfo, variable: depth), .dictionary)
    case (.object(.attachment, let depth), "registeredTypeIdentifiers"):
      return .collection(.registeredTypeIdentifiers(of: .variable(depth)), .typeIdentifier)
    case (.collection(let collection, _), "@count"):
      return .value(.count(collection), .number)
    case (.collection(let collection, .item), "attachments"):
      return .collection(.attachments(of: .each(collection)), .attachment)
    case (.collection(let collection, .attachment), "registeredTypeIdentifiers"):
      return .collection(.registeredTypeIdentifiers(of: .each(collection)), .typeIdentifier)
    case (.value(_, .dictionary), "@count"):
      // userInfo is always empty here.
      return .value(.constant(.number(0)), .number)
    case (.value(_, .dictionary), _) where !name.hasPrefix("@"),
      (.value(_, .null), _) where !name.hasPrefix("@"):
      // Any key of an empty dictionary, and of nil, is nil.
      return .value(.constant(.null), .null)
    case (.object, "@count"), (.value, "@count"):
      throw SyntaxError(position: column(segment.start), expected: .collection, found: .token(segment.text))
    default:
      throw error(.knownKey(allowed: Self.keys(of: typed)))
    }
  }

  static func keys(of typed: Typed) -> [String] {
    switch typed {
    case .root: rootKeys
    case .object(.item, _): itemKeys
    case .object(.attachment, _): attachmentKeys
    case .object(.typeIdentifier, _): []
    case .collection(_, .item): ["@count", "attachments"]
    case .collection(_, .attachment): ["@count", "registeredTypeIdentifiers"]
    case .collection(_, .typeIdentifier): ["@count"]
    case .value(_, .dictionary): ["@count"]
    case .value: []
    }
  }

  /// Consumes the token that opens a level of nesting.
  mutating func enter() throws(SyntaxError) {
    guard nesting < Self.maximumNesting else { throw error(.shallowerNesting(limit: Self.maximumNesting)) }
    nesting += 1
    try advance()
  }

  // MARK: Tokens

  func startsComparison(_ token: Token) -> Bool {
    ["ANY", "SOME", "ALL", "NONE", "SUBQUERY"].contains(token.keyword)
  }

  func isWord(_ keyword: String) -> Bool {
    token.kind == .word && token.keyword == keyword
  }

  func isSymbol(_ symbol: String) -> Bool {
    token.kind == .symbol && token.text == symbol
  }

  mutating func expect(_ symbol: String, _ expected: SyntaxError.Expected) throws(SyntaxError) {
    guard isSymbol(symbol) else { throw error(expected) }
    try advance()
  }

  func error(_ expected: SyntaxError.Expected) -> SyntaxError {
    SyntaxError(
      position: column(token.start), expected: expected,
      found: token.kind == .end ? .endOfInput : .token(token.text))
  }

  func error(_ expected: SyntaxError.Expected, at operand: Operand) -> SyntaxError {
    SyntaxError(
      position: column(operand.start), expected: expected, found: .token(source(operand.start..<operand.end)))
  }

  /// The 1-based Character column of a UTF-8 offset.
  func column(_ offset: Int) -> Int {
    source(0..<offset).count + 1
  }

  func source(_ range: Range<Int>) -> String {
    String(decoding: bytes[range], as: UTF8.self)
  }

  /// The scalar starting at `offset` and its length in bytes; nil at the end.
  func scalar(at offset: Int) -> Unicode.Scalar? {
    decode(at: offset)?.scalar
  }

  func decode(at offset: Int) -> (scalar: Unicode.Scalar, length: Int)? {
    guard offset < bytes.count else { return nil }
    let lead = bytes[offset]
    if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
    // The bytes come from a String, so they are valid UTF-8.
    let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
    var value = UInt32(lead) & (0x7F >> length)
    for byte in bytes[(offset + 1)..<(offset + length)] { value = value << 6 | UInt32(byte & 0x3F) }
    return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
  }

  /// Moves past the scalar at `index`.
  mutating func skipScalar() {
    index += decode(at: index)?.length ?? 1
  }

  /// Reads the next token into `token`.
  mutating func advance() throws(SyntaxError) {
    previousEnd = token.end
    while let scalar = scalar(at: index), scalar.properties.isWhitespace { skipScalar() }
    let start = index
    guard let first = scalar(at: index) else {
      token = Token(kind: .end, start: start, end: start, text: "", keyword: "")
      return
    }
    let next = first.isASCII ? scalar(at: index + 1) : nil
    let kind: Token.Kind
    if Self.startsWord(first) {
      scanWord()
      // The UTI operators are the only keywords with hyphens.
      if index - start == 3, source(start..<index).uppercased() == "UTI" {
        while scalar(at: index) == "-", let after = scalar(at: index + 1), Self.startsWord(after) {
          index += 1
          scanWord()
        }
      }
      kind = .word
    } else if first == "$", let next, Self.startsWord(next) {
      index += 1
      scanWord()
      kind = .variable
    } else if first == "@", let next, Self.startsWord(next) {
      index += 1
      scanWord()
      kind = .collectionOperator
    } else if first == "\"" || first == "'" {
      kind = .string(try scanString(quote: first))
    } else if Self.isDigit(first) || (first == "-" && next.map(Self.isDigit) == true) {
      kind = .number(scanNumber())
    } else if let next, Self.twoScalarSymbols.contains([first, next]) {
      index += 2
      kind = .symbol
    } else if "=<>!(),.".unicodeScalars.contains(first) {
      index += 1
      kind = .symbol
    } else {
      skipScalar()
      kind = .unknown
    }
    let text = source(start..<index)
    token = Token(
      kind: kind, start: start, end: index, text: text, keyword: kind == .word ? text.uppercased() : "")
  }

  static let twoScalarSymbols: Set<[Unicode.Scalar]> = Set(
    ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||"].map { Array($0.unicodeScalars) })

  static func startsWord(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCII
      ? (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || scalar == "_"
      : scalar.properties.isAlphabetic
  }

  static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
    scalar >= "0" && scalar <= "9"
  }

  mutating func scanWord() {
    while let scalar = scalar(at: index), Self.startsWord(scalar) || Self.isDigit(scalar) { skipScalar() }
  }

  mutating func scanString(quote: Unicode.Scalar) throws(SyntaxError) -> String {
    let start = index
    var value = String.UnicodeScalarView()
    index += 1
    while let scalar = scalar(at: index) {
      skipScalar()
      if scalar == quote { return String(value) }
      guard scalar == "\\" else {
        value.append(scalar)
        continue
      }
      guard let escaped = self.scalar(at: index) else { break }
      skipScalar()
      switch escaped {
      case "n": value.append("\n")
      case "t": value.append("\t")
      case "r": value.append("\r")
      default: value.append(escaped)
      }
    }
    throw SyntaxError(position: column(start), expected: .closingQuote(Character(quote)), found: .endOfInput)
  }

  mutating func scanNumber() -> Double {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    func digits() {
      while let scalar = scalar(at: index), Self.isDigit(scalar) { index += 1 }
    }
    digits()
    if scalar(at: index) == ".", let after = scalar(at: index + 1), Self.isDigit(after) {
      index += 1
      digits()
    }
    if scalar(at: index) == "e" || scalar(at: index) == "E" {
      var end = index + 1
      if scalar(at: end) == "+" || scalar(at: end) == "-" { end += 1 }
      if let after = scalar(at: end), Self.isDigit(after) {
        index = end
        digits()
      }
    }
    // Only digits, a point and an exponent were scanned, so the conversion cannot fail.
    return Double(source(start..<index))!
  }
}
