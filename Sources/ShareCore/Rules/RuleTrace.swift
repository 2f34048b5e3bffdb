/// Why a rule accepts or refuses a selection, clause by clause: what `xdg-share why`, the D-Bus
/// `Explain` and every refusal's words are made of, so that they cannot disagree. Each clause says
/// whether it holds and what it found (the count against its bound, the types it tried); the rule
/// accepts when its clauses do, which a test checks against the evaluators on every rule.
public struct RuleTrace: Equatable, Sendable {
  /// Whether the rule accepts the selection.
  public var accepted: Bool
  /// The rule's clauses: a dictionary rule's keys and what they ask together, or a predicate's
  /// tree.
  public var steps: [Step]
  /// What the service takes and what it was given, when the rule refuses.
  public var refusal: RuleRefusal?

  public struct Step: Equatable, Sendable {
    /// The clause as the rule says it: `NSExtensionActivationSupportsImageWithMaxCount = 2`, a
    /// predicate's format text, or an element a SUBQUERY looked at (`notes.txt`).
    public var clause: String
    public var holds: Bool
    /// What was found: `3 images: a.png, b.png, c.png`, `0 of 1 attachments`, `tried
    /// public.plain-text, text/plain: none conforms`.
    public var found: String?
    /// The clauses inside (a conjunction's operands, a SUBQUERY's elements).
    public var steps: [Step]
    /// What kind of clause it is: what a refusal's words are made from.
    public var role: Role

    public init(clause: String, holds: Bool, found: String? = nil, steps: [Step] = [], role: Role = .clause) {
      self.clause = clause
      self.holds = holds
      self.found = found
      self.steps = steps
      self.role = role
    }

    /// The steps inside as they are shown: past ``RuleTrace/shownElements``, the rest summed
    /// up in one (a SUBQUERY over a thousand photos).
    public var shownSteps: [Step] {
      guard steps.count > RuleTrace.shownElements else { return steps }
      let rest = steps.dropFirst(RuleTrace.shownElements)
      let holding = rest.count(where: \.holds)
      return Array(steps.prefix(RuleTrace.shownElements)) + [
        Step(
          clause: "\(rest.count) more", holds: holding == rest.count, found: "\(holding) of them hold",
          role: .element(attachment: nil))
      ]
    }
  }

  /// What a step is, with what a refusal needs of it. Attachments are indices into the
  /// selection's attachments.
  public enum Role: Equatable, Sendable {
    /// A clause of the rule's own text, with nothing more to say.
    case clause
    /// One element a SUBQUERY looked at: an item, an attachment (its index) or a type identifier.
    case element(attachment: Int?)
    /// A dictionary rule's requirement that something be shared at all.
    case something
    /// `…AttachmentsWithMaxCount` or `…AttachmentsWithMinCount`: every attachment counted.
    case total(attachments: [Int])
    /// A declared kind of a dictionary rule and the attachments counted against it.
    case limit(DictionaryRule.Category, attachments: [Int])
    /// The attachments of kinds a dictionary rule does not declare.
    case undeclared(attachments: [Int])
    /// A count compared with a bound: `count op bound`; the attachments counted, or whose type
    /// identifiers were (a SUBQUERY's: those its condition holds for; a collection's: all of
    /// them); the type identifiers a SUBQUERY asks about; what it counts; whether the bound is
    /// the count of the whole collection (`… == $e.attachments.@count`: every one of them); and
    /// whether the SUBQUERY counts what is *not* of its types (`NOT (ANY … UTI-CONFORMS-TO …)`).
    case count(
      found: Int, Predicate.Operator, bound: Double, counted: [Int], types: [String], counts: CountedThing,
      ofAll: Bool, negated: Bool)
    /// A quantified type question (`ANY … UTI-CONFORMS-TO "public.image"`): its quantifier, the
    /// identifiers it asks about and the attachments it refused.
    case types(Predicate.Quantifier, [String], refused: [Int])
  }

  /// What a SUBQUERY counts, for the words.
  public enum CountedThing: Equatable, Sendable {
    case items, attachments, typeIdentifiers
  }

  /// The clauses that refused, outermost first: the first clause that does not hold, then,
  /// while it is made of others, the first of those that does not hold. Empty when the rule
  /// accepts.
  public var refusedPath: [Step] {
    guard !accepted, var step = steps.first(where: { !$0.holds }) else { return [] }
    var path = [step]
    while let inner = step.steps.first(where: { !$0.holds }) {
      path.append(inner)
      step = inner
    }
    return path
  }

  /// The first clause of the rule's own text that refused: what `why` ends with.
  public var refusingClause: String? {
    refusedPath.last(where: { if case .element = $0.role { false } else { true } })?.clause
  }

  /// Steps past this many elements of one collection are summed up in one.
  static let shownElements = 12
}

/// Why a rule refuses a selection, in terms of what the service takes and what it was given:
/// "MyShare takes up to 2 images; notes.txt is a text document (public.plain-text)". Built from
/// the trace; worded by ``Diagnostics/message(for:service:)``.
public struct RuleRefusal: Equatable, Sendable {
  /// What the service takes, as far as the refusing clause says.
  public var takes: Takes
  /// What it was given that the clause refused.
  public var given: Given

  public enum Takes: Equatable, Sendable {
    /// The kinds and counts a dictionary rule declares.
    case kinds(DictionaryRule)
    /// A counted SUBQUERY's bound: `op bound` things of `types` (every one of them with
    /// `ofAll`).
    case count(
      Predicate.Operator, bound: Double, types: [String], counts: RuleTrace.CountedThing, ofAll: Bool)
    /// Items of the given type identifiers: some (`ANY`), only those (`ALL`), or none (`NONE`).
    case types(Predicate.Quantifier, [String])
    /// What the predicate says, when it says nothing simpler (its text).
    case rule(String)
  }

  public enum Given: Equatable, Sendable {
    /// Nothing of what the rule asks for.
    case nothing
    /// These items, each described: what they are.
    case items([GivenItem])
    /// These items, too many (or too few) of them: how many, and which.
    case counted([GivenItem])
  }

  public init(takes: Takes, given: Given) {
    self.takes = takes
    self.given = given
  }
}

/// One item as a refusal names it: its name, what it is and its most specific type identifier.
public struct GivenItem: Equatable, Sendable {
  public var name: String
  public var kind: Kind
  public var typeIdentifier: String

  /// What an item is, for people.
  public enum Kind: Equatable, Sendable {
    case folder, image, movie, audio, pdf, textDocument, archive, file, link, text
  }

  public init(name: String, kind: Kind, typeIdentifier: String) {
    self.name = name
    self.kind = kind
    self.typeIdentifier = typeIdentifier
  }
}

extension ActivationRule {
  /// The rule's answer to `attachments`, clause by clause, with the refusal's terms when it
  /// refuses.
  public func trace(_ attachments: [Attachment], types: TypeSystem) -> RuleTrace {
    trace(ActivationSelection(attachments: attachments, types: types))
  }

  /// ``trace(_:types:)`` of a selection already built.
  public func trace(_ selection: ActivationSelection) -> RuleTrace {
    var trace: RuleTrace
    switch self {
    case .dictionary(let rule): trace = rule.trace(selection)
    case .predicate(let predicate):
      let step = PredicateTracer(selection: selection).step(predicate, [:])
      trace = RuleTrace(accepted: step.holds, steps: [step])
    }
    if !trace.accepted { trace.refusal = refusal(of: trace, selection) }
    return trace
  }

  private func refusal(of trace: RuleTrace, _ selection: ActivationSelection) -> RuleRefusal {
    let given = GivenItems(selection)
    let path = trace.refusedPath
    if case .dictionary(let rule) = self {
      let takes = RuleRefusal.Takes.kinds(rule)
      switch path.first?.role {
      case .total(let attachments)?, .limit(_, let attachments)?:
        return RuleRefusal(takes: takes, given: .counted(given[attachments]))
      case .undeclared(let attachments)?:
        return RuleRefusal(takes: takes, given: .items(given[attachments]))
      default:
        return RuleRefusal(takes: takes, given: .nothing)
      }
    }
    // The deepest count of attachments on the way says it best, one that asks about types
    // first (a count of extension items says only that there is one); then a type question;
    // then the rule itself.
    var counted: RuleTrace.Step?
    var typed: RuleTrace.Step?
    func asksTypes(_ step: RuleTrace.Step?) -> Bool {
      if case .count(_, _, _, _, let types, _, _, _)? = step?.role { !types.isEmpty } else { false }
    }
    func walk(_ step: RuleTrace.Step) {
      if case .count(_, _, _, _, _, let thing, _, _) = step.role, thing != .items,
        asksTypes(step) || !asksTypes(counted)
      {
        counted = step
      }
      if case .types = step.role, typed == nil { typed = step }
      if let inner = step.steps.first(where: { !$0.holds }) { walk(inner) }
    }
    if let first = path.first { walk(first) }
    if let counted,
      case .count(let found, let op, let bound, let counting, let types, let thing, let ofAll, let negated) =
        counted.role
    {
      // The attachments a SUBQUERY's condition refused; a collection's count refuses none.
      let refusedByCondition = counted.steps.compactMap { step -> Int? in
        guard case .element(let attachment?) = step.role, !step.holds else { return nil }
        return attachment
      }
      let tooMany = Double(found) > bound && (op == .less || op == .lessOrEqual || op == .equal)
      // None allowed: the ones counted are the reason, each of them. Counting what is not of
      // some types, none allowed, is taking only those types.
      if tooMany, bound < 1 {
        let takes: RuleRefusal.Takes =
          negated
          ? .count(.equal, bound: 0, types: types, counts: thing, ofAll: true)
          : .count(op, bound: bound, types: types, counts: thing, ofAll: false)
        return RuleRefusal(takes: takes, given: counting.isEmpty ? .nothing : .items(given[counting]))
      }
      let takes = RuleRefusal.Takes.count(op, bound: bound, types: types, counts: thing, ofAll: ofAll)
      // Too many: the ones counted. Too few: the ones that did not count, or when all did,
      // the ones counted. Type identifiers are no items: the items they are of are named, not
      // counted.
      let refused = tooMany ? [] : refusedByCondition
      if !refused.isEmpty { return RuleRefusal(takes: takes, given: .items(given[refused])) }
      guard !counting.isEmpty else { return RuleRefusal(takes: takes, given: .nothing) }
      return RuleRefusal(
        takes: takes, given: thing == .typeIdentifiers ? .items(given[counting]) : .counted(given[counting]))
    }
    if let typed, case .types(let quantifier, let types, let refused) = typed.role, !types.isEmpty {
      return RuleRefusal(
        takes: .types(quantifier, types), given: refused.isEmpty ? .nothing : .items(given[refused]))
    }
    let all = Array(selection.attachments.indices)
    return RuleRefusal(
      takes: .rule(trace.steps.first?.clause ?? ""), given: all.isEmpty ? .nothing : .items(given[all]))
  }
}

/// The attachments of a selection as refusals name them.
struct GivenItems {
  let selection: ActivationSelection
  let classes: [Int]

  init(_ selection: ActivationSelection) {
    self.selection = selection
    classes = selection.attachmentClassIndices
  }

  subscript(indices: [Int]) -> [GivenItem] { indices.map { self[$0] } }

  /// A file's kind by the first of these types it conforms to; any other is `.file`.
  private static let fileKinds: [(type: String, kind: GivenItem.Kind)] = [
    ("public.image", .image), ("public.movie", .movie), ("public.audio", .audio), ("com.adobe.pdf", .pdf),
    ("public.text", .textDocument), ("public.archive", .archive),
  ]

  subscript(index: Int) -> GivenItem {
    let attachment = selection.attachments[index]
    let identifiers = selection.typeClasses[classes[index]].identifiers
    func conforms(_ type: String) -> Bool {
      identifiers.contains { selection.identifier($0, conformsTo: type) }
    }
    let kind: GivenItem.Kind =
      switch attachment.item {
      case .text: .text
      case .webURL: .link
      case .file:
        attachment.file?.isDirectory == true
          ? .folder : Self.fileKinds.first { conforms($0.type) }?.kind ?? .file
      }
    return GivenItem(
      name: ActivationRule.name(of: attachment), kind: kind,
      typeIdentifier: attachment.typeIdentifiers.first ?? "")
  }
}

// MARK: Dictionary rules

extension DictionaryRule {
  /// The keys of the rule, each with what it counted, and what they ask together: in the order
  /// ``rejection(of:)`` asks them, every one of them asked.
  func trace(_ selection: ActivationSelection) -> RuleTrace {
    let names = selection.attachments.map(ActivationRule.name)
    let total = selection.attachmentCount
    let everything = Array(names.indices)
    typealias Key = InfoPlistKey.Rule
    var steps: [RuleTrace.Step] = [
      RuleTrace.Step(
        clause: "something to share", holds: total > 0, found: total == 0 ? "nothing" : Self.count(total),
        role: .something)
    ]
    if let maxAttachments {
      steps.append(
        RuleTrace.Step(
          clause: "\(Key.maxAttachments) = \(maxAttachments)", holds: total <= maxAttachments,
          found: Self.count(total), role: .total(attachments: everything)))
    }
    if let minAttachments {
      steps.append(
        RuleTrace.Step(
          clause: "\(Key.minAttachments) = \(minAttachments)", holds: total >= minAttachments,
          found: Self.count(total), role: .total(attachments: everything)))
    }
    // Each attachment where the rule counts it: its own category, an image or a movie as a file
    // when only files are declared, or none.
    var counted: [Category: [Int]] = [:]
    var undeclared: [Int] = []
    for (index, typeClass) in selection.attachmentClassIndices.enumerated() {
      let own = Category(selection.typeClasses[typeClass].kind)
      let category: Category? =
        declares(own) ? own : (own == .image || own == .movie) && declares(.file) ? .file : nil
      if let category {
        counted[category, default: []].append(index)
      } else {
        undeclared.append(index)
      }
    }
    for category in Category.order where declares(category) {
      let given = counted[category] ?? []
      let maximum = self.maximum(category)
      steps.append(
        RuleTrace.Step(
          clause: key(category), holds: maximum.map { given.count <= $0 } ?? true,
          found: Self.listed(given.count, category, given.map { names[$0] }),
          role: .limit(category, attachments: given)))
    }
    // `…AttachmentsWithMaxCount` declares every kind.
    if maxAttachments == nil, total > 0 {
      let holds = isStrict ? undeclared.isEmpty : undeclared.count < total
      steps.append(
        RuleTrace.Step(
          clause: isStrict
            ? "every attachment of a kind the rule declares (strict matching)"
            : "an attachment of a kind the rule declares (\(Key.version) = \(version))",
          holds: holds,
          found: undeclared.isEmpty
            ? "all are" : Self.shortList(undeclared.map { names[$0] }) + " of no declared kind",
          role: .undeclared(attachments: undeclared)))
    }
    return RuleTrace(accepted: steps.allSatisfy(\.holds), steps: steps)
  }

  /// Whether the rule counts `category` itself.
  public func declares(_ category: Category) -> Bool {
    switch category {
    case .file: maxFiles != nil
    case .image: maxImages != nil
    case .movie: maxMovies != nil
    case .webURL: maxWebURLs != nil || maxWebPages != nil
    case .text: supportsText
    }
  }

  /// The most of `category` the rule takes; nil for text, which has no maximum, and for what
  /// it does not declare.
  public func maximum(_ category: Category) -> Int? {
    switch category {
    case .file: maxFiles
    case .image: maxImages
    case .movie: maxMovies
    case .webURL: (maxWebURLs ?? maxWebPages).map { Swift.max($0, maxWebPages ?? 0) }
    case .text: nil
    }
  }

  /// The key that declares `category`, as the rule has it.
  func key(_ category: Category) -> String {
    typealias Key = InfoPlistKey.Rule
    return switch category {
    case .file: "\(Key.maxFiles) = \(maxFiles ?? 0)"
    case .image: "\(Key.maxImages) = \(maxImages ?? 0)"
    case .movie: "\(Key.maxMovies) = \(maxMovies ?? 0)"
    case .webURL:
      maxWebURLs != nil
        ? "\(Key.maxWebURLs) = \(maxWebURLs ?? 0)" : "\(Key.maxWebPages) = \(maxWebPages ?? 0)"
    case .text: "\(Key.supportsText) = YES"
    }
  }

  static func listed(_ count: Int, _ category: Category, _ names: [String]) -> String {
    let noun =
      category == .text ? (count == 1 ? "text" : "texts") : Diagnostics.noun(category, plural: count != 1)
    return "\(count) \(noun)" + (names.isEmpty ? "" : ": " + shortList(names))
  }

  static func count(_ count: Int) -> String {
    "\(count) \(count == 1 ? "attachment" : "attachments")"
  }

  /// The first names of a list, the rest counted.
  static func shortList(_ names: [String]) -> String {
    let shown = names.prefix(RuleTrace.shownElements)
    return shown.joined(separator: ", ")
      + (names.count > shown.count ? " and \(names.count - shown.count) more" : "")
  }
}

extension DictionaryRule.Category {
  init(_ kind: ActivationSelection.Kind) {
    switch kind {
    case .text: self = .text
    case .webURL: self = .webURL
    case .image: self = .image
    case .movie: self = .movie
    case .otherFile: self = .file
    }
  }
}

extension ActivationSelection {
  /// Each attachment's type class, in selection order.
  var attachmentClassIndices: [Int] { items.flatMap(\.attachmentClasses) }
}

// MARK: Predicates

/// Runs a predicate as ``PredicateEvaluator`` runs it (its comparisons, in its order, stopping
/// where it stops), attachment by attachment rather than by type class, writing each step down.
struct PredicateTracer {
  let selection: ActivationSelection
  let evaluator: PredicateEvaluator
  /// Each attachment as people know it, and its type class, in selection order.
  let names: [String]
  let classes: [Int]
  /// Each item's attachments, as indices into the two above.
  let itemAttachments: [[Int]]

  init(selection: ActivationSelection) {
    self.selection = selection
    evaluator = PredicateEvaluator(selection: selection)
    names = selection.attachments.map(ActivationRule.name)
    classes = selection.attachmentClassIndices
    var next = 0
    itemAttachments = selection.items.map { item in
      defer { next += item.attachmentClasses.count }
      return Array(next..<next + item.attachmentClasses.count)
    }
  }

  /// An element a variable is bound to.
  enum Element {
    case item(Int)
    case attachment(Int)
    /// An identifier index, and the attachment it is registered by.
    case identifier(Int, attachment: Int)
  }

  typealias Scope = [Int: Element]

  func step(_ predicate: Predicate, _ scope: Scope) -> RuleTrace.Step {
    var names = PredicateNames()
    return step(predicate, scope, &names)
  }

  func step(_ predicate: Predicate, _ scope: Scope, _ names: inout PredicateNames) -> RuleTrace.Step {
    var sourceNames = names
    let clause = PredicateSource.predicate(predicate, &sourceNames)
    switch predicate {
    case .constant(let value):
      return RuleTrace.Step(clause: clause, holds: value)
    case .not(let operand):
      let inner = step(operand, scope, &names)
      return RuleTrace.Step(clause: clause, holds: !inner.holds, steps: [inner])
    case .and(let operands), .or(let operands):
      let isAnd = if case .and = predicate { true } else { false }
      var inner: [RuleTrace.Step] = []
      // As the evaluator: the first false operand decides a conjunction, the first true one a
      // disjunction; the operands after it were not asked.
      for operand in operands {
        let result = step(operand, scope, &names)
        inner.append(result)
        if result.holds != isAnd { break }
      }
      let holds = isAnd ? inner.allSatisfy(\.holds) : inner.contains(where: \.holds)
      return RuleTrace.Step(clause: clause, holds: holds, steps: inner)
    case .comparison(let left, let op, let rightOperand):
      let leftValue = value(left, scope, &names)
      let rightValue = value(rightOperand, scope, &names)
      let holds = evaluator.compare(leftValue.value, op, rightValue.value)
      var role = RuleTrace.Role.clause
      if case .count(let collection) = left, case .number(let found) = leftValue.value,
        case .number(let bound) = rightValue.value
      {
        let source = if case .subquery(let inner, _, _, _) = collection { inner } else { collection }
        var ofAll = false
        if case .count(let whole) = rightOperand { ofAll = whole == source }
        var negated = false
        if case .subquery(_, _, _, .not) = collection { negated = true }
        role = .count(
          found: Int(found), op, bound: bound, counted: leftValue.counted, types: leftValue.types,
          counts: Self.thing(source), ofAll: ofAll, negated: negated)
      }
      // What the left side came to, against what the right one did (or the constant it is).
      var right = rightValue.found
      if right == nil, case .constant(let constant) = rightOperand {
        right = PredicateSource.constant(constant)
      }
      let found = [leftValue.found, right].compactMap { $0 }.joined(separator: ", against ")
      return RuleTrace.Step(clause: clause, holds: holds, found: found, steps: leftValue.steps, role: role)
    case .quantified(let quantifier, let collection, let op, let right):
      let rightValue = value(right, scope, &names).value
      var tried: [(identifier: Int, attachment: Int)] = []
      for element in elements(collection, scope, &names) {
        if case .identifier(let identifier, let attachment) = element {
          tried.append((identifier, attachment))
        }
      }
      let passes = tried.map { evaluator.compare(.typeIdentifier($0.identifier), op, rightValue) }
      let holds =
        switch quantifier {
        case .any: passes.contains(true)
        case .all: !passes.contains(false)
        case .none: !passes.contains(true)
        }
      // The attachments that made it fail: for ALL, those with an identifier that does not pass;
      // for NONE, those with one that does; for ANY, all of them.
      var refused: [Int] = []
      if !holds {
        for (index, pair) in tried.enumerated()
        where quantifier == .any || passes[index] == (quantifier == .none) {
          if !refused.contains(pair.attachment) { refused.append(pair.attachment) }
        }
      }
      let identifiers = tried.map { selection.identifiers[$0.identifier] }
      let passing = zip(identifiers, passes).filter(\.1).map(\.0)
      let verb =
        op == .typeEquals
        ? (passing.count == 1 ? "is it" : "are it") : (passing.count > 1 ? "conform" : "conforms")
      let found =
        identifiers.isEmpty
        ? "no type identifiers"
        : "tried " + DictionaryRule.shortList(identifiers) + ": "
          + (passing.isEmpty ? "none \(verb)" : DictionaryRule.shortList(passing) + " \(verb)")
      var asked: [String] = []
      if case .string(let type) = rightValue, op == .conformsTo || op == .typeEquals { asked = [type] }
      return RuleTrace.Step(
        clause: clause, holds: holds, found: found, role: .types(quantifier, asked, refused: refused))
    }
  }

  /// An operand's value as the evaluator has it; for people, what it was; the steps that made
  /// it (a SUBQUERY's elements), the attachments a count counted and the type identifiers a
  /// counted SUBQUERY asks about.
  private struct Found {
    var value: PredicateValue
    var found: String?
    var steps: [RuleTrace.Step] = []
    var counted: [Int] = []
    var types: [String] = []
  }

  private func value(_ operand: Predicate.Operand, _ scope: Scope, _ names: inout PredicateNames) -> Found {
    switch operand {
    case .constant(.null): return Found(value: .null, found: nil)
    case .constant(.bool(let value)): return Found(value: .number(value ? 1 : 0), found: nil)
    case .constant(.number(let value)): return Found(value: .number(value), found: nil)
    case .constant(.string(let value)): return Found(value: .string(value), found: nil)
    case .typeIdentifier(let depth):
      guard case .identifier(let identifier, _)? = scope[depth] else {
        return Found(value: .null, found: nil)
      }
      return Found(
        value: .typeIdentifier(identifier), found: "\(names[depth]) is \(selection.identifiers[identifier])")
    case .itemValue(let key, let depth):
      let subject = "\(names[depth]).\(PredicateSource.key(key))"
      switch key {
      case .attributedContentText:
        guard case .item(let item)? = scope[depth], let text = selection.items[item].attributedContentText
        else {
          return Found(value: .null, found: "\(subject) is NIL")
        }
        return Found(
          value: .string(text), found: "\(subject) is \(Diagnostics.quoted(String(text.prefix(40))))")
      case .attributedTitle: return Found(value: .null, found: "\(subject) is NIL")
      case .userInfo: return Found(value: .emptyDictionary, found: "\(subject) is empty")
      }
    case .count(let collection):
      guard case .subquery(let source, let depth, let name, let predicate) = collection else {
        let counted = elements(collection, scope, &names)
        return Found(
          value: .number(Double(counted.count)),
          found: "\(counted.count) \(Self.noun(collection, counted.count))",
          counted: Self.attachments(of: counted))
      }
      let candidates = elements(source, scope, &names)
      var inner = names
      inner.bind(depth, name)
      var steps: [RuleTrace.Step] = []
      var counted: [Element] = []
      for element in candidates {
        var bound = scope
        bound[depth] = element
        var elementNames = inner
        let result = step(predicate, bound, &elementNames)
        if result.holds { counted.append(element) }
        steps.append(
          RuleTrace.Step(clause: label(element), holds: result.holds, steps: [result], role: role(element)))
      }
      return Found(
        value: .number(Double(counted.count)),
        found: "\(counted.count) of \(candidates.count) \(Self.noun(source, candidates.count))",
        steps: steps, counted: Self.attachments(of: counted), types: Self.types(in: predicate))
    }
  }

  /// The elements of `collection` in scope, in the order the evaluator visits their classes.
  private func elements(
    _ collection: Predicate.CollectionExpression, _ scope: Scope, _ names: inout PredicateNames
  )
    -> [Element]
  {
    switch collection {
    case .extensionItems:
      return selection.items.indices.map(Element.item)
    case .attachments(of: .variable(let depth)):
      guard case .item(let item)? = scope[depth] else { return [] }
      return itemAttachments[item].map(Element.attachment)
    case .attachments(of: .each(let inner)):
      return elements(inner, scope, &names).flatMap { element -> [Element] in
        guard case .item(let item) = element else { return [] }
        return itemAttachments[item].map(Element.attachment)
      }
    case .registeredTypeIdentifiers(of: .variable(let depth)):
      guard case .attachment(let attachment)? = scope[depth] else { return [] }
      return identifiers(of: attachment)
    case .registeredTypeIdentifiers(of: .each(let inner)):
      return elements(inner, scope, &names).flatMap { element -> [Element] in
        guard case .attachment(let attachment) = element else { return [] }
        return identifiers(of: attachment)
      }
    case .subquery(let source, let depth, let name, let predicate):
      let candidates = elements(source, scope, &names)
      var inner = names
      inner.bind(depth, name)
      return candidates.filter { element in
        var bound = scope
        bound[depth] = element
        var elementNames = inner
        return step(predicate, bound, &elementNames).holds
      }
    }
  }

  private func identifiers(of attachment: Int) -> [Element] {
    selection.typeClasses[classes[attachment]].identifiers.map {
      Element.identifier($0, attachment: attachment)
    }
  }

  private func label(_ element: Element) -> String {
    switch element {
    case .item(let item): "item \(item + 1)"
    case .attachment(let attachment): names[attachment]
    case .identifier(let identifier, _): selection.identifiers[identifier]
    }
  }

  /// The attachments `elements` are, or are type identifiers of, each once, in order.
  private static func attachments(of elements: [Element]) -> [Int] {
    var attachments: [Int] = []
    var seen = Set<Int>()
    for element in elements {
      switch element {
      case .item: continue
      case .attachment(let attachment), .identifier(_, let attachment):
        if seen.insert(attachment).inserted { attachments.append(attachment) }
      }
    }
    return attachments
  }

  private func role(_ element: Element) -> RuleTrace.Role {
    if case .attachment(let attachment) = element { return .element(attachment: attachment) }
    return .element(attachment: nil)
  }

  /// What a collection holds, for people.
  private static func noun(_ collection: Predicate.CollectionExpression, _ count: Int) -> String {
    switch thing(collection) {
    case .items: count == 1 ? "item" : "items"
    case .attachments: count == 1 ? "attachment" : "attachments"
    case .typeIdentifiers: count == 1 ? "type identifier" : "type identifiers"
    }
  }

  private static func thing(_ collection: Predicate.CollectionExpression) -> RuleTrace.CountedThing {
    switch collection {
    case .extensionItems: .items
    case .attachments: .attachments
    case .registeredTypeIdentifiers: .typeIdentifiers
    case .subquery(let inner, _, _, _): thing(inner)
    }
  }

  /// The type identifiers a predicate asks about with `UTI-CONFORMS-TO` and `UTI-EQUALS`.
  static func types(in predicate: Predicate) -> [String] {
    switch predicate {
    case .constant: return []
    case .not(let inner): return types(in: inner)
    case .and(let operands), .or(let operands): return operands.flatMap(types(in:))
    case .comparison(let left, _, _):
      if case .count(.subquery(_, _, _, let inner)) = left { return types(in: inner) }
      return []
    case .quantified(_, let collection, let op, let right):
      var found: [String] = []
      if case .subquery(_, _, _, let inner) = collection { found += types(in: inner) }
      if op == .conformsTo || op == .typeEquals, case .constant(.string(let type)) = right {
        found.append(type)
      }
      return found
    }
  }
}
