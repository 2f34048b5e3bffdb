/// A predicate written back as `NSPredicate` format text: what `xdg-share why` and refusals quote
/// of a rule. The parser keeps no source, but each SUBQUERY keeps its variable's name: the rule
/// reads as its author wrote it (`$e`, `$a`), spaced and parenthesized anew.
extension Predicate {
  /// The predicate as format text, parenthesized where an operand is compound.
  public var source: String {
    var names = PredicateNames()
    return PredicateSource.predicate(self, &names)
  }
}

/// The names of the SUBQUERY variables in force, by depth, with their `$`.
struct PredicateNames {
  private var byDepth: [Int: String] = [:]

  // Only a tree built by hand can use a depth no SUBQUERY around it binds.
  subscript(depth: Int) -> String { byDepth[depth] ?? "$v\(depth)" }

  /// Binds the variable at `depth` to the name its SUBQUERY gives it (without `$`). A name an
  /// outer SUBQUERY gave too is shadowed inside, as the parser reads it.
  mutating func bind(_ depth: Int, _ name: String) {
    byDepth[depth] = "$" + name
  }
}

enum PredicateSource {
  static func predicate(_ predicate: Predicate, _ names: inout PredicateNames) -> String {
    switch predicate {
    case .constant(let value): value ? "TRUEPREDICATE" : "FALSEPREDICATE"
    case .not(let operand): "NOT " + grouped(operand, &names)
    case .and(let operands): operands.map { grouped($0, &names) }.joined(separator: " AND ")
    case .or(let operands): operands.map { grouped($0, &names) }.joined(separator: " OR ")
    case .comparison(let left, let op, let right):
      "\(operand(left, &names)) \(self.op(op)) \(operand(right, &names))"
    case .quantified(let quantifier, let collection, let op, let right):
      "\(self.quantifier(quantifier)) \(self.collection(collection, &names)) \(self.op(op)) \(operand(right, &names))"
    }
  }

  /// A compound operand in parentheses.
  private static func grouped(_ predicate: Predicate, _ names: inout PredicateNames) -> String {
    switch predicate {
    case .and, .or, .not: "(" + self.predicate(predicate, &names) + ")"
    default: self.predicate(predicate, &names)
    }
  }

  static func operand(_ operand: Predicate.Operand, _ names: inout PredicateNames) -> String {
    switch operand {
    case .constant(let constant): self.constant(constant)
    case .typeIdentifier(let depth): names[depth]
    case .itemValue(let value, let depth): names[depth] + "." + key(value)
    case .count(let collection): self.collection(collection, &names) + ".@count"
    }
  }

  static func key(_ value: Predicate.ItemValue) -> String {
    switch value {
    case .attributedContentText: "attributedContentText"
    case .attributedTitle: "attributedTitle"
    case .userInfo: "userInfo"
    }
  }

  static func collection(_ collection: Predicate.CollectionExpression, _ names: inout PredicateNames)
    -> String
  {
    switch collection {
    case .extensionItems: "extensionItems"
    case .attachments(let source): self.source(source, &names) + ".attachments"
    case .registeredTypeIdentifiers(let source): self.source(source, &names) + ".registeredTypeIdentifiers"
    case .subquery(let inner, let depth, let name, let predicate):
      subquery(inner, depth, name, predicate, &names)
    }
  }

  private static func subquery(
    _ inner: Predicate.CollectionExpression, _ depth: Int, _ name: String, _ predicate: Predicate,
    _ names: inout PredicateNames
  ) -> String {
    let over = collection(inner, &names)
    names.bind(depth, name)
    return "SUBQUERY(\(over), \(names[depth]), \(self.predicate(predicate, &names)))"
  }

  private static func source(_ source: Predicate.Source, _ names: inout PredicateNames) -> String {
    switch source {
    case .variable(let depth): names[depth]
    case .each(let collection): self.collection(collection, &names)
    }
  }

  static func constant(_ constant: Predicate.Constant) -> String {
    switch constant {
    case .null: "NIL"
    case .bool(let value): value ? "TRUE" : "FALSE"
    case .number(let value):
      value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    // Quoted as format text quotes it, control characters escaped so that no rule can forge a
    // line of `why`'s output.
    case .string(let text): Diagnostics.quoted(text)
    }
  }

  static func op(_ op: Predicate.Operator) -> String {
    switch op {
    case .equal: "=="
    case .notEqual: "!="
    case .less: "<"
    case .lessOrEqual: "<="
    case .greater: ">"
    case .greaterOrEqual: ">="
    case .beginsWith: "BEGINSWITH"
    case .endsWith: "ENDSWITH"
    case .contains: "CONTAINS"
    case .like: "LIKE"
    case .conformsTo: "UTI-CONFORMS-TO"
    case .typeEquals: "UTI-EQUALS"
    }
  }

  static func quantifier(_ quantifier: Predicate.Quantifier) -> String {
    switch quantifier {
    case .any: "ANY"
    case .all: "ALL"
    case .none: "NONE"
    }
  }
}
