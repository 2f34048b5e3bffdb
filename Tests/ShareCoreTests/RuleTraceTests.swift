// `Attachment` is spelled `ShareCore.Attachment`: Swift Testing has an `Attachment` of its own.

import Foundation
import ShareTestSupport
import Testing

@testable import ShareCore

/// The rule trace (`xdg-share why`, `Explain`, every refusal's words) against the evaluators, on
/// every rule of the corpus: the fuzzers' predicates, the bundled services', the seeds', Apple's
/// examples and a grid of dictionary rules.
@Suite struct RuleTraceTests {
  static let types = TypeSystem(mime: MIMEHierarchy())
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  // MARK: Selections, with names a terminal must not be fooled by

  static func file(_ name: [UInt8], _ identifiers: [String], folder: Bool = false) -> ShareCore.Attachment {
    ShareCore.Attachment(
      item: .file(FilePath(bytes: Array("/in/".utf8) + name)), typeIdentifiers: identifiers,
      file: FileFacts(contentType: identifiers.last ?? "", size: 1, isDirectory: folder))
  }

  static let png = file(Array("a\nb.png".utf8), ["public.png", "image/png"])
  static let jpeg = file(Array("-rf .jpg".utf8), ["public.jpeg", "image/jpeg"])
  static let notes = file(Array("$(reboot).txt".utf8), ["public.plain-text", "text/plain"])
  static let pdf = file(Array("\u{202E}fdp.exe".utf8), ["com.adobe.pdf", "application/pdf"])
  static let movie = file(Array("Ünïcödé.mov".utf8), ["com.apple.quicktime-movie", "video/quicktime"])
  static let folder = file(Array("Holiday".utf8), ["public.folder", "inode/directory"], folder: true)
  static let latin1 = file(
    [0xE9, 0x74, 0xE9, 0x2E, 0x6F, 0x64, 0x74], ["application/vnd.oasis.opendocument.text"])
  static let link = ShareCore.Attachment(
    item: .webURL("https://example.org/?q=\u{1B}[2J"), typeIdentifiers: ["public.url"])
  static let text = ShareCore.Attachment(
    item: .text("Hello\tworld\n\"quoted\""), typeIdentifiers: ["public.plain-text", "text/plain"])

  static let selections: [(name: String, attachments: [ShareCore.Attachment])] = [
    ("nothing", []), ("one image", [png]), ("two images", [png, jpeg]), ("three images", [png, jpeg, png]),
    ("a text file", [notes]), ("an image and a text file", [png, notes]), ("a PDF", [pdf]),
    ("a movie", [movie]), ("a folder", [folder]), ("a file named in Latin-1", [latin1]), ("a link", [link]),
    ("a text", [text]), ("a text and a link", [text, link]),
    ("everything", [png, jpeg, notes, pdf, movie, folder, latin1, link, text]),
    ("fourteen images", Array(repeating: png, count: 14)),
  ]

  // MARK: The corpus

  /// Rules from Apple's guide and the seeds' tutorials, as written there.
  static let examples = [
    // Apple's "Declaring Supported Data Types for a Share or Action Extension".
    """
    SUBQUERY (extensionItems, $extensionItem, SUBQUERY ($extensionItem.attachments, $attachment, \
    ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image").@count == \
    $extensionItem.attachments.@count).@count == 1
    """,
    """
    SUBQUERY (extensionItems, $extensionItem, SUBQUERY ($extensionItem.attachments, $attachment, \
    ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image" || \
    ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.movie").@count <= 2).@count >= 1
    """,
    """
    SUBQUERY (extensionItems, $extensionItem, SUBQUERY ($extensionItem.attachments, $attachment, \
    ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "com.adobe.pdf").@count == 1).@count == 1
    """,
    "ANY extensionItems.attachments.registeredTypeIdentifiers UTI-EQUALS \"public.url\"",
    "NONE extensionItems.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.folder\"",
    "SUBQUERY(extensionItems, $e, $e.attributedContentText CONTAINS \"world\").@count == 1",
    "TRUEPREDICATE", "FALSEPREDICATE",
  ]

  /// The bundled services' rules, read from data/extensions as the loader reads them.
  static func bundledRules() throws -> [(String, ActivationRule)] {
    let source = root.appendingPathComponent("data/extensions").path
    let desktop = try TemporaryDesktop(prefix: "rule-trace-test")
    var rules: [(String, ActivationRule)] = []
    for name in try FileManager.default.contentsOfDirectory(atPath: source).sorted() {
      let bundle = "\(desktop.files)/\(name)"
      try FileManager.default.copyItem(atPath: "\(source)/\(name)", toPath: bundle)
      try "#!/bin/sh\n".write(toFile: "\(bundle)/share", atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: "\(bundle)/share")
      let service = try #require(BundleLoader(languages: []).load(bundleAt: bundle).service, "\(name)")
      rules.append((service.id, service.rule))
    }
    return rules
  }

  /// The seeds' rules (ShareByMail offers itself for everything; Hoi's dictionary).
  static func seedRules() throws -> [(String, ActivationRule)] {
    let desktop = try TemporaryDesktop(prefix: "rule-trace-test")
    return try SeedBundle.all.compactMap { seed in
      let outcome = BundleLoader(languages: []).load(bundleAt: try seed.write(into: desktop.files))
      return outcome.service.map { ("\(seed.id) (\(seed.name))", $0.rule) }
    }
  }

  /// Every predicate the fuzzers start from that parses.
  static func fuzzRules() throws -> [ActivationRule] {
    let folder = root.appendingPathComponent("Fuzz/corpus/predicate").path
    return try FileManager.default.contentsOfDirectory(atPath: folder).sorted().compactMap { name in
      let data = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)"))
      return (try? PredicateParser.parse(String(decoding: data, as: UTF8.self))).map(ActivationRule.predicate)
    }
  }

  /// Dictionary rules over a grid of their keys: every combination of a few values each.
  static var dictionaryGrid: [ActivationRule] {
    var rules: [ActivationRule] = []
    for total in [nil, 2] as [Int?] {
      for minimum in [nil, 2] as [Int?] {
        for files in [nil, 1, 3] as [Int?] {
          for images in [nil, 1, 2] as [Int?] {
            for movies in [nil, 1] as [Int?] {
              for text in [false, true] {
                for links in [nil, 1] as [Int?] {
                  for (version, strict) in [(1, false), (2, false), (2, true)] {
                    rules.append(
                      .dictionary(
                        DictionaryRule(
                          maxAttachments: total, minAttachments: minimum, maxFiles: files, maxImages: images,
                          maxMovies: movies, supportsText: text, maxWebURLs: links, version: version,
                          usesStrictMatching: strict)))
                  }
                }
              }
            }
          }
        }
      }
    }
    return rules
  }

  // MARK: The trace is the evaluator's answer

  @Test func theTraceGivesTheEvaluatorsAnswerOnEveryRuleOfTheCorpus() throws {
    let fuzzed = try Self.fuzzRules()
    #expect(fuzzed.count >= 10, "the fuzzers' corpus should hold rules that parse")
    let rules =
      try Self.bundledRules().map(\.1) + Self.seedRules().map(\.1)
      + Self.examples.map { .predicate(try PredicateParser.parse($0)) } + fuzzed + Self.dictionaryGrid
    var checked = 0
    for rule in rules {
      let neverAccepts = RuleLint.neverAccepts(rule) != nil
      let acceptsEverything = RuleLint.acceptsEverything(rule)
      for (name, attachments) in Self.selections {
        let selection = ActivationSelection(attachments: attachments, types: Self.types)
        let accepted = rule.accepts(selection)
        let trace = rule.trace(selection)
        #expect(trace.accepted == accepted, "\(rule.source) with \(name)")
        #expect((trace.refusal == nil) == accepted, "\(rule.source) with \(name)")
        #expect(trace.accepted == trace.steps.allSatisfy(\.holds), "\(rule.source) with \(name)")
        #expect(trace.accepted || trace.refusingClause != nil, "\(rule.source) with \(name)")
        // The lint is of what can be shared: never nothing.
        if !attachments.isEmpty {
          #expect(
            !(neverAccepts && accepted), "the lint says \(rule.source) accepts nothing; it took \(name)")
          #expect(
            !(acceptsEverything && !accepted), "the lint says \(rule.source) takes all; it refused \(name)")
        }
        checked += 1
      }
    }
    #expect(checked > 10_000)
  }

  /// One trace per bundled and seed rule and per Apple example, for selections with hostile
  /// names, as `why` prints them: the golden file shows what an author reads.
  @Test func tracesOfTheBundledSeedAndExampleRulesAreTheGoldenOnes() throws {
    let rules =
      try Self.bundledRules() + Self.seedRules()
      + Self.examples.enumerated().map {
        ("Apple's example \($0.offset + 1)", .predicate(try PredicateParser.parse($0.element)))
      }
    let chosen = Self.selections.filter {
      [
        "nothing", "three images", "an image and a text file", "a folder", "a text and a link",
        "fourteen images",
      ]
      .contains($0.name)
    }
    var text = ""
    for (name, rule) in rules {
      text += "# \(name): \(rule.source)\n"
      for (selectionName, attachments) in chosen {
        let trace = rule.trace(attachments, types: Self.types)
        text += "## \(selectionName): \(trace.accepted ? "accepted" : "refused")\n"
        for step in trace.steps { Self.render(step, depth: 1, into: &text) }
        if let refusal = trace.refusal {
          text += "refused by: \(trace.refusingClause ?? "?")\n"
          text += Diagnostics.message(for: refusal, service: "S") + "\n"
        }
      }
      text += "\n"
    }
    // Not one line a name could have forged, nor a control character.
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    try Snapshot.assertMatches(text, named: "traces")
  }

  static func render(_ step: RuleTrace.Step, depth: Int, into text: inout String) {
    text += String(repeating: "  ", count: depth) + (step.holds ? "✓ " : "✗ ") + step.clause
    if let found = step.found, !found.isEmpty { text += " — " + found }
    text += "\n"
    for inner in step.shownSteps { render(inner, depth: depth + 1, into: &text) }
  }

  // MARK: Refusals in words

  @Test(
    arguments: [
      (
        DictionaryRule(maxImages: 2), [png, jpeg, png],
        "S takes up to 2 images; it was given 3: a\\nb.png, -rf .jpg, a\\nb.png"
      ),
      (
        DictionaryRule(maxImages: 2), [notes],
        "S takes up to 2 images; $(reboot).txt is a text document (public.plain-text)"
      ),
      (
        DictionaryRule(maxFiles: 1, supportsText: true), [link],
        "S takes one file and text; \"https://example.org/?q=\\u{1b}[2J\" is a link (public.url)"
      ),
      (
        DictionaryRule(maxAttachments: 2, minAttachments: 2), [png],
        "S takes up to 2 items of any kind, at least 2 in all; it was given 1: a\\nb.png"
      ),
      (DictionaryRule(supportsText: true), [], "S takes text; it was given nothing"),
      (
        DictionaryRule(), [png],
        "S takes nothing (its rule declares no kind of item); a\\nb.png is an image (public.png)"
      ),
    ] as [(DictionaryRule, [ShareCore.Attachment], String)])
  func aDictionaryRefusalSaysWhatItTakesAndWhatItGot(
    _ rule: DictionaryRule, _ attachments: [ShareCore.Attachment], _ words: String
  ) throws {
    let refusal = try #require(ActivationRule.dictionary(rule).trace(attachments, types: Self.types).refusal)
    #expect(Diagnostics.message(for: refusal, service: "S") == words)
  }

  @Test(
    arguments: [
      (
        examples[0], [png, notes],
        "S takes only images (public.image); $(reboot).txt is a text document (public.plain-text)"
      ),
      (
        examples[1], [png, jpeg, movie],
        "S takes up to 2 images or movies (public.image, public.movie); it was given 3: a\\nb.png, -rf .jpg, Ünïcödé.mov"
      ),
      (
        examples[2], [png],
        "S takes exactly 1 PDF document (com.adobe.pdf); a\\nb.png is an image (public.png)"
      ),
      (examples[3], [folder], "S takes links (public.url); Holiday/ is a folder (public.folder)"),
      (
        examples[4], [png, folder],
        "S takes anything but folders (public.folder); Holiday/ is a folder (public.folder)"
      ),
      (
        examples[7], [png], "S takes nothing (its rule is FALSEPREDICATE); a\\nb.png is an image (public.png)"
      ),
      (
        "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.image\").@count >= 2).@count == 1",
        [png], "S takes at least 2 images (public.image); it was given 1: a\\nb.png"
      ),
      (
        "ANY extensionItems.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO \"org.example.own\"", [pdf],
        "S takes items of type org.example.own; \\xe2\\x80\\xaefdp.exe is a PDF document (com.adobe.pdf)"
      ),
    ] as [(String, [ShareCore.Attachment], String)])
  func aPredicateRefusalSaysWhatItTakesAndWhatItGot(
    _ source: String, _ attachments: [ShareCore.Attachment], _ words: String
  ) throws {
    let rule = ActivationRule.predicate(try PredicateParser.parse(source))
    let refusal = try #require(rule.trace(attachments, types: Self.types).refusal)
    #expect(Diagnostics.message(for: refusal, service: "S") == words)
  }

  @Test func aSubqueryOverManyFilesShowsTwelveAndSumsUpTheRest() throws {
    let rule = ActivationRule.predicate(try PredicateParser.parse(Self.examples[0]))
    let trace = rule.trace(Array(repeating: Self.png, count: 14) + [Self.notes], types: Self.types)
    let counted = try #require(trace.steps.first?.steps.first?.steps.first)
    #expect(counted.steps.count == 15)
    #expect(counted.shownSteps.count == 13)
    #expect(counted.shownSteps.last?.clause == "3 more")
    #expect(counted.shownSteps.last?.found == "2 of them hold")
    #expect(counted.found == "14 of 15 attachments, against 15 attachments")
  }

  // MARK: The guide's rule for one PDF

  /// The pattern docs/activation-rules.md gives for one thing and nothing else (`$e.attachments.@count
  /// == 1 AND` before the inner SUBQUERY), for a PDF, with its two clauses either way round.
  static let onePDF = [
    """
    SUBQUERY(extensionItems, $e, $e.attachments.@count == 1 AND SUBQUERY($e.attachments, $a, \
    ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "com.adobe.pdf").@count == 1).@count == 1
    """,
    """
    SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, \
    ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "com.adobe.pdf").@count == 1 AND \
    $e.attachments.@count == 1).@count == 1
    """,
  ]
  static let aPDF = file(Array("a.pdf".utf8), ["com.adobe.pdf", "application/pdf"])
  static let bPDF = file(Array("b.pdf".utf8), ["com.adobe.pdf", "application/pdf"])

  /// Issue 32: refused two PDFs, the rule's trace said "2 attachments, against 1" and its
  /// refusal "it was given none". A count of a plain collection counts every element of it.
  @Test(
    arguments: [
      (onePDF[0], [aPDF, bPDF], "S takes exactly 1 item; it was given 2: a.pdf, b.pdf"),
      (
        onePDF[1], [aPDF, bPDF],
        "S takes exactly 1 PDF document (com.adobe.pdf); it was given 2: a.pdf, b.pdf"
      ),
      (
        onePDF[0], [png], "S takes exactly 1 PDF document (com.adobe.pdf); a\\nb.png is an image (public.png)"
      ),
      (
        "SUBQUERY(extensionItems, $e, $e.attachments.@count >= 2).@count == 1", [aPDF],
        "S takes at least 2 items; it was given 1: a.pdf"
      ),
      (
        "extensionItems.attachments.@count <= 1", [aPDF, bPDF],
        "S takes up to 1 item; it was given 2: a.pdf, b.pdf"
      ),
      (
        "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, $a.registeredTypeIdentifiers.@count == 1).@count == 1).@count == 1",
        [aPDF], "S takes exactly 1 type identifier; a.pdf is a PDF document (com.adobe.pdf)"
      ),
    ] as [(String, [ShareCore.Attachment], String)])
  func aRefusalSaysWhatItsTraceFound(
    _ source: String, _ attachments: [ShareCore.Attachment], _ words: String
  ) throws {
    let rule = ActivationRule.predicate(try PredicateParser.parse(source))
    let refusal = try #require(rule.trace(attachments, types: Self.types).refusal)
    #expect(Diagnostics.message(for: refusal, service: "S") == words)
  }

  /// No refusal of the corpus says it was given none of what it counted: a count refused is a
  /// count of something.
  @Test func noRefusalOfTheCorpusCountsNothingItWasGiven() throws {
    let rules =
      try Self.bundledRules().map(\.1) + Self.seedRules().map(\.1)
      + (Self.examples + Self.onePDF).map { .predicate(try PredicateParser.parse($0)) } + Self.fuzzRules()
    for rule in rules {
      for (name, attachments) in Self.selections + [("two PDFs", [Self.aPDF, Self.bPDF])] {
        let trace = rule.trace(attachments, types: Self.types)
        if case .counted(let items)? = trace.refusal?.given {
          #expect(!items.isEmpty, "\(rule.source) with \(name)")
        }
      }
    }
  }

  /// The rule is printed with the variables its author named, in `why`, in the trace and in
  /// the lint's warnings.
  @Test func theRuleIsPrintedWithItsAuthorsVariables() throws {
    for source in Self.onePDF {
      let rule = ActivationRule.predicate(try PredicateParser.parse(source))
      #expect(rule.source == source)
      let trace = rule.trace([Self.aPDF, Self.bPDF], types: Self.types)
      #expect(trace.steps.first?.clause == source)
      #expect(trace.refusingClause?.contains("$e.") == true)
    }
    let shadowing = """
      SUBQUERY(extensionItems, $x, SUBQUERY($x.attachments, $x, \
      ANY $x.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image").@count == 2).@count == 1
      """
    #expect(try PredicateParser.parse(shadowing).source == shadowing)
  }

  /// The guide's rule both ways round, as `why` shows it: its trace and its refusal side by side.
  @Test func tracesOfTheGuidesRuleAreTheGoldenOnes() throws {
    let selections: [(String, [ShareCore.Attachment])] = [
      ("two PDFs", [Self.aPDF, Self.bPDF]), ("one PDF", [Self.aPDF]),
      ("a PDF and an image", [Self.aPDF, Self.png]),
      ("nothing", []),
    ]
    var text = ""
    for source in Self.onePDF {
      let rule = ActivationRule.predicate(try PredicateParser.parse(source))
      text += "# \(rule.source)\n"
      for (name, attachments) in selections {
        let trace = rule.trace(attachments, types: Self.types)
        text += "## \(name): \(trace.accepted ? "accepted" : "refused")\n"
        for step in trace.steps { Self.render(step, depth: 1, into: &text) }
        if let refusal = trace.refusal {
          text += "refused by: \(trace.refusingClause ?? "?")\n"
          text += Diagnostics.message(for: refusal, service: "S") + "\n"
        }
      }
      text += "\n"
    }
    try Snapshot.assertMatches(text, named: "guide-rule-traces")
  }

  // MARK: The lint

  @Test(
    arguments: [
      ("FALSEPREDICATE", "FALSEPREDICATE", RuleLint.Reason.falsePredicate),
      (
        "extensionItems.@count == 2", "extensionItems.@count == 2",
        .unmeetableCount(.items, minimum: 1, maximum: 1)
      ),
      (
        "SUBQUERY(extensionItems, $e, TRUEPREDICATE).@count >= 2",
        "SUBQUERY(extensionItems, $e, TRUEPREDICATE).@count >= 2",
        .unmeetableCount(.items, minimum: 1, maximum: 1)
      ),
      (
        "SUBQUERY(extensionItems, $e, $e.attachments.@count == 0).@count == 1",
        "$e.attachments.@count == 0", .unmeetableCount(.attachments, minimum: 1, maximum: nil)
      ),
      (
        "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.image\").@count < 0).@count == 1",
        "SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.image\").@count < 0",
        .unmeetableCount(.attachments, minimum: 0, maximum: nil)
      ),
      ("extensionItems.@count == 1 AND FALSEPREDICATE", "FALSEPREDICATE", .falsePredicate),
    ] as [(String, String, RuleLint.Reason)])
  func aRuleThatCanNeverAcceptIsBlamedOnItsClause(
    _ source: String, _ clause: String, _ reason: RuleLint.Reason
  ) throws {
    let found = try #require(RuleLint.neverAccepts(.predicate(try PredicateParser.parse(source))))
    #expect(found.clause == clause)
    #expect(found.reason == reason)
  }

  @Test(arguments: [
    "TRUEPREDICATE", "extensionItems.@count == 1", "NOT FALSEPREDICATE",
    "SUBQUERY(extensionItems, $e, $e.attachments.@count >= 1).@count == 1",
  ])
  func aRuleThatCannotFailAcceptsEverything(_ source: String) throws {
    #expect(RuleLint.acceptsEverything(.predicate(try PredicateParser.parse(source))))
  }

  @Test(
    arguments: examples.dropLast(2) + [
      "SUBQUERY(extensionItems, $e, $e.attachments.@count <= 1000).@count == 1"
    ])
  func realRulesDrawNoWarning(_ source: String) throws {
    let rule = ActivationRule.predicate(try PredicateParser.parse(source))
    #expect(RuleLint.neverAccepts(rule) == nil)
    #expect(!RuleLint.acceptsEverything(rule))
  }

  @Test func dictionaryMinimumsAboveWhatTheRuleTakes() {
    let key = InfoPlistKey.Rule.minAttachments
    #expect(
      RuleLint.neverAccepts(.dictionary(DictionaryRule(maxAttachments: 2, minAttachments: 3)))?.reason
        == .minimumAboveMaximum(minimum: 3, maximum: 2))
    let strict = RuleLint.neverAccepts(
      .dictionary(DictionaryRule(minAttachments: 3, maxFiles: 1, maxImages: 1)))
    #expect(strict?.clause == "\(key) = 3")
    #expect(strict?.reason == .minimumAboveMaximum(minimum: 3, maximum: 2))
    // Fuzzy matching tolerates other kinds, which count towards the minimum; text has no maximum.
    #expect(
      RuleLint.neverAccepts(.dictionary(DictionaryRule(minAttachments: 3, maxFiles: 1, version: 2))) == nil)
    #expect(RuleLint.neverAccepts(.dictionary(DictionaryRule(minAttachments: 3, supportsText: true))) == nil)
  }

  @Test func typesNoMIMETypeHasAreNamedWithTheirClause() throws {
    let rule = ActivationRule.predicate(
      try PredicateParser.parse(
        """
        SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, \
        ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "com.example.nothing" OR \
        ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image").@count >= 1).@count == 1
        """))
    let unknown = RuleLint.unknownTypes(in: rule) { $0 == "public.image" }
    #expect(unknown.map(\.type) == ["com.example.nothing"])
    #expect(
      unknown.map(\.clause) == [
        "ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"com.example.nothing\""
      ])
  }
}
