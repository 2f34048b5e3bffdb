// Longer than 400 lines on purpose: the compiler, the flat tables and the evaluator, which
// follows PredicateEvaluator step by step and must stay beside what it reads, in one place.

/// Many activation rules made ready to be asked about one selection after another, as the D-Bus
/// service and `xdg-share list` do with every installed service.
///
/// Why not walk each ``Predicate`` tree: its cases are boxes and arrays, and reading them costs
/// reference counting on every node, which was most of what matching 200 rules against a type
/// never seen before cost. Here each predicate is one run of plain nodes in one array, and the
/// string constants of all rules sit in one table: a type question (`UTI-CONFORMS-TO "x"`,
/// `UTI-EQUALS "x"`) is answered once per selection identifier and constant, however many rules
/// ask it. The answers are exactly those of ``Predicate/evaluate(_:)`` and
/// ``DictionaryRule/accepts(_:)``.
///
/// Rules of one shape (see ``ProgramBuilder/shape(of:)``) are answered once per selection for each
/// way their type constants answer: a constant is read only through whether each of the
/// selection's identifiers is it or conforms to it, so constants that answer alike for every
/// identifier are interchangeable. For a PNG, `image/jpeg` and `application/pdf` answer alike
/// (no identifier is either or conforms to either), and so do `image/*` and `public.image` (each
/// identifier conforms to both and is neither). The hundreds of services written from the same
/// template ("every attachment is one of these types") give one answer per template and way, not
/// one per service: most of them name none of the selection's types, and those that take it
/// mostly take it alike.
public struct CompiledRules: Sendable {
  private enum Rule {
    case dictionary(DictionaryRule)
    /// `typeConstants`: the range of ``CompiledRules/typeConstants`` holding the string
    /// constants the rule's type questions name; the rule's answer depends on them only through
    /// the answers to those questions. No shape when shapes were not looked for.
    case predicate(root: Int, shape: Int?, typeConstants: Range<Int>)
  }

  private let rules: [Rule]
  private let program: Program
  private let typeConstants: [Int]
  private let shapeCount: Int

  /// Compiles `rules`, in order.
  public init(_ rules: [ActivationRule]) {
    self.init(rules, findingShapesFrom: 16)
  }

  /// Compiles `rules`, finding their shapes when there are at least `minimum` (fewer rules than
  /// that cost less to evaluate than the table of shapes costs a short-lived process to set up).
  init(_ rules: [ActivationRule], findingShapesFrom minimum: Int) {
    let findsShapes = rules.count >= minimum
    var builder = ProgramBuilder()
    var shapes: [ProgramBuilder.Shape: Int] = [:]
    var typeConstants: [Int] = []
    self.rules = rules.map { rule in
      switch rule {
      case .dictionary(let dictionary):
        return .dictionary(dictionary)
      case .predicate(let predicate):
        let root = builder.predicate(predicate)
        guard findsShapes else { return .predicate(root: root, shape: nil, typeConstants: 0..<0) }
        let (shape, constants) = builder.shape(of: root)
        let number = shapes[shape] ?? shapes.count
        shapes[shape] = number
        let start = typeConstants.count
        typeConstants += constants
        return .predicate(root: root, shape: number, typeConstants: start..<typeConstants.count)
      }
    }
    program = builder.program
    self.typeConstants = typeConstants
    shapeCount = shapes.count
  }

  /// How many rules there are.
  public var count: Int { rules.count }

  /// The positions of the rules that accept `selection`, ascending.
  public func accepting(_ selection: ActivationSelection) -> [Int] {
    var state = ProgramState(
      identifiers: selection.identifiers.count, constants: program.strings.count)
    let evaluator = ProgramEvaluator(program: program, selection: SelectionTables(selection))
    var kinds = ConstantKinds(constants: program.strings.count)
    // By shape: the answer of its rules that name none of the selection's types (0 not known,
    // 1 no, 2 yes). An array, not the dictionary below: most rules are of this case.
    var answerNamingNone = [UInt8](repeating: 0, count: shapeCount)
    // By shape and the kinds of its constants, packed (see `key`): the answer of its rules that
    // name some of the selection's types.
    var answerByKinds: [Int: Bool] = [:]
    var accepted: [Int] = []
    for index in rules.indices {
      let accepts: Bool
      switch rules[index] {
      case .dictionary(let rule):
        accepts = rule.accepts(selection)
      case .predicate(let root, nil, _):
        accepts = evaluator.holds(root, &state)
      case .predicate(let root, let shape?, let constants):
        // The shape in the high bits, each constant's kind in four bits from the lowest; nil
        // when they do not fit (a shape past 32,767, more than 12 constants) or when a
        // constant's answers were not told apart from others'.
        var key: Int? = shape < 1 << 15 && constants.count <= 12 ? shape << 48 : nil
        var namesNone = true
        for (position, constant) in typeConstants[constants].enumerated() {
          let kind = kinds.kind(of: constant, evaluator, &state)
          if kind != ConstantKinds.namesNone { namesNone = false }
          key = kind == ConstantKinds.unshared ? nil : key.map { $0 | Int(kind) << (4 * position) }
        }
        if namesNone {
          if answerNamingNone[shape] == 0 { answerNamingNone[shape] = evaluator.holds(root, &state) ? 2 : 1 }
          accepts = answerNamingNone[shape] == 2
        } else if let key {
          if let known = answerByKinds[key] {
            accepts = known
          } else {
            accepts = evaluator.holds(root, &state)
            answerByKinds[key] = accepts
          }
        } else {
          accepts = evaluator.holds(root, &state)
        }
      }
      if accepts { accepted.append(index) }
    }
    return accepted
  }

  /// Whether rule number `index` accepts `selection`.
  public func accepts(_ index: Int, _ selection: ActivationSelection) -> Bool {
    switch rules[index] {
    case .dictionary(let rule): return rule.accepts(selection)
    case .predicate(let root, _, _):
      var state = ProgramState(identifiers: selection.identifiers.count, constants: program.strings.count)
      return ProgramEvaluator(program: program, selection: SelectionTables(selection)).holds(root, &state)
    }
  }
}

/// Predicates as plain nodes: predicates, operands and collections alike, children by index.
struct Program: Sendable {
  enum Kind: UInt8 {
    // Predicates.
    case constant, not, and, or, comparison, quantified
    // Operands.
    case null, number, string, typeIdentifier, itemText, itemTitle, userInfo, count
    // Collections.
    case extensionItems, attachmentsOfVariable, attachmentsOfEach, identifiersOfVariable, identifiersOfEach
    case subquery
  }

  /// One node. What `a`, `b` and `c` hold depends on the kind:
  /// constant: a = 0 or 1; not: a = operand; and/or: a = first in ``operands``, b = count;
  /// comparison: a, b = operands; quantified: a = collection, b = right operand;
  /// number: a = index in ``numbers``; string: a = index in ``strings``; typeIdentifier, itemText: a = depth;
  /// count: a = collection; …OfVariable: a = depth; …OfEach: a = collection;
  /// subquery: a = collection, b = depth, c = predicate.
  /// Sixteen bytes, so that reading one costs little: numbers are in ``numbers``.
  struct Node: Hashable {
    var kind: Kind
    var op: Predicate.Operator = .equal
    var quantifier: Predicate.Quantifier = .any
    private var storedA: Int32 = 0
    private var storedB: Int32 = 0
    private var storedC: Int32 = 0

    init(
      kind: Kind, op: Predicate.Operator = .equal, quantifier: Predicate.Quantifier = .any, a: Int = 0,
      b: Int = 0, c: Int = 0
    ) {
      self.kind = kind
      self.op = op
      self.quantifier = quantifier
      // A rule would need billions of nodes to pass these; Int32(clamping:) keeps that harmless.
      storedA = Int32(clamping: a)
      storedB = Int32(clamping: b)
      storedC = Int32(clamping: c)
    }

    var a: Int { Int(storedA) }
    var b: Int { Int(storedB) }
    var c: Int { Int(storedC) }
  }

  var nodes: [Node] = []
  /// The operands of `and` and `or` nodes.
  var operands: [Int] = []
  /// Every string constant, each once.
  var strings: [String] = []
  /// The number constants.
  var numbers: [Double] = []
}

private struct ProgramBuilder {
  var program = Program()
  var stringIndex: [String: Int] = [:]

  mutating func add(_ node: Program.Node) -> Int {
    program.nodes.append(node)
    return program.nodes.count - 1
  }

  mutating func predicate(_ predicate: Predicate) -> Int {
    switch predicate {
    case .constant(let value):
      return add(.init(kind: .constant, a: value ? 1 : 0))
    case .not(let operand):
      return add(.init(kind: .not, a: self.predicate(operand)))
    case .and(let operands), .or(let operands):
      let children = operands.map { self.predicate($0) }
      let start = program.operands.count
      program.operands += children
      let kind: Program.Kind = if case .and = predicate { .and } else { .or }
      return add(.init(kind: kind, a: start, b: children.count))
    case .comparison(let left, let op, let right):
      let left = operand(left)
      return add(.init(kind: .comparison, op: op, a: left, b: operand(right)))
    case .quantified(let quantifier, let collection, let op, let right):
      let collection = self.collection(collection)
      return add(.init(kind: .quantified, op: op, quantifier: quantifier, a: collection, b: operand(right)))
    }
  }

  mutating func operand(_ operand: Predicate.Operand) -> Int {
    switch operand {
    case .constant(.null): return add(.init(kind: .null))
    case .constant(.bool(let value)): return number(value ? 1 : 0)
    case .constant(.number(let value)): return number(value)
    case .constant(.string(let value)): return add(.init(kind: .string, a: string(value)))
    case .typeIdentifier(let depth): return add(.init(kind: .typeIdentifier, a: depth))
    case .itemValue(.attributedContentText, let depth): return add(.init(kind: .itemText, a: depth))
    case .itemValue(.attributedTitle, _): return add(.init(kind: .itemTitle))
    case .itemValue(.userInfo, _): return add(.init(kind: .userInfo))
    case .count(let collection): return add(.init(kind: .count, a: self.collection(collection)))
    }
  }

  mutating func collection(_ collection: Predicate.CollectionExpression) -> Int {
    switch collection {
    case .extensionItems:
      return add(.init(kind: .extensionItems))
    case .attachments(of: .variable(let depth)):
      return add(.init(kind: .attachmentsOfVariable, a: depth))
    case .attachments(of: .each(let source)):
      return add(.init(kind: .attachmentsOfEach, a: self.collection(source)))
    case .registeredTypeIdentifiers(of: .variable(let depth)):
      return add(.init(kind: .identifiersOfVariable, a: depth))
    case .registeredTypeIdentifiers(of: .each(let source)):
      return add(.init(kind: .identifiersOfEach, a: self.collection(source)))
    case .subquery(let source, let depth, _, let predicate):
      let source = self.collection(source)
      return add(.init(kind: .subquery, a: source, b: depth, c: self.predicate(predicate)))
    }
  }

  mutating func number(_ value: Double) -> Int {
    program.numbers.append(value)
    return add(.init(kind: .number, a: program.numbers.count - 1))
  }

  mutating func string(_ value: String) -> Int {
    if let known = stringIndex[value] { return known }
    stringIndex[value] = program.strings.count
    program.strings.append(value)
    return program.strings.count - 1
  }

  /// A predicate with the constants of its type questions left out: its nodes in depth-first
  /// order, children implied by each node's kind, numbers by value, each string constant that
  /// is the right side of `UTI-EQUALS` or `UTI-CONFORMS-TO` by the order it first appears in.
  /// Those constants are read only through the answers to the type questions, so two rules of one
  /// shape whose constants all answer alike answer alike.
  struct Shape: Hashable {
    var nodes: [Program.Node] = []
    var numbers: [UInt64] = []
  }

  /// The shape of the predicate under `root`, and the constants it leaves out, in order.
  func shape(of root: Int) -> (shape: Shape, typeConstants: [Int]) {
    var shape = Shape()
    var constants: [Int] = []
    func visit(_ index: Int, askedAboutTypes: Bool = false) {
      let node = program.nodes[index]
      switch node.kind {
      case .constant, .null, .typeIdentifier, .itemText, .itemTitle, .userInfo, .extensionItems,
        .attachmentsOfVariable, .identifiersOfVariable:
        shape.nodes.append(node)
      case .not, .count, .attachmentsOfEach, .identifiersOfEach:
        shape.nodes.append(.init(kind: node.kind))
        visit(node.a)
      case .and, .or:
        shape.nodes.append(.init(kind: node.kind, b: node.b))
        for operand in program.operands[node.a..<(node.a + node.b)] { visit(operand) }
      case .comparison, .quantified:
        shape.nodes.append(.init(kind: node.kind, op: node.op, quantifier: node.quantifier))
        visit(node.a)
        visit(node.b, askedAboutTypes: node.op == .typeEquals || node.op == .conformsTo)
      case .number:
        shape.nodes.append(.init(kind: .number, a: shape.numbers.count))
        shape.numbers.append(program.numbers[node.a].bitPattern)
      case .string where askedAboutTypes:
        let order = constants.firstIndex(of: node.a) ?? constants.count
        if order == constants.count { constants.append(node.a) }
        shape.nodes.append(.init(kind: .string, a: order, b: 1))
      case .string:
        shape.nodes.append(node)
      case .subquery:
        shape.nodes.append(.init(kind: .subquery, b: node.b))
        visit(node.a)
        visit(node.c)
      }
    }
    visit(root)
    return (shape, constants)
  }
}

/// The string constants of type questions sorted by how they answer for one selection: two
/// constants of one kind give the same answer to every type question about any of the selection's
/// identifiers, and so any rule answers alike with one in place of the other.
private struct ConstantKinds {
  /// The kind of the constants that no identifier of the selection is or conforms to.
  static let namesNone: UInt8 = 1
  /// The kind of a constant whose answers were not told apart from others' (a selection of more
  /// than 32 identifiers, or more than 14 ways of answering): its rules are evaluated each.
  static let unshared: UInt8 = 0xFF

  /// By constant: 0 not yet asked, else its kind.
  private var kinds: [UInt8]
  /// The answers of kind `k` (2 to 15) are `answers[k - 2]`: two bits per identifier, whether
  /// it is the constant and whether it conforms to it.
  private var answers: [UInt64] = []

  init(constants: Int) {
    kinds = [UInt8](repeating: 0, count: constants)
  }

  mutating func kind(of constant: Int, _ evaluator: ProgramEvaluator, _ state: inout ProgramState) -> UInt8 {
    if kinds[constant] != 0 { return kinds[constant] }
    let kind: UInt8
    if let found = evaluator.answers(constant, &state) {
      if found == 0 {
        kind = Self.namesNone
      } else if let known = answers.firstIndex(of: found) {
        kind = UInt8(known + 2)
      } else if answers.count < 14 {
        answers.append(found)
        kind = UInt8(answers.count + 1)
      } else {
        kind = Self.unshared
      }
    } else {
      kind = evaluator.namesAnyType(constant, &state) ? Self.unshared : Self.namesNone
    }
    kinds[constant] = kind
    return kind
  }
}

/// What one evaluation changes: the SUBQUERY variables, and the type answers found so far.
struct ProgramState {
  var scope = PredicateScope()
  /// By identifier × string constant. One table for `UTI-CONFORMS-TO`, one for equality.
  var conforms: AnswerTable
  var equals: AnswerTable
  let constants: Int

  init(identifiers: Int, constants: Int) {
    self.constants = constants
    conforms = AnswerTable(slots: identifiers * constants)
    equals = conforms
  }
}

/// Type answers already found, by slot: a flat table while identifiers × constants is small (the
/// common case, no hashing), a dictionary of the answers actually asked beyond that, so that a
/// call naming thousands of made-up types against a thousand services does not zero megabytes.
struct AnswerTable {
  /// Slots up to which a flat table is used: 64 KiB per table.
  static let flatLimit = 1 << 16
  /// 0 not yet asked, 1 no, 2 yes.
  private var flat: [UInt8]
  private var asked: [Int: Bool] = [:]

  init(slots: Int) {
    flat = slots <= Self.flatLimit ? Array(repeating: 0, count: slots) : []
  }

  mutating func answer(_ slot: Int, _ compute: () -> Bool) -> Bool {
    guard flat.isEmpty else {
      if flat[slot] == 0 { flat[slot] = compute() ? 2 : 1 }
      return flat[slot] == 2
    }
    if let known = asked[slot] { return known }
    let found = compute()
    asked[slot] = found
    return found
  }
}

/// A value met during evaluation: type identifiers and strings stay indices.
private enum ProgramValue {
  case null
  case number(Double)
  /// A string constant, by its index.
  case constant(Int)
  /// The `attributedContentText` of the item with this index (which has one).
  case text(Int)
  case typeIdentifier(Int)
  case emptyDictionary
}

/// What a ``Program`` reads of an ``ActivationSelection``, in flat arrays of integers: reading
/// the selection's arrays of structures holding arrays costs reference counting on every step.
private struct SelectionTables {
  let selection: ActivationSelection
  /// Type class `c`'s identifiers are `classIdentifiers[classStart[c]..<classStart[c + 1]]`.
  let classIdentifiers: [Int]
  let classStart: [Int]
  /// Item `i`'s type classes, each once with its count, are at `itemStart[i]..<itemStart[i + 1]`
  /// of `itemClass` and `itemClassCount`.
  let itemClass: [Int]
  let itemClassCount: [Int]
  let itemStart: [Int]
  /// How many attachments each item has.
  let itemAttachments: [Int]

  init(_ selection: ActivationSelection) {
    self.selection = selection
    var classIdentifiers: [Int] = []
    var classStart = [0]
    for typeClass in selection.typeClasses {
      classIdentifiers += typeClass.identifiers
      classStart.append(classIdentifiers.count)
    }
    var itemClass: [Int] = []
    var itemClassCount: [Int] = []
    var itemStart = [0]
    for item in selection.items {
      for (typeClass, count) in item.classCounts {
        itemClass.append(typeClass)
        itemClassCount.append(count)
      }
      itemStart.append(itemClass.count)
    }
    self.classIdentifiers = classIdentifiers
    self.classStart = classStart
    self.itemClass = itemClass
    self.itemClassCount = itemClassCount
    self.itemStart = itemStart
    itemAttachments = selection.items.map(\.attachmentClasses.count)
  }

  var itemCount: Int { itemAttachments.count }
  var identifierCount: Int { selection.identifiers.count }

  func identifiers(ofClass typeClass: Int) -> Range<Int> { classStart[typeClass]..<classStart[typeClass + 1] }
  func classes(ofItem item: Int) -> Range<Int> { itemStart[item]..<itemStart[item + 1] }
}

/// ``PredicateEvaluator`` over a ``Program``: the same steps, node by node.
private struct ProgramEvaluator {
  let program: Program
  let selection: SelectionTables

  func holds(_ node: Int, _ state: inout ProgramState) -> Bool {
    let node = program.nodes[node]
    switch node.kind {
    case .constant:
      return node.a != 0
    case .not:
      return !holds(node.a, &state)
    case .and:
      for index in node.a..<(node.a + node.b) where !holds(program.operands[index], &state) { return false }
      return true
    case .or:
      for index in node.a..<(node.a + node.b) where holds(program.operands[index], &state) { return true }
      return false
    case .comparison:
      let left = value(of: node.a, &state)
      return compare(left, node.op, value(of: node.b, &state), &state)
    case .quantified:
      let right = value(of: node.b, &state)
      let quantifier = node.quantifier
      let decisive = quantifier != .all
      let collection = program.nodes[node.a]
      if collection.kind == .identifiersOfVariable {
        let identifiers = selection.identifiers(ofClass: state.scope[collection.a])
        // Every real rule's question, `ANY $a.registeredTypeIdentifiers UTI-… "constant"`, is
        // a lookup in the answers table.
        if case .constant(let constant) = right, node.op == .typeEquals || node.op == .conformsTo {
          let equality = node.op == .typeEquals
          for index in identifiers {
            let identifier = selection.classIdentifiers[index]
            let answer =
              equality ? sameAs(identifier, constant, &state) : conforms(identifier, constant, &state)
            if answer == decisive { return quantifier == .any }
          }
          return quantifier != .any
        }
        for index in identifiers
        where compare(.typeIdentifier(selection.classIdentifiers[index]), node.op, right, &state) == decisive
        {
          return quantifier == .any
        }
        return quantifier != .any
      }
      let finished = forEach(node.a, &state) { identifier, _, state in
        compare(.typeIdentifier(identifier), node.op, right, &state) != decisive
      }
      return finished != (quantifier == .any)
    default:
      return false
    }
  }

  private func value(of node: Int, _ state: inout ProgramState) -> ProgramValue {
    let node = program.nodes[node]
    switch node.kind {
    case .number: return .number(program.numbers[node.a])
    case .string: return .constant(node.a)
    case .typeIdentifier: return .typeIdentifier(state.scope[node.a])
    case .itemText:
      let item = state.scope[node.a]
      return selection.selection.items[item].attributedContentText == nil ? .null : .text(item)
    case .userInfo: return .emptyDictionary
    case .count: return .number(Double(count(node.a, &state)))
    default: return .null
    }
  }

  private func count(_ collection: Int, _ state: inout ProgramState) -> Int {
    let node = program.nodes[collection]
    switch node.kind {
    case .extensionItems:
      return selection.itemCount
    case .attachmentsOfVariable:
      return selection.itemAttachments[state.scope[node.a]]
    case .subquery where program.nodes[node.a].kind == .extensionItems:
      var total = 0
      for item in 0..<selection.itemCount {
        state.scope[node.b] = item
        if holds(node.c, &state) { total += 1 }
      }
      return total
    case .subquery where program.nodes[node.a].kind == .attachmentsOfVariable:
      // By type class, as PredicateEvaluator does: each class once, weighed by its count.
      let item = state.scope[program.nodes[node.a].a]
      var total = 0
      for index in selection.classes(ofItem: item) {
        state.scope[node.b] = selection.itemClass[index]
        if holds(node.c, &state) { total += selection.itemClassCount[index] }
      }
      return total
    default:
      return totalWeight(&state) { forEach(collection, &$0, $1) }
    }
  }

  /// Calls `body` with each element of collection node `collection` and how many elements it
  /// stands for, until `body` returns false. Returns whether every call returned true.
  private func forEach(
    _ collection: Int, _ state: inout ProgramState,
    _ body: (_ element: Int, _ weight: Int, _ state: inout ProgramState) -> Bool
  ) -> Bool {
    let node = program.nodes[collection]
    switch node.kind {
    case .extensionItems:
      for item in 0..<selection.itemCount where !body(item, 1, &state) { return false }
      return true
    case .attachmentsOfVariable:
      return forEachAttachment(ofItem: state.scope[node.a], weight: 1, &state, body)
    case .attachmentsOfEach:
      return forEach(node.a, &state) { item, weight, state in
        forEachAttachment(ofItem: item, weight: weight, &state, body)
      }
    case .identifiersOfVariable:
      return forEachIdentifier(ofClass: state.scope[node.a], weight: 1, &state, body)
    case .identifiersOfEach:
      return forEach(node.a, &state) { typeClass, weight, state in
        forEachIdentifier(ofClass: typeClass, weight: weight, &state, body)
      }
    case .subquery:
      return forEach(node.a, &state) { element, weight, state in
        state.scope[node.b] = element
        return !holds(node.c, &state) || body(element, weight, &state)
      }
    default:
      return true
    }
  }

  /// The type classes of item `item`, each weighed by how many of its attachments it stands for.
  private func forEachAttachment(
    ofItem item: Int, weight: Int, _ state: inout ProgramState,
    _ body: (_ element: Int, _ weight: Int, _ state: inout ProgramState) -> Bool
  ) -> Bool {
    forEach(selection.classes(ofItem: item), &state, body) {
      (selection.itemClass[$0], weight * selection.itemClassCount[$0])
    }
  }

  /// The type identifiers of type class `typeClass`.
  private func forEachIdentifier(
    ofClass typeClass: Int, weight: Int, _ state: inout ProgramState,
    _ body: (_ element: Int, _ weight: Int, _ state: inout ProgramState) -> Bool
  ) -> Bool {
    forEach(selection.identifiers(ofClass: typeClass), &state, body) {
      (selection.classIdentifiers[$0], weight)
    }
  }

  /// Calls `body` with the element and weight `entry` gives for each of `indices` (into the
  /// selection's tables), until `body` returns false.
  private func forEach(
    _ indices: Range<Int>, _ state: inout ProgramState,
    _ body: (_ element: Int, _ weight: Int, _ state: inout ProgramState) -> Bool,
    entry: (Int) -> (element: Int, weight: Int)
  ) -> Bool {
    for index in indices {
      let (element, weight) = entry(index)
      guard body(element, weight, &state) else { return false }
    }
    return true
  }

  // MARK: Comparisons

  private func compare(
    _ left: ProgramValue, _ op: Predicate.Operator, _ right: ProgramValue, _ state: inout ProgramState
  ) -> Bool {
    switch op {
    case .conformsTo:
      guard case .typeIdentifier(let identifier) = left else { return false }
      switch right {
      case .constant(let constant):
        return conforms(identifier, constant, &state)
      case .text(let item):
        return selection.selection.identifier(
          identifier, conformsTo: selection.selection.items[item].attributedContentText ?? "")
      default:
        return false
      }
    case .typeEquals:
      guard case .typeIdentifier(let identifier) = left else { return false }
      switch right {
      case .constant(let constant): return sameAs(identifier, constant, &state)
      case .text(let item):
        return selection.selection.identifiers[identifier]
          == selection.selection.items[item].attributedContentText
      default: return false
      }
    case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .beginsWith, .endsWith, .contains,
      .like:
      // A type identifier against a string constant, for `==` or `!=`: the memo's answer, as a
      // type question gets.
      if op == .equal || op == .notEqual, let same = sameType(left, right, &state) {
        return same == (op == .equal)
      }
      // Otherwise the tree's evaluator compares the values, so that both answer alike.
      return PredicateEvaluator(selection: selection.selection).compare(treeValue(left), op, treeValue(right))
    }
  }

  /// The memo's answer for (identifier, constant), worked out by `compute` the first time.
  private func answer(
    _ memo: inout AnswerTable, _ identifier: Int, _ constant: Int, _ constants: Int, _ compute: () -> Bool
  ) -> Bool {
    memo.answer(identifier * constants + constant, compute)
  }

  /// Whether some type identifier of the selection is, or conforms to, string constant
  /// `constant`: when none is, every type question naming it answers no.
  func namesAnyType(_ constant: Int, _ state: inout ProgramState) -> Bool {
    (0..<selection.identifierCount).contains {
      sameAs($0, constant, &state) || conforms($0, constant, &state)
    }
  }

  /// Every answer a type question can get about string constant `constant`, two bits per type
  /// identifier of the selection (whether it is the constant, whether it conforms to it); nil
  /// for a selection of more than 32 identifiers, which do not fit.
  func answers(_ constant: Int, _ state: inout ProgramState) -> UInt64? {
    guard selection.identifierCount <= 32 else { return nil }
    var found: UInt64 = 0
    for identifier in 0..<selection.identifierCount {
      if sameAs(identifier, constant, &state) { found |= 1 << (2 * identifier) }
      if conforms(identifier, constant, &state) { found |= 2 << (2 * identifier) }
    }
    return found
  }

  private func conforms(_ identifier: Int, _ constant: Int, _ state: inout ProgramState) -> Bool {
    answer(&state.conforms, identifier, constant, state.constants) {
      selection.selection.identifier(identifier, conformsTo: program.strings[constant])
    }
  }

  private func sameAs(_ identifier: Int, _ constant: Int, _ state: inout ProgramState) -> Bool {
    answer(&state.equals, identifier, constant, state.constants) {
      selection.selection.identifiers[identifier] == program.strings[constant]
    }
  }

  /// Whether the type identifier is the string constant, when `left` and `right` are the two (in
  /// either order); nil for any other pair.
  private func sameType(_ left: ProgramValue, _ right: ProgramValue, _ state: inout ProgramState) -> Bool? {
    switch (left, right) {
    case (.typeIdentifier(let identifier), .constant(let constant)),
      (.constant(let constant), .typeIdentifier(let identifier)):
      sameAs(identifier, constant, &state)
    default:
      nil
    }
  }

  /// `value` as the tree's evaluator holds it: constants and texts become their strings.
  private func treeValue(_ value: ProgramValue) -> PredicateValue {
    switch value {
    case .null: .null
    case .number(let number): .number(number)
    case .constant(let constant): .string(program.strings[constant])
    case .text(let item):
      selection.selection.items[item].attributedContentText.map(PredicateValue.string) ?? .null
    case .typeIdentifier(let identifier): .typeIdentifier(identifier)
    case .emptyDictionary: .emptyDictionary
    }
  }
}
