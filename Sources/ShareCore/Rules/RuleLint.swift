/// What can be known of a rule before anything is shared: whether some selection could make it
/// hold, and whether some could make it fail. A rule that can never hold keeps its service out
/// of every sheet; one that can never fail puts it in every sheet. Both are warnings at
/// `validate` and `install`, naming the clause to blame.
///
/// The analysis is of the rule's shape, not of every selection: counts range over what a
/// selection can have (xdg-share shares one extension item, with at least one attachment), and
/// other comparisons are taken to go either way. So it never warns of a rule that some
/// selection accepts, though it may miss one that none does.
public enum RuleLint {
  /// What is wrong, for ``BundleProblem/Kind/ruleNeverHolds(clause:reason:)``.
  public enum Reason: Hashable, Sendable {
    /// `FALSEPREDICATE`.
    case falsePredicate
    /// A count compared with a bound none of its values meets (what it counts, and the range it
    /// has).
    case unmeetableCount(RuleTrace.CountedThing, minimum: Int, maximum: Int?)
    /// A dictionary rule's `…AttachmentsWithMinCount` above what the rest of it allows.
    case minimumAboveMaximum(minimum: Int, maximum: Int)
  }

  /// The clause that keeps `rule` from ever accepting, and why; nil when some selection may.
  public static func neverAccepts(_ rule: ActivationRule) -> (clause: String, reason: Reason)? {
    switch rule {
    case .dictionary(let rule):
      typealias Key = InfoPlistKey.Rule
      guard let minimum = rule.minAttachments else { return nil }
      if let maximum = rule.maxAttachments, minimum > maximum {
        return (
          "\(Key.minAttachments) = \(minimum)", .minimumAboveMaximum(minimum: minimum, maximum: maximum)
        )
      }
      // Strict matching takes only declared kinds, each up to its maximum; text has none.
      guard rule.maxAttachments == nil, rule.isStrict, !rule.supportsText else { return nil }
      let most = DictionaryRule.Category.order.compactMap(rule.maximum).reduce(0, +)
      guard minimum > most else { return nil }
      return ("\(Key.minAttachments) = \(minimum)", .minimumAboveMaximum(minimum: minimum, maximum: most))
    case .predicate(let predicate):
      return Analysis().blame(predicate, PredicateNames())
    }
  }

  /// Whether `rule` accepts every selection (`TRUEPREDICATE`, or a predicate that cannot fail).
  public static func acceptsEverything(_ rule: ActivationRule) -> Bool {
    guard case .predicate(let predicate) = rule else { return false }
    return !Analysis().canFail(predicate)
  }

  /// The type identifiers `rule` asks about (`UTI-CONFORMS-TO`, `UTI-EQUALS`) for which `isKnown`
  /// is false, each with the first clause that names it.
  public static func unknownTypes(in rule: ActivationRule, isKnown: (String) -> Bool) -> [(
    type: String, clause: String
  )] {
    guard case .predicate(let predicate) = rule else { return [] }
    var found: [(type: String, clause: String)] = []
    func visit(_ predicate: Predicate, _ names: PredicateNames) {
      switch predicate {
      case .constant: break
      case .not(let inner): visit(inner, names)
      case .and(let operands), .or(let operands): for operand in operands { visit(operand, names) }
      case .comparison(let left, let op, let right):
        if case .count(let collection) = left { visit(collection, names) }
        if case .count(let collection) = right { visit(collection, names) }
        ask(op, right, predicate, names)
      case .quantified(_, let collection, let op, let right):
        visit(collection, names)
        ask(op, right, predicate, names)
      }
    }
    func visit(_ collection: Predicate.CollectionExpression, _ names: PredicateNames) {
      switch collection {
      case .extensionItems, .attachments(of: .variable), .registeredTypeIdentifiers(of: .variable): break
      case .attachments(of: .each(let inner)), .registeredTypeIdentifiers(of: .each(let inner)):
        visit(inner, names)
      case .subquery(let inner, let depth, let name, let predicate):
        visit(inner, names)
        var inside = names
        inside.bind(depth, name)
        visit(predicate, inside)
      }
    }
    func ask(
      _ op: Predicate.Operator, _ right: Predicate.Operand, _ clause: Predicate, _ names: PredicateNames
    ) {
      guard op == .conformsTo || op == .typeEquals, case .constant(.string(let type)) = right, !isKnown(type),
        !found.contains(where: { $0.type == type })
      else { return }
      var rendered = names
      found.append((type, PredicateSource.predicate(clause, &rendered)))
    }
    visit(predicate, PredicateNames())
    return found
  }

  /// Whether a predicate can hold and can fail, by the values each count can take.
  private struct Analysis {
    func canHold(_ predicate: Predicate) -> Bool {
      switch predicate {
      case .constant(let value): value
      case .not(let inner): canFail(inner)
      case .and(let operands): operands.allSatisfy(canHold)
      case .or(let operands): operands.contains(where: canHold)
      case .comparison(let left, let op, let right): outcomes(left, op, right).hold
      case .quantified: true
      }
    }

    func canFail(_ predicate: Predicate) -> Bool {
      switch predicate {
      case .constant(let value): !value
      case .not(let inner): canHold(inner)
      case .and(let operands): operands.contains(where: canFail)
      case .or(let operands): operands.allSatisfy(canFail)
      case .comparison(let left, let op, let right): outcomes(left, op, right).fail
      case .quantified: true
      }
    }

    /// The clause to blame for `predicate` never holding: the innermost one that cannot hold on
    /// its own account (a count against a bound it cannot meet, a constant), found along the
    /// parts that cannot hold.
    func blame(_ predicate: Predicate, _ names: PredicateNames) -> (clause: String, reason: Reason)? {
      guard !canHold(predicate) else { return nil }
      // The clause as it reads inside the SUBQUERYs around it, their variables named.
      var rendered = names
      let source = PredicateSource.predicate(predicate, &rendered)
      switch predicate {
      case .and(let operands):
        return operands.first(where: { !canHold($0) }).flatMap { blame($0, names) } ?? (
          source, .falsePredicate
        )
      case .or(let operands):
        return operands.first.flatMap { blame($0, names) } ?? (source, .falsePredicate)
      case .comparison(let left, _, _):
        guard case .count(let collection) = left, let range = range(of: collection) else {
          return (source, .falsePredicate)
        }
        // A SUBQUERY whose condition never holds counts nothing: that condition is to blame.
        if case .subquery(_, let depth, let name, let inner) = collection, !canHold(inner) {
          var inside = names
          inside.bind(depth, name)
          if let deeper = blame(inner, inside) { return deeper }
        }
        return (source, .unmeetableCount(range.thing, minimum: range.minimum, maximum: range.maximum))
      case .constant, .not, .quantified:
        return (source, .falsePredicate)
      }
    }

    /// Whether a comparison can hold and can fail: decided only for a count against a number.
    private func outcomes(_ left: Predicate.Operand, _ op: Predicate.Operator, _ right: Predicate.Operand)
      -> (
        hold: Bool, fail: Bool
      )
    {
      guard case .count(let collection) = left, case .constant(.number(let bound)) = right,
        let range = range(of: collection)
      else { return (true, true) }
      // The counts worth trying: the ends of the range and the integers around the bound.
      var candidates = [range.minimum, range.minimum + 1]
      if let maximum = range.maximum { candidates.append(maximum) }
      let near = bound.rounded(.down)
      if near.isFinite, abs(near) < 1e9 {
        for offset in -1...2 { candidates.append(Int(near) + offset) }
      }
      if range.maximum == nil { candidates.append(Int.max / 2) }
      let possible = candidates.filter { $0 >= range.minimum && $0 <= (range.maximum ?? .max) }
      let results = possible.map { Self.compare(Double($0), op, bound) }
      return (results.contains(true), results.contains(false))
    }

    private static func compare(_ count: Double, _ op: Predicate.Operator, _ bound: Double) -> Bool {
      switch op {
      case .equal: count == bound
      case .notEqual: count != bound
      case .less: count < bound
      case .lessOrEqual: count <= bound
      case .greater: count > bound
      case .greaterOrEqual: count >= bound
      default: false
      }
    }

    /// What a collection's count can be: one extension item; at least one attachment in it; for
    /// a SUBQUERY, from none to its collection's most, none at all when its condition never
    /// holds, and all of them when it cannot fail.
    private func range(of collection: Predicate.CollectionExpression) -> (
      thing: RuleTrace.CountedThing, minimum: Int, maximum: Int?
    )? {
      switch collection {
      case .extensionItems: return (.items, 1, 1)
      case .attachments: return (.attachments, 1, nil)
      case .registeredTypeIdentifiers: return nil
      case .subquery(let inner, _, _, let predicate):
        guard let whole = range(of: inner) else { return nil }
        if !canHold(predicate) { return (whole.thing, 0, 0) }
        if !canFail(predicate) { return whole }
        return (whole.thing, 0, whole.maximum)
      }
    }
  }
}
