import FuzzSupport
import ShareCore

/// The predicate parser, evaluator, trace and lint: the input is an `NSExtensionActivationRule`
/// string. A predicate that parses is evaluated against fixed selections; its trace must give
/// the evaluator's answer (and a refusal exactly when it refuses), and the lint must not call a
/// rule that accepts something one that accepts nothing, nor the reverse.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let source = String(decoding: inputBytes(data, size), as: UTF8.self)
  let predicate: Predicate
  do {
    predicate = try PredicateParser.parse(source)
  } catch {
    _ = error.message
    return 0
  }
  let rule = ActivationRule.predicate(predicate)
  let neverAccepts = RuleLint.neverAccepts(rule) != nil
  let acceptsEverything = RuleLint.acceptsEverything(rule)
  _ = predicate.source
  for attachments in selections {
    let selection = ActivationSelection(attachments: attachments, types: fuzzTypes)
    let accepted = predicate.evaluate(selection)
    expect(rule.accepts(selection) == accepted, "accepts disagrees with evaluate")
    let trace = rule.trace(selection)
    expect(trace.accepted == accepted, "the trace disagrees with evaluate")
    expect((trace.refusal == nil) == accepted, "a refusal without refusing, or the reverse")
    if let refusal = trace.refusal { _ = Diagnostics.message(for: refusal, service: "S") }
    // An empty selection is never shared; the lint reasons about the others.
    guard !attachments.isEmpty else { continue }
    expect(!(neverAccepts && accepted), "the lint says it never accepts, and it accepts")
    expect(!(acceptsEverything && !accepted), "the lint says it accepts everything, and it refuses")
  }
  return 0
}

let selections = fuzzSelections
