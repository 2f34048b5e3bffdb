// Longer than 400 lines on purpose: the predicate grammar's cases, a table per construct, in one
// place beside the parser they check.
// `Attachment` is spelled `ShareCore.Attachment`: Swift Testing has an `Attachment` of its own.

import Testing

@testable import ShareCore

// MARK: Fixtures

private let png = ShareCore.Attachment(
  item: .file(FilePath("/a.png")), typeIdentifiers: ["public.png", "image/png"])
private let jpeg = ShareCore.Attachment(
  item: .file(FilePath("/b.jpg")), typeIdentifiers: ["public.jpeg", "image/jpeg"])
private let pdf = ShareCore.Attachment(
  item: .file(FilePath("/c.pdf")), typeIdentifiers: ["com.adobe.pdf", "application/pdf"])
private let folder = ShareCore.Attachment(
  item: .file(FilePath("/d")), typeIdentifiers: ["public.folder", "inode/directory"])
private let url = ShareCore.Attachment(item: .webURL("https://x"), typeIdentifiers: ["public.url"])
private let text = ShareCore.Attachment(
  item: .text("Hello, world"), typeIdentifiers: ["public.plain-text", "text/plain"])
private let ownType = ShareCore.Attachment(
  item: .file(FilePath("/e.mine")), typeIdentifiers: ["your.unique.uti.here", "application/pdf"])

private func textAttachment(_ string: String) -> ShareCore.Attachment {
  ShareCore.Attachment(item: .text(string), typeIdentifiers: ["public.plain-text", "text/plain"])
}

private let identifiers = "extensionItems.attachments.registeredTypeIdentifiers"

private func selection(_ attachments: [ShareCore.Attachment], mime: MIMEHierarchy = MIMEHierarchy())
  -> ActivationSelection
{
  ActivationSelection(attachments: attachments, types: TypeSystem(mime: mime))
}

private func accepts(_ rule: String, _ attachments: [ShareCore.Attachment]) throws -> Bool {
  try PredicateParser.parse(rule).evaluateBothWays(selection(attachments))
}

extension Predicate {
  /// The tree's answer, checked against the same rule compiled (``CompiledRules``), so that every
  /// case here holds for both. Compiled twice: the second copy, of the first one's shape, takes
  /// the shape's answer where its type constants name none of the selection's types.
  fileprivate func evaluateBothWays(
    _ selection: ActivationSelection, sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    let answer = evaluate(selection)
    let compiled = CompiledRules(
      [.predicate(.constant(false)), .predicate(self), .predicate(self)], findingShapesFrom: 0)
    #expect(compiled.accepts(1, selection) == answer, sourceLocation: sourceLocation)
    #expect(compiled.accepting(selection) == (answer ? [1, 2] : []), sourceLocation: sourceLocation)
    return answer
  }
}

/// Wraps a predicate over `$e`, the one extension item.
private func overItem(_ predicate: String) -> String {
  "SUBQUERY(extensionItems, $e, \(predicate)).@count == 1"
}

/// Wraps a predicate over `$a`, an attachment, as "every attachment matches".
private func everyAttachment(_ predicate: String) -> String {
  overItem("SUBQUERY($e.attachments, $a, \(predicate)).@count == $e.attachments.@count")
}

/// Parses `marked` without its 1️⃣ and checks the error is reported at the marker.
private func expectError(
  _ marked: String, _ expected: PredicateSyntaxError.Expected, found: PredicateSyntaxError.Found,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let marker = marked.firstRange(of: "1️⃣")!
  let column = marked[..<marker.lowerBound].count + 1
  let source = marked.replacing("1️⃣", with: "")
  #expect(
    throws: PredicateSyntaxError(position: column, expected: expected, found: found),
    sourceLocation: sourceLocation
  ) {
    try PredicateParser.parse(source)
  }
}

// MARK: Real rules

private let signal = """
  SUBQUERY ( extensionItems, $extensionItem, SUBQUERY ( $extensionItem.attachments, $attachment, \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.data" || \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url" ).@count >= 1 ).@count == 1
  """

private let allDocuments = """
  SUBQUERY ( extensionItems, $extensionItem, SUBQUERY ( $extensionItem.attachments, $attachment, \
  ( ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "com.adobe.pdf" || \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image" || \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.plain-text" || \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.png" || \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.jpeg" || \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.jpeg-2000" || \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "com.microsoft.excel.xls" || \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "org.openxmlformats.spreadsheetml.sheet" ) \
  ).@count == $extensionItem.attachments.@count ).@count == 1
  """

private let oneURL = """
  SUBQUERY ( extensionItems, $extensionItem, SUBQUERY ( $extensionItem.attachments, $attachment, \
  ( ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url" ) ).@count == 1 ).@count == 1
  """

private let pspdfkit = """
  SUBQUERY ( extensionItems, $extensionItem, SUBQUERY ( $extensionItem.attachments, $attachment, \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "com.adobe.pdf" OR \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.file-url" OR \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url" OR \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.jpeg" OR \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.png" \
  ).@count == $extensionItem.attachments.@count ).@count == 1
  """

private let pspdfkitHidden = """
  SUBQUERY ( extensionItems, $extensionItem, SUBQUERY ( $extensionItem.attachments, $attachment, \
  ( ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "com.adobe.pdf" OR \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.file-url" OR \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url" OR \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.jpeg" OR \
  ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.png" ) \
  AND NOT (ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "your.unique.uti.here") \
  ).@count == $extensionItem.attachments.@count ).@count == 1
  """

/// The rules of share-systems.md, verbatim.
@Suite struct PredicateRealRuleTests {
  struct RealRule: Sendable, CustomTestStringConvertible {
    var name: String
    var rule: String
    var attachments: [ShareCore.Attachment]
    var accepted: Bool
    var testDescription: String {
      "\(name) \(accepted ? "accepts" : "rejects") \(attachments.count) attachments"
    }
  }

  @Test(arguments: [
    RealRule(name: "Signal", rule: signal, attachments: [png], accepted: true),
    RealRule(name: "Signal", rule: signal, attachments: [png, url, text, pdf], accepted: true),
    RealRule(name: "Signal", rule: signal, attachments: [folder], accepted: false),
    RealRule(name: "Signal", rule: signal, attachments: [], accepted: false),
    RealRule(name: "all documents", rule: allDocuments, attachments: [png, pdf, text, jpeg], accepted: true),
    RealRule(name: "all documents", rule: allDocuments, attachments: [png, url], accepted: false),
    RealRule(name: "all documents", rule: allDocuments, attachments: [], accepted: true),
    RealRule(name: "one URL", rule: oneURL, attachments: [url], accepted: true),
    RealRule(name: "one URL", rule: oneURL, attachments: [url, png], accepted: true),
    RealRule(name: "one URL", rule: oneURL, attachments: [url, url], accepted: false),
    RealRule(name: "one URL", rule: oneURL, attachments: [png], accepted: false),
    RealRule(name: "PSPDFKit", rule: pspdfkit, attachments: [pdf, png, url], accepted: true),
    RealRule(name: "PSPDFKit", rule: pspdfkit, attachments: [pdf, text], accepted: false),
    RealRule(name: "PSPDFKit", rule: pspdfkit, attachments: [ownType], accepted: true),
    RealRule(name: "PSPDFKit hidden", rule: pspdfkitHidden, attachments: [pdf, jpeg], accepted: true),
    RealRule(name: "PSPDFKit hidden", rule: pspdfkitHidden, attachments: [pdf, ownType], accepted: false),
    RealRule(name: "PSPDFKit hidden", rule: pspdfkitHidden, attachments: [pdf, text], accepted: false),
  ])
  func realRules(_ example: RealRule) throws {
    #expect(try accepts(example.rule, example.attachments) == example.accepted)
  }

  @Test func realRuleParsesToResolvedTree() throws {
    let image = Predicate.quantified(
      .any, .registeredTypeIdentifiers(of: .variable(1)), .conformsTo, .constant(.string("public.data")))
    let link = Predicate.quantified(
      .any, .registeredTypeIdentifiers(of: .variable(1)), .conformsTo, .constant(.string("public.url")))
    let attachments = Predicate.CollectionExpression.subquery(
      .attachments(of: .variable(0)), variable: 1, name: "attachment", .or([image, link]))
    let items = Predicate.CollectionExpression.subquery(
      .extensionItems, variable: 0, name: "extensionItem",
      .comparison(.count(attachments), .greaterOrEqual, .constant(.number(1))))
    #expect(try PredicateParser.parse(signal) == .comparison(.count(items), .equal, .constant(.number(1))))
  }

  @Test func lineBreaksAndTabsAreWhitespace() throws {
    let plist = signal.replacing(" ", with: "\n\t\t").replacing("\n\t\tANY", with: "\r\nANY")
    #expect(try PredicateParser.parse(plist) == PredicateParser.parse(signal))
  }

  @Test func activationRuleUsesThePredicate() throws {
    let rule = ActivationRule.predicate(try PredicateParser.parse(oneURL))
    #expect(rule.accepts(selection([url])))
    #expect(!rule.accepts(selection([png])))
  }
}

// MARK: Language

@Suite struct PredicateLanguageTests {
  @Test(arguments: [
    ("TRUEPREDICATE", true),
    ("FALSEPREDICATE", false),
    ("truePredicate", true),
    ("NOT TRUEPREDICATE", false),
    ("!FALSEPREDICATE", true),
    ("NOT NOT TRUEPREDICATE", true),
    ("TRUEPREDICATE AND FALSEPREDICATE", false),
    ("TRUEPREDICATE && TRUEPREDICATE", true),
    ("FALSEPREDICATE OR TRUEPREDICATE", true),
    ("FALSEPREDICATE || FALSEPREDICATE", false),
    ("TRUEPREDICATE OR FALSEPREDICATE AND FALSEPREDICATE", true),
    ("(TRUEPREDICATE OR FALSEPREDICATE) AND FALSEPREDICATE", false),
    ("NOT FALSEPREDICATE AND FALSEPREDICATE", false),
    ("NOT (FALSEPREDICATE AND FALSEPREDICATE)", true),
    ("  \n TRUEPREDICATE \t ", true),
  ])
  func logic(_ rule: String, _ expected: Bool) throws {
    #expect(try accepts(rule, []) == expected)
  }

  @Test func precedenceShapesTheTree() throws {
    #expect(
      try PredicateParser.parse("TRUEPREDICATE OR NOT FALSEPREDICATE AND TRUEPREDICATE || FALSEPREDICATE")
        == .or([.constant(true), .and([.not(.constant(false)), .constant(true)]), .constant(false)]))
  }

  @Test(arguments: [
    "SUBQUERY(extensionItems, $e, ANY $e.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.image\")",
    "subquery(extensionItems, $e, any $e.attachments.registeredTypeIdentifiers uti-conforms-to \"public.image\")",
    "Subquery(extensionItems,$e,Some $e.attachments.registeredTypeIdentifiers Uti-Conforms-To 'PUBLIC.IMAGE')",
  ])
  func keywordsAreCaseInsensitive(_ collection: String) throws {
    let expected = Predicate.comparison(
      .count(
        .subquery(
          .extensionItems, variable: 0, name: "e",
          .quantified(
            .any, .registeredTypeIdentifiers(of: .each(.attachments(of: .variable(0)))), .conformsTo,
            .constant(.string("public.image"))))),
      .equal, .constant(.number(1)))
    #expect(try PredicateParser.parse(collection + ".@count == 1") == expected)
    #expect(try PredicateParser.parse(collection + " . @count == 1") == expected)
  }

  @Test(arguments: [
    ("== 3", true), ("= 3", true), ("!= 3", false), ("<> 2", true), ("< 4", true), ("< 3", false),
    ("<= 3", true), ("=< 3", true), ("> 2", true), ("> 3", false), (">= 3", true), ("=> 4", false),
    ("== 3.0", true), ("== 3.5", false), ("< 3.5", true), ("> -1", true), ("== 3e0", true),
    ("== nil", false), ("!= NULL", true), ("== TRUE", false),
  ])
  func numericComparisons(_ comparison: String, _ expected: Bool) throws {
    #expect(try accepts("extensionItems.attachments.@count " + comparison, [png, png, url]) == expected)
  }

  @Test(arguments: [
    ("TRUE == 1", true), ("YES == TRUE", true), ("no == 0", true), ("FALSE == YES", false),
    ("NIL == NULL", true), ("nil != 1", true), ("'a' < \"b\"", true), ("\"b\" <= 'a'", false),
    ("1 < extensionItems.@count", false), ("extensionItems.@count == 1", true),
    ("'it\\'s' == \"it's\"", true), ("\"tab\\there\" CONTAINS '\\t'", true),
    ("\"line\\nbreak\" ENDSWITH 'k'", true), ("\"a\\\\b\" LIKE 'a?b'", true),
  ])
  func constants(_ rule: String, _ expected: Bool) throws {
    #expect(try accepts(rule, []) == expected)
  }

  @Test(arguments: [
    ("$e.attributedContentText BEGINSWITH \"Hello\"", true),
    ("$e.attributedContentText BEGINSWITH \"hello\"", false),
    ("$e.attributedContentText ENDSWITH 'world'", true),
    ("$e.attributedContentText CONTAINS ', w'", true),
    ("$e.attributedContentText CONTAINS 'xyz'", false),
    ("$e.attributedContentText LIKE 'H*o, w?rld'", true),
    ("$e.attributedContentText LIKE '*'", true),
    ("$e.attributedContentText LIKE 'H*x'", false),
    ("$e.attributedContentText LIKE 'h*'", false),
    ("$e.attributedContentText == 'Hello, world'", true),
    ("$e.attributedContentText != 'Hello'", true),
    ("$e.attributedContentText < 'I'", true),
    ("$e.attributedContentText == nil", false),
    ("$e.attributedContentText CONTAINS nil", false),
    ("$e.attributedTitle == nil", true),
    ("$e.userInfo != nil", true),
    ("$e.userInfo.@count == 0", true),
    ("$e.userInfo.anything.deeper == nil", true),
  ])
  func itemValues(_ predicate: String, _ expected: Bool) throws {
    #expect(try accepts(overItem(predicate), [text, png]) == expected)
  }

  @Test func missingTextIsNil() throws {
    #expect(try accepts(overItem("$e.attributedContentText == nil"), [png]))
    #expect(try !accepts(overItem("$e.attributedContentText BEGINSWITH 'H'"), [png]))
    #expect(
      try accepts(overItem("$e.attributedContentText == 'a\nb'"), [textAttachment("a"), textAttachment("b")]))
  }

  struct Quantified: Sendable, CustomTestStringConvertible {
    var predicate: String
    var attachments: [ShareCore.Attachment]
    var expected: Bool
    var testDescription: String { "\(predicate) over \(attachments.count) attachments" }
  }

  @Test(arguments: [
    Quantified(
      predicate: "ANY \(identifiers) UTI-EQUALS 'public.png'", attachments: [pdf, png], expected: true),
    Quantified(predicate: "ANY \(identifiers) UTI-EQUALS 'public.png'", attachments: [pdf], expected: false),
    Quantified(predicate: "ANY \(identifiers) UTI-EQUALS 'public.png'", attachments: [], expected: false),
    Quantified(predicate: "SOME \(identifiers) UTI-EQUALS 'public.png'", attachments: [png], expected: true),
    Quantified(
      predicate: "ANY \(identifiers) UTI-EQUALS 'public.image'", attachments: [png], expected: false),
    Quantified(
      predicate: "ALL \(identifiers) UTI-CONFORMS-TO 'public.image'", attachments: [png, jpeg], expected: true
    ),
    Quantified(
      predicate: "ALL \(identifiers) UTI-CONFORMS-TO 'public.image'", attachments: [png, pdf], expected: false
    ),
    Quantified(
      predicate: "ALL \(identifiers) UTI-CONFORMS-TO 'public.image'", attachments: [], expected: true),
    Quantified(
      predicate: "NONE \(identifiers) UTI-CONFORMS-TO 'public.image'", attachments: [pdf, url], expected: true
    ),
    Quantified(
      predicate: "NONE \(identifiers) UTI-CONFORMS-TO 'public.image'", attachments: [pdf, png],
      expected: false),
    Quantified(
      predicate: "NONE \(identifiers) UTI-CONFORMS-TO 'public.image'", attachments: [], expected: true),
    Quantified(
      predicate: "NOT ANY \(identifiers) UTI-CONFORMS-TO 'public.image'", attachments: [pdf], expected: true),
    Quantified(
      predicate: "\(identifiers) UTI-CONFORMS-TO 'public.image'", attachments: [pdf, png], expected: true),
    Quantified(predicate: "\(identifiers) UTI-EQUALS 'public.png'", attachments: [pdf], expected: false),
    Quantified(predicate: "ALL \(identifiers) BEGINSWITH 'public.'", attachments: [url], expected: true),
    Quantified(predicate: "ALL \(identifiers) BEGINSWITH 'public.'", attachments: [png], expected: false),
    Quantified(predicate: "ANY \(identifiers) == 'IMAGE/PNG'", attachments: [png], expected: true),
    Quantified(predicate: "ANY \(identifiers) != 'public.png'", attachments: [png], expected: true),
    Quantified(predicate: "ALL \(identifiers) != 'public.png'", attachments: [png], expected: false),
    Quantified(predicate: "ANY \(identifiers) LIKE 'image/*'", attachments: [png], expected: true),
    Quantified(predicate: "ANY \(identifiers) ENDSWITH 'pdf'", attachments: [pdf], expected: true),
    Quantified(predicate: "ANY \(identifiers) CONTAINS 'adobe'", attachments: [pdf], expected: true),
    Quantified(predicate: "ANY \(identifiers) > 'public.q'", attachments: [url, pdf], expected: true),
    Quantified(predicate: "ANY \(identifiers) == nil", attachments: [url], expected: false),
  ])
  func quantifiers(_ example: Quantified) throws {
    #expect(try accepts(example.predicate, example.attachments) == example.expected)
  }

  @Test(arguments: [
    ("public.png", [png], true),
    ("public.image", [png, jpeg], true),
    ("public.image", [png, pdf], false),
    ("image/png", [png], true),
    ("IMAGE/PNG", [png], true),
    ("image/jpeg", [png], false),
    ("image/*", [png, jpeg], true),
    ("Image/*", [png], true),
    ("image/*", [pdf], false),
    ("text/*", [text], true),
    ("application/octet-stream", [png, pdf], true),
    ("public.data", [url, png], true),
    ("public.data", [folder], false),
    ("public.directory", [folder], true),
  ])
  func conformance(_ type: String, _ attachments: [ShareCore.Attachment], _ expected: Bool) throws {
    #expect(
      try accepts(everyAttachment("ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO '\(type)'"), attachments)
        == expected)
  }

  @Test func aMIMEAliasInARuleMatchesTheCanonicalType() throws {
    var mime = MIMEHierarchy()
    mime.add(subclasses: "", aliases: "image/jpg image/jpeg\nimage/pjpeg image/jpeg\n")
    let types = TypeSystem(mime: mime)
    let jpeg = ShareCore.Attachment(
      item: .file(FilePath("/f.jpg")), typeIdentifiers: types.typeIdentifiers(forMIMEType: "image/jpeg"))
    for alias in ["image/jpg", "IMAGE/PJPEG", "image/jpeg"] {
      let rule = try PredicateParser.parse(
        everyAttachment("ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO '\(alias)'"))
      #expect(rule.evaluateBothWays(selection([jpeg], mime: mime)), "\(alias)")
    }
    let png = try PredicateParser.parse(
      everyAttachment("ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO 'image/jpg'"))
    #expect(
      !png.evaluateBothWays(
        selection(
          [
            ShareCore.Attachment(
              item: .file(FilePath("/f.png")),
              typeIdentifiers: types.typeIdentifiers(forMIMEType: "image/png"))
          ], mime: mime)))
  }

  @Test func conformanceFollowsMIMESubclasses() throws {
    var mime = MIMEHierarchy()
    mime.add(subclasses: "image/svg+xml application/xml\n", aliases: "")
    let types = TypeSystem(mime: mime)
    let svg = ShareCore.Attachment(
      item: .file(FilePath("/f.svg")), typeIdentifiers: types.typeIdentifiers(forMIMEType: "image/svg+xml"))
    let rule = try PredicateParser.parse(
      everyAttachment("ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO 'application/xml'"))
    #expect(rule.evaluateBothWays(selection([svg], mime: mime)))
    #expect(!rule.evaluateBothWays(selection([svg])))
  }
}

// MARK: SUBQUERY and counting

@Suite struct PredicateSubqueryTests {
  @Test func nestedSubqueryReadsOuterVariable() throws {
    let rule = overItem("SUBQUERY($e.attachments, $a, $e.attachments.@count == 2).@count == 2")
    #expect(try accepts(rule, [png, pdf]))
    #expect(try !accepts(rule, [png]))
  }

  @Test func innerVariableShadowsOuter() throws {
    let rule = """
      SUBQUERY(extensionItems, $x, SUBQUERY($x.attachments, $x, \
      ANY $x.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image").@count == 2).@count == 1
      """
    guard
      case .comparison(.count(.subquery(_, _, _, .comparison(.count(let inner), _, _))), _, _) =
        try PredicateParser.parse(rule)
    else {
      Issue.record("unexpected tree")
      return
    }
    #expect(
      inner
        == .subquery(
          .attachments(of: .variable(0)), variable: 1, name: "x",
          .quantified(
            .any, .registeredTypeIdentifiers(of: .variable(1)), .conformsTo,
            .constant(.string("public.image")))
        ))
    #expect(try accepts(rule, [png, jpeg, pdf]))
    #expect(try !accepts(rule, [png, pdf]))
  }

  @Test func subqueryOverTypeIdentifiers() throws {
    let rule = overItem(
      "SUBQUERY($e.attachments.registeredTypeIdentifiers, $t, $t BEGINSWITH 'image/').@count == 3")
    #expect(try accepts(rule, [png, png, jpeg, pdf]))
    #expect(try !accepts(rule, [png, pdf]))
    #expect(
      try accepts(
        overItem(
          "SUBQUERY($e.attachments.registeredTypeIdentifiers, $t, $t UTI-CONFORMS-TO 'public.image').@count == 2"
        ),
        [png]))
  }

  @Test func subqueryDeeperThanTheInlineScope() throws {
    var rule = """
      ANY $v10.registeredTypeIdentifiers UTI-CONFORMS-TO 'public.image' AND \
      ANY $v1.registeredTypeIdentifiers UTI-CONFORMS-TO 'public.image'
      """
    for depth in (1...10).reversed() {
      rule = "SUBQUERY($e.attachments, $v\(depth), \(rule)).@count > 0"
    }
    #expect(try accepts(overItem(rule), [png]))
    #expect(try accepts(overItem(rule), [pdf, png]))
    #expect(try !accepts(overItem(rule), [pdf]))
  }

  @Test func rulesOfOneShapeAnswerAsEachAlone() throws {
    // Services written from a few templates, each naming its own types: where none of a rule's
    // types is the selection's, the rule takes its shape's answer. Templates whose answer is then
    // yes (NONE, NOT ANY), no, or depends on the text, the counts and a constant used both in a
    // type question and as a plain string.
    let types = [
      "public.image", "image/png", "public.jpeg", "application/pdf", "public.folder", "text/plain",
    ]
    let templates = [
      { (t: [String]) in
        everyAttachment(
          t.map { "ANY $a.registeredTypeIdentifiers UTI-EQUALS \"\($0)\"" }.joined(separator: " OR "))
      },
      { t in everyAttachment("NONE $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"\(t[0])\"") },
      { t in overItem("NOT (ANY $e.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO \"\(t[0])\")") },
      { t in
        overItem(
          "SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"\(t[0])\").@count "
            + "<= 2 AND ($e.attributedContentText CONTAINS \"\(t[1])\" OR $e.attachments.@count == 0)")
      },
      { t in "ALL \(identifiers) UTI-CONFORMS-TO \"\(t[0])\" AND ANY \(identifiers) BEGINSWITH \"\(t[1])\"" },
    ]
    var rules: [ActivationRule] = []
    for index in 0..<60 {
      let chosen = (0..<(1 + index % 3)).map { types[(index * 5 + $0 * 2) % types.count] }
      let named = chosen + [types[(index + 1) % types.count]]
      rules.append(.predicate(try PredicateParser.parse(templates[index % templates.count](named))))
    }
    let compiled = CompiledRules(rules)
    let withoutShapes = CompiledRules(rules, findingShapesFrom: .max)
    for attachments in [
      [png], [png, jpeg], [png, pdf], [text], [text, png], [folder], [url], [], [ownType],
      [ownType, ownType],
    ] {
      let chosen = selection(attachments)
      let expected = rules.indices.filter { rules[$0].accepts(chosen) }
      #expect(compiled.accepting(chosen) == expected, "\(attachments.map(\.item.shortName))")
      #expect(withoutShapes.accepting(chosen) == expected)
      for index in rules.indices {
        #expect(compiled.accepts(index, chosen) == expected.contains(index))
      }
    }
  }

  @Test func manyRulesCompiledTogetherAnswerAsEachAlone() throws {
    // Rules sharing constants (one table, one answer per identifier and constant) and dictionary
    // rules among them, asked about selections one after another.
    let sources = [
      everyAttachment("ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.image\""),
      everyAttachment("ANY $a.registeredTypeIdentifiers UTI-EQUALS \"image/png\""),
      everyAttachment("ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.data\""),
      overItem("$e.attributedContentText CONTAINS \"world\""),
      "ANY \(identifiers) == \"public.png\" AND NOT (ANY \(identifiers) UTI-EQUALS \"image/png\")",
      "SUBQUERY(\(identifiers), $t, $t BEGINSWITH \"image/\").@count >= 2",
    ]
    let predicates = try sources.map { try PredicateParser.parse($0) }
    let rules: [ActivationRule] =
      predicates.map(ActivationRule.predicate) + [.dictionary(DictionaryRule(maxImages: 1, version: 2))]
    let compiled = CompiledRules(rules)
    #expect(compiled.count == rules.count)
    for attachments in [
      [png], [png, jpeg], [png, pdf], [text], [text, png], [folder], [url], [], [ownType],
    ] {
      let chosen = selection(attachments)
      let expected = rules.indices.filter { rules[$0].accepts(chosen) }
      #expect(compiled.accepting(chosen) == expected, "\(attachments.map(\.item.shortName))")
    }
  }

  @Test func aSelectionOfManyTypesAgainstManyConstantsAnswersAsTheTree() throws {
    // 400 made-up types (800 identifiers) against 100 rules of their own constants: more type
    // answers than the flat table holds (AnswerTable.flatLimit), so they are kept by slot.
    let types = (0..<400).map { "application/x-made-up-\($0)" }
    let attachments = types.enumerated().map { index, type in
      ShareCore.Attachment(item: .file(FilePath("/f\(index)")), typeIdentifiers: ["public.data", type])
    }
    let rules = try (0..<100).map { index in
      ActivationRule.predicate(
        try PredicateParser.parse(
          "ANY \(identifiers) UTI-EQUALS \"application/x-made-up-\(index * 5)\" AND "
            + "ANY \(identifiers) UTI-CONFORMS-TO \"application/x-made-up-\(index * 7)\""))
    }
    let chosen = selection(attachments)
    #expect(chosen.identifiers.count * 200 > AnswerTable.flatLimit)
    let expected = rules.indices.filter { rules[$0].accepts(chosen) }
    #expect(CompiledRules(rules).accepting(chosen) == expected)
    // Only the rules whose constants name a type of the selection: index * 7 < 400.
    #expect(expected == Array(0...57))
  }

  @Test func countsWeighAttachmentsByTypeClass() throws {
    let files = Array(repeating: png, count: 60) + Array(repeating: pdf, count: 39) + [url]
    let images =
      "SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO 'public.image').@count"
    #expect(try accepts(overItem("\(images) == 60"), files))
    #expect(try accepts("extensionItems.attachments.@count == 100", files))
    #expect(try accepts("extensionItems.attachments.registeredTypeIdentifiers.@count == 199", files))
    #expect(
      try accepts(
        overItem("SUBQUERY($e.attachments, $a, TRUEPREDICATE).registeredTypeIdentifiers.@count == 199"), files
      ))
    #expect(
      try accepts(
        "SUBQUERY(extensionItems.attachments, $a, NOT ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO 'public.image').@count == 40",
        files))
    #expect(try accepts("extensionItems.@count == 1", []))
  }
}

// MARK: Errors

@Suite struct PredicateErrorTests {
  @Test func emptyAndBlankRules() {
    expectError("1️⃣", .predicate, found: .endOfInput)
    expectError(" \n\t1️⃣", .predicate, found: .endOfInput)
  }

  @Test func unterminatedString() {
    expectError(#"extensionItems.@count == 1️⃣"one"#, .closingQuote("\""), found: .endOfInput)
    expectError(#"extensionItems.@count == 1️⃣'it\'s"#, .closingQuote("'"), found: .endOfInput)
    expectError(#"extensionItems.@count == 1️⃣"ends in escape\"#, .closingQuote("\""), found: .endOfInput)
  }

  @Test func missingParenthesis() {
    expectError(
      "SUBQUERY(extensionItems, $e, $e.attachments.@count == 11️⃣", .closingParenthesis, found: .endOfInput)
    expectError("(TRUEPREDICATE OR FALSEPREDICATE AND1️⃣", .predicate, found: .endOfInput)
    expectError("(TRUEPREDICATE 1️⃣TRUEPREDICATE)", .closingParenthesis, found: .token("TRUEPREDICATE"))
    expectError("SUBQUERY 1️⃣extensionItems", .openingParenthesis, found: .token("extensionItems"))
  }

  @Test func unknownKeys() {
    expectError(
      "SUBQUERY(extensionItems, $e, $e.1️⃣atachments.@count == 1).@count == 1",
      .knownKey(allowed: ["attachments", "attributedContentText", "attributedTitle", "userInfo"]),
      found: .token("atachments"))
    expectError(
      "1️⃣ExtensionItems.@count == 1", .knownKey(allowed: ["extensionItems"]), found: .token("ExtensionItems"))
    expectError(
      "extensionItems.1️⃣attributedContentText == nil", .knownKey(allowed: ["@count", "attachments"]),
      found: .token("attributedContentText"))
    expectError(
      "extensionItems.1️⃣@sum == 1", .knownKey(allowed: ["@count", "attachments"]), found: .token("@sum"))
    expectError(
      "ANY extensionItems.attachments.1️⃣types UTI-EQUALS 'x'",
      .knownKey(allowed: ["@count", "registeredTypeIdentifiers"]), found: .token("types"))
    expectError(
      overItem("$e.attributedContentText.1️⃣length > 1"), .knownKey(allowed: []), found: .token("length"))
    expectError("extensionItems.1️⃣== 1", .key(allowed: ["@count", "attachments"]), found: .token("=="))
    expectError(
      overItem("$e 1️⃣== nil"),
      .key(allowed: ["attachments", "attributedContentText", "attributedTitle", "userInfo"]),
      found: .token("=="))
  }

  @Test func unboundVariables() {
    expectError(
      "SUBQUERY(extensionItems, $e, 1️⃣$x.attachments.@count == 1).@count == 1", .boundVariable(bound: ["$e"]),
      found: .token("$x"))
    expectError(
      "SUBQUERY(extensionItems, $e, TRUEPREDICATE).@count == 1 AND 1️⃣$e.attachments.@count == 1",
      .boundVariable(bound: []), found: .token("$e"))
    expectError(
      "SUBQUERY(1️⃣$e.attachments, $e, TRUEPREDICATE).@count == 1", .boundVariable(bound: []),
      found: .token("$e")
    )
    expectError(
      "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $e, 1️⃣$E == nil).@count == 1).@count == 1",
      .boundVariable(bound: ["$e"]), found: .token("$E"))
  }

  @Test func countOfNonCollection() {
    expectError(
      overItem("$e.1️⃣attributedContentText.@count == 1"), .collection, found: .token("attributedContentText"))
    expectError(overItem("1️⃣$e.@count == 1"), .collection, found: .token("$e"))
    expectError("1️⃣NIL.@count == 1", .collection, found: .token("NIL"))
  }

  @Test func trailingGarbage() {
    expectError("TRUEPREDICATE 1️⃣garbage", .endOfInput, found: .token("garbage"))
    expectError("extensionItems.@count == 1 1️⃣)", .endOfInput, found: .token(")"))
    expectError("TRUEPREDICATE AND1️⃣", .predicate, found: .endOfInput)
  }

  @Test func badOperatorsAndOperands() {
    expectError("extensionItems.@count 1️⃣1", .comparisonOperator, found: .token("1"))
    expectError("extensionItems.@count 1️⃣IN 1", .comparisonOperator, found: .token("IN"))
    expectError("extensionItems.@count 1️⃣& 1", .comparisonOperator, found: .token("&"))
    expectError("extensionItems.@count == 1️⃣", .expression, found: .endOfInput)
    expectError("extensionItems.@count == 1️⃣OR", .expression, found: .token("OR"))
    expectError("extensionItems.@count == 1️⃣$", .expression, found: .token("$"))
    expectError("1️⃣AND == 1", .predicate, found: .token("AND"))
    expectError("1️⃣== 1", .predicate, found: .token("=="))
    expectError("NOT 1️⃣", .predicate, found: .endOfInput)
  }

  @Test func badSubqueries() {
    expectError("SUBQUERY(1️⃣NIL, $x, TRUEPREDICATE).@count == 1", .collection, found: .token("NIL"))
    expectError("SUBQUERY(extensionItems, 1️⃣e, TRUEPREDICATE).@count == 1", .variable, found: .token("e"))
    expectError("SUBQUERY(extensionItems 1️⃣$e, TRUEPREDICATE).@count == 1", .comma, found: .token("$e"))
    expectError(
      "SUBQUERY(extensionItems, $e 1️⃣TRUEPREDICATE).@count == 1", .comma, found: .token("TRUEPREDICATE"))
  }

  @Test func typeErrors() {
    expectError("ANY 1️⃣extensionItems.@count == 1", .collection, found: .token("extensionItems.@count"))
    expectError(
      "ANY 1️⃣extensionItems.attachments UTI-CONFORMS-TO 'x'", .typeIdentifiers,
      found: .token("extensionItems.attachments"))
    expectError("1️⃣extensionItems UTI-CONFORMS-TO 'x'", .typeIdentifiers, found: .token("extensionItems"))
    expectError("1️⃣'public.png' UTI-EQUALS 'public.png'", .typeIdentifiers, found: .token("'public.png'"))
    expectError("ANY \(identifiers) UTI-CONFORMS-TO 1️⃣1", .quotedTypeIdentifier, found: .token("1"))
    expectError("ANY \(identifiers) UTI-CONFORMS-TO 1️⃣nil", .quotedTypeIdentifier, found: .token("nil"))
    expectError("1️⃣\(identifiers) == 'public.png'", .quantifier, found: .token(identifiers))
    expectError("extensionItems.@count == 1️⃣extensionItems", .singleValue, found: .token("extensionItems"))
    expectError("extensionItems.@count == 1️⃣\"one\"", .number, found: .token("\"one\""))
    expectError("extensionItems.@count < YES 1️⃣== 1", .endOfInput, found: .token("=="))
    expectError("'a' == 1️⃣1", .string, found: .token("1"))
    expectError("1️⃣extensionItems.@count BEGINSWITH 'a'", .string, found: .token("extensionItems.@count"))
    expectError("'abc' CONTAINS 1️⃣2", .string, found: .token("2"))
    expectError(overItem("$e.userInfo == 1️⃣1"), .null, found: .token("1"))
    expectError(overItem("1️⃣$e.userInfo < 1"), .number, found: .token("$e.userInfo"))
  }

  @Test func errorPositionsCountCharactersAcrossLines() {
    expectError("TRUEPREDICATE\r\nAND\n  1️⃣@", .predicate, found: .token("@"))
    expectError("'é🇫🇷' == 'x' 1️⃣x", .endOfInput, found: .token("x"))
    expectError("extensionItems.@count 1️⃣≠ 1", .comparisonOperator, found: .token("≠"))
  }

  @Test func nestingIsLimited() throws {
    let deep = String(repeating: "(", count: 32) + "TRUEPREDICATE" + String(repeating: ")", count: 32)
    #expect(try accepts(deep, []))
    #expect(try accepts(String(repeating: "NOT ", count: 32) + "FALSEPREDICATE", []) == false)
    expectError(
      String(repeating: "(", count: 32) + "1️⃣(TRUEPREDICATE" + String(repeating: ")", count: 33),
      .shallowerNesting(limit: 32), found: .token("("))
    expectError(
      String(repeating: "NOT ", count: 32) + "1️⃣! FALSEPREDICATE", .shallowerNesting(limit: 32),
      found: .token("!"))
    // A hostile rule is an error, not a stack overflow.
    #expect(throws: PredicateSyntaxError.self) {
      try PredicateParser.parse(String(repeating: "SUBQUERY(extensionItems, $e, ", count: 100_000))
    }
  }

  @Test func nonASCIISource() throws {
    #expect(try accepts("extensionItems.@count\u{A0}==\u{2028}1", []))
    #expect(try accepts("'naïve 🇫🇷' ENDSWITH \"🇫🇷\" AND 'ü' == \"\\ü\"", []))
    #expect(
      try accepts("SUBQUERY(extensionItems, $élément, $élément.attachments.@count == 0).@count == 1", []))
  }
}

// MARK: Wording

@Suite struct PredicateWordingTests {
  @Test(arguments: [
    (
      PredicateSyntaxError(position: 37, expected: .closingParenthesis, found: .endOfInput),
      "at column 37: expected \")\", found end of predicate"
    ),
    (
      PredicateSyntaxError(
        position: 12,
        expected: .knownKey(allowed: ["attachments", "attributedContentText", "attributedTitle", "userInfo"]),
        found: .token("atachments")),
      "at column 12: unknown key \"atachments\"; expected one of attachments, attributedContentText, attributedTitle, userInfo"
    ),
    (
      PredicateSyntaxError(position: 3, expected: .knownKey(allowed: []), found: .token("length")),
      "at column 3: unknown key \"length\"; this value has no keys"
    ),
    (
      PredicateSyntaxError(position: 30, expected: .boundVariable(bound: ["$e", "$a"]), found: .token("$x")),
      "at column 30: unknown variable \"$x\"; bound here: $e, $a"
    ),
    (
      PredicateSyntaxError(position: 1, expected: .boundVariable(bound: []), found: .token("$x")),
      "at column 1: unknown variable \"$x\"; no variable is bound here (SUBQUERY binds one)"
    ),
    (
      PredicateSyntaxError(position: 26, expected: .closingQuote("'"), found: .endOfInput),
      "at column 26: string never closed; expected a closing ', found end of predicate"
    ),
    (
      PredicateSyntaxError(position: 26, expected: .number, found: .token("\"one\"")),
      "at column 26: expected a number, found \"one\""
    ),
    (
      PredicateSyntaxError(
        position: 1, expected: .quantifier, found: .token("$a.registered\n\t\tTypeIdentifiers")),
      "at column 1: expected ANY, ALL or NONE before a collection, found \"$a.registered TypeIdentifiers\""
    ),
    (
      PredicateSyntaxError(
        position: 1, expected: .endOfInput, found: .token(String(repeating: "x", count: 80))),
      "at column 1: expected AND, OR or the end of the predicate, found \"\(String(repeating: "x", count: 57))...\""
    ),
    (
      PredicateSyntaxError(position: 1, expected: .expression, found: .token("\u{1}")),
      "at column 1: expected a value, key path or SUBQUERY, found \"\\u{1}\""
    ),
  ])
  func wording(_ error: PredicateSyntaxError, _ message: String) {
    #expect(error.message == message)
    #expect(error.description == message)
  }

  /// Issue 32: an operator of Apple's that xdg-share does not have is named as such, with what
  /// to write instead, not as any unexpected word.
  @Test(arguments: [
    (
      "extensionItems.@count IN {1, 2}",
      "at column 23: \"IN\" is an operator of Apple's NSPredicate that xdg-share does not have; use == with OR"
    ),
    (
      "extensionItems.@count between {1, 2}",
      "at column 23: \"between\" is an operator of Apple's NSPredicate that xdg-share does not have; use >= AND <="
    ),
    (
      "ANY extensionItems.attachments.registeredTypeIdentifiers MATCHES \"image/.*\"",
      "at column 58: \"MATCHES\" is an operator of Apple's NSPredicate that xdg-share does not have; use LIKE, BEGINSWITH, ENDSWITH or CONTAINS"
    ),
  ])
  func applesOperatorsAreNamedWithWhatToWriteInstead(_ source: String, _ message: String) {
    #expect {
      try PredicateParser.parse(source)
    } throws: { error in
      (error as? PredicateSyntaxError)?.message == message
    }
  }

  @Test func everyExpectationIsWorded() {
    let expectations: [PredicateSyntaxError.Expected] = [
      .predicate, .expression, .comparisonOperator, .openingParenthesis, .closingParenthesis, .comma,
      .variable,
      .key(allowed: ["a"]), .knownKey(allowed: ["a"]), .boundVariable(bound: []), .collection,
      .typeIdentifiers,
      .quotedTypeIdentifier, .quantifier, .singleValue, .number, .string, .null, .closingQuote("\""),
      .endOfInput, .shallowerNesting(limit: 2),
    ]
    for expected in expectations {
      let message = PredicateSyntaxError(position: 4, expected: expected, found: .token("x")).message
      #expect(message.hasPrefix("at column 4: "))
      #expect(message.contains("\"x\""))
    }
  }
}

// MARK: LIKE

@Suite struct PredicateLikeTests {
  @Test(arguments: [
    ("", "", true), ("", "*", true), ("a", "", false), ("abc", "a*c", true), ("abc", "a*", true),
    ("abc", "*c", true), ("abc", "?b?", true), ("abc", "??", false), ("aXbXc", "a*b*c", true),
    ("abcbd", "a*bd", true), ("abcbe", "a*bd", false), ("image/png", "image/*", true), ("ab", "a**b", true),
  ])
  func likePatterns(_ string: String, _ pattern: String, _ expected: Bool) {
    #expect(PredicateEvaluator.matches(string, like: pattern) == expected)
  }
}
