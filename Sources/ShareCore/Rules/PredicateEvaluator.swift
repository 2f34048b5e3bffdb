extension Predicate {
  /// Whether `selection` satisfies the predicate.
  ///
  /// Runs without building strings, and without allocating unless SUBQUERYs nest more than
  /// eight deep: variables are depths into a fixed scope,
  /// type questions are lookups in the selection's precomputed conformance, and attachments are
  /// visited once per type class rather than once each.
  public func evaluate(_ selection: ActivationSelection) -> Bool {
    var scope = PredicateScope()
    return PredicateEvaluator(selection: selection).holds(self, &scope)
  }
}

/// The elements bound to the SUBQUERY variables in force, indexed by depth: an item index, a
/// type class or an identifier index, as the variable's collection holds.
struct PredicateScope {
  // Real rules nest two or three SUBQUERYs; deeper ones spill into an array rather than fail.
  private var inline = InlineArray<8, Int>(repeating: 0)
  private var spilled: [Int] = []

  subscript(depth: Int) -> Int {
    get { depth < 8 ? inline[depth] : spilled[depth - 8] }
    set {
      guard depth >= 8 else {
        inline[depth] = newValue
        return
      }
      while spilled.count <= depth - 8 { spilled.append(0) }
      spilled[depth - 8] = newValue
    }
  }
}

/// A value met during evaluation. Type identifiers stay indices so that conformance is a lookup.
enum PredicateValue {
  case null
  case number(Double)
  case string(String)
  case typeIdentifier(Int)
  case emptyDictionary
}

struct PredicateEvaluator {
  typealias Value = PredicateValue
  let selection: ActivationSelection

  func holds(_ predicate: Predicate, _ scope: inout PredicateScope) -> Bool {
    switch predicate {
    case .constant(let value):
      return value
    case .not(let operand):
      return !holds(operand, &scope)
    case .and(let operands):
      for operand in operands where !holds(operand, &scope) { return false }
      return true
    case .or(let operands):
      for operand in operands where holds(operand, &scope) { return true }
      return false
    case .comparison(let left, let op, let right):
      return compare(value(of: left, &scope), op, value(of: right, &scope))
    case .quantified(let quantifier, let collection, let op, let right):
      let right = value(of: right, &scope)
      // ANY and NONE look for an element that passes, ALL for one that fails; finding it
      // decides, and only ANY is then true.
      let decisive = quantifier != .all
      // The shape of every real rule (`ANY $attachment.registeredTypeIdentifiers …`), looped
      // directly: the general path's closures copy the selection into their contexts.
      if case .registeredTypeIdentifiers(of: .variable(let depth)) = collection {
        for identifier in selection.typeClasses[scope[depth]].identifiers
        where compare(.typeIdentifier(identifier), op, right) == decisive {
          return quantifier == .any
        }
        return quantifier != .any
      }
      let finished = forEach(collection, &scope) { identifier, _, _ in
        compare(.typeIdentifier(identifier), op, right) != decisive
      }
      return finished != (quantifier == .any)
    }
  }

  private func value(of operand: Predicate.Operand, _ scope: inout PredicateScope) -> Value {
    switch operand {
    case .constant(.null): .null
    case .constant(.bool(let value)): .number(value ? 1 : 0)
    case .constant(.number(let value)): .number(value)
    case .constant(.string(let value)): .string(value)
    case .typeIdentifier(let depth): .typeIdentifier(scope[depth])
    case .itemValue(.attributedContentText, let depth):
      selection.items[scope[depth]].attributedContentText.map(Value.string) ?? .null
    case .itemValue(.attributedTitle, _): .null
    case .itemValue(.userInfo, _): .emptyDictionary
    case .count(let collection): .number(Double(count(collection, &scope)))
    }
  }

  private func count(_ collection: Predicate.CollectionExpression, _ scope: inout PredicateScope) -> Int {
    switch collection {
    case .extensionItems:
      return selection.items.count
    case .attachments(of: .variable(let depth)):
      return selection.items[scope[depth]].attachmentClasses.count
    case .subquery(.extensionItems, let depth, _, let predicate):
      var total = 0
      for item in selection.items.indices {
        scope[depth] = item
        if holds(predicate, &scope) { total += 1 }
      }
      return total
    case .subquery(.attachments(of: .variable(let itemDepth)), let depth, _, let predicate):
      // Why by class: an attachment's only key is registeredTypeIdentifiers, so attachments of
      // one type class answer every predicate alike. Evaluating each class once and adding its
      // count makes a SUBQUERY over 100 files cost what one over their 2 or 3 kinds does.
      var total = 0
      for (typeClass, count) in selection.items[scope[itemDepth]].classCounts {
        scope[depth] = typeClass
        if holds(predicate, &scope) { total += count }
      }
      return total
    default:
      return totalWeight(&scope) { forEach(collection, &$0, $1) }
    }
  }

  /// Calls `body` with each element of `collection` and how many elements it stands for, until
  /// `body` returns false. Returns whether every call returned true.
  private func forEach(
    _ collection: Predicate.CollectionExpression, _ scope: inout PredicateScope,
    _ body: (_ element: Int, _ weight: Int, _ scope: inout PredicateScope) -> Bool
  ) -> Bool {
    switch collection {
    case .extensionItems:
      for item in selection.items.indices where !body(item, 1, &scope) { return false }
      return true
    case .attachments(of: .variable(let depth)):
      return forEachAttachment(ofItem: scope[depth], weight: 1, &scope, body)
    case .attachments(of: .each(let items)):
      return forEach(items, &scope) { item, weight, scope in
        forEachAttachment(ofItem: item, weight: weight, &scope, body)
      }
    case .registeredTypeIdentifiers(of: .variable(let depth)):
      return forEachIdentifier(ofClass: scope[depth], weight: 1, &scope, body)
    case .registeredTypeIdentifiers(of: .each(let attachments)):
      return forEach(attachments, &scope) { typeClass, weight, scope in
        forEachIdentifier(ofClass: typeClass, weight: weight, &scope, body)
      }
    case .subquery(let source, let depth, _, let predicate):
      return forEach(source, &scope) { element, weight, scope in
        scope[depth] = element
        return !holds(predicate, &scope) || body(element, weight, &scope)
      }
    }
  }

  private func forEachAttachment(
    ofItem item: Int, weight: Int, _ scope: inout PredicateScope,
    _ body: (_ element: Int, _ weight: Int, _ scope: inout PredicateScope) -> Bool
  ) -> Bool {
    // One visit per type class, standing for `count` attachments: see count(_:_:) for why.
    for (typeClass, count) in selection.items[item].classCounts where !body(typeClass, weight * count, &scope)
    {
      return false
    }
    return true
  }

  private func forEachIdentifier(
    ofClass typeClass: Int, weight: Int, _ scope: inout PredicateScope,
    _ body: (_ element: Int, _ weight: Int, _ scope: inout PredicateScope) -> Bool
  ) -> Bool {
    for identifier in selection.typeClasses[typeClass].identifiers where !body(identifier, weight, &scope) {
      return false
    }
    return true
  }

  // MARK: Comparisons

  /// Whether `left op right` holds: the one comparison, which the rule trace asks too.
  func compare(_ left: Value, _ op: Predicate.Operator, _ right: Value) -> Bool {
    switch op {
    case .conformsTo:
      guard case .typeIdentifier(let identifier) = left, case .string(let type) = right else { return false }
      return selection.identifier(identifier, conformsTo: type)
    case .typeEquals:
      guard case .typeIdentifier(let identifier) = left, case .string(let type) = right else { return false }
      return selection.identifiers[identifier] == type
    case .equal:
      return equal(left, right)
    case .notEqual:
      return !equal(left, right)
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      guard let order = order(left, right) else { return false }
      return op.holds(forOrder: order)
    case .beginsWith, .endsWith, .contains, .like:
      guard let string = self.string(left), let other = self.string(right) else { return false }
      return op.holds(string, other)
    }
  }

  func string(_ value: Value) -> String? {
    switch value {
    case .string(let string): string
    case .typeIdentifier(let identifier): selection.identifiers[identifier]
    default: nil
    }
  }

  private func equal(_ left: Value, _ right: Value) -> Bool {
    switch (left, right) {
    case (.null, .null), (.emptyDictionary, .emptyDictionary): return true
    case (.number(let a), .number(let b)): return a == b
    case (.typeIdentifier(let a), .typeIdentifier(let b)): return a == b
    default:
      guard let a = string(left), let b = string(right) else { return false }
      return a == b
    }
  }

  /// -1, 0 or 1 for numbers and strings; nil for anything else, which orders with nothing.
  private func order(_ left: Value, _ right: Value) -> Int? {
    if case .number(let a) = left, case .number(let b) = right {
      return a < b ? -1 : a > b ? 1 : a == b ? 0 : nil
    }
    guard let a = string(left), let b = string(right) else { return nil }
    return a < b ? -1 : a == b ? 0 : 1
  }

  /// `LIKE`: `*` matches any run of characters, `?` exactly one.
  static func matches(_ string: String, like pattern: String) -> Bool {
    var s = string.startIndex
    var p = pattern.startIndex
    // Where the last `*` was and where its run stopped; on a mismatch the run grows by one.
    var star: (pattern: String.Index, string: String.Index)?
    while s < string.endIndex {
      if p < pattern.endIndex, pattern[p] == "*" {
        star = (pattern.index(after: p), s)
        p = pattern.index(after: p)
      } else if p < pattern.endIndex, pattern[p] == "?" || pattern[p] == string[s] {
        p = pattern.index(after: p)
        s = string.index(after: s)
      } else if let last = star {
        let grown = string.index(after: last.string)
        star = (last.pattern, grown)
        p = last.pattern
        s = grown
      } else {
        return false
      }
    }
    while p < pattern.endIndex, pattern[p] == "*" { p = pattern.index(after: p) }
    return p == pattern.endIndex
  }
}

/// How many elements a collection stands for: the weights its `forEach` visits, added up. What
/// both evaluators (the tree's and the compiled rules') count when they have no shorter way.
func totalWeight<State>(
  _ state: inout State,
  visiting forEach: (inout State, (_ element: Int, _ weight: Int, _ state: inout State) -> Bool) -> Bool
) -> Int {
  var total = 0
  _ = forEach(&state) { _, weight, _ in
    total += weight
    return true
  }
  return total
}

extension Predicate.Operator {
  /// For an ordering operator, whether it holds of two values that order as `order` (-1, 0, 1);
  /// what both evaluators (the tree's and the compiled rules') answer.
  func holds(forOrder order: Int) -> Bool {
    switch self {
    case .less: order < 0
    case .lessOrEqual: order <= 0
    case .greater: order > 0
    default: order >= 0
    }
  }

  /// For a string operator (`BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`), whether it holds of
  /// `string` and `other`.
  func holds(_ string: String, _ other: String) -> Bool {
    switch self {
    case .beginsWith: string.hasPrefix(other)
    case .endsWith: string.hasSuffix(other)
    case .contains: string.contains(other)
    default: PredicateEvaluator.matches(string, like: other)
    }
  }
}
