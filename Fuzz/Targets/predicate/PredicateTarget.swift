import FuzzSupport
import ShareCore

/// The predicate parser and evaluator: the input is an `NSExtensionActivationRule` string. A
/// predicate that parses is evaluated against fixed selections; the rule's answer and its reason
/// for refusing must agree.
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
  for attachments in selections {
    let selection = ActivationSelection(attachments: attachments, types: fuzzTypes)
    let accepted = predicate.evaluate(selection)
    expect(rule.accepts(selection) == accepted, "accepts disagrees with evaluate")
    expect((rule.rejection(of: selection) == nil) == accepted, "rejection disagrees with evaluate")
    expect(
      (rule.rejection(of: attachments, types: fuzzTypes) == nil) == accepted,
      "the rejection of attachments disagrees with evaluate")
  }
  return 0
}

let selections = fuzzSelections
