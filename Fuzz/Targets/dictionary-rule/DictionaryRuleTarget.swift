import FuzzSupport
import ShareCore

/// Dictionary rules (`NSExtensionActivationSupports…`): a rule and a selection made from the
/// input; whether it accepts and its trace must agree, and the rule must keep its word on
/// counts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDictionaryRule(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  var input = FuzzInput(inputBytes(data, size))
  func count() -> Int? { input.bool() ? nil : input.int(in: -1...20) }
  let rule = DictionaryRule(
    maxAttachments: count(), minAttachments: count(), maxFiles: count(), maxImages: count(),
    maxMovies: count(), supportsText: input.bool(), maxWebURLs: count(), maxWebPages: count(),
    version: input.int(in: 0...3), usesStrictMatching: input.bool())
  let attachments = attachments(from: &input, maximum: 24)
  let selection = ActivationSelection(attachments: attachments, types: fuzzTypes)
  let accepted = rule.accepts(selection)
  let activation = ActivationRule.dictionary(rule)
  let trace = activation.trace(attachments, types: fuzzTypes)
  expect(trace.accepted == accepted, "the trace disagrees with accepts: \(rule)")
  expect((trace.refusal == nil) == accepted, "a refusal without refusing, or the reverse")
  if !attachments.isEmpty, RuleLint.neverAccepts(activation) != nil {
    expect(!accepted, "the lint says it never accepts, and it accepts: \(rule)")
  }
  if accepted, let maximum = rule.maxAttachments {
    expect(attachments.count <= maximum, "more attachments than the rule allows")
  }
  if accepted, let minimum = rule.minAttachments {
    expect(attachments.count >= minimum, "fewer attachments than the rule wants")
  }
  return 0
}
