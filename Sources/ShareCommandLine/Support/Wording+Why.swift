import ShareCore

/// The words of `why` on a terminal: the service, what stands in its way, the items as the rule
/// saw them, the rule clause by clause, and the verdict.
extension Wording {
  static func lines(for explanation: ServiceExplanation) -> [String] {
    let subject = explanation.name ?? explanation.id
    var lines = [explanation.name.map { "\($0) (\(explanation.id))" } ?? explanation.id]
    if let bundle = explanation.bundle { lines.append("  \(bundle.displayString)") }
    if let permissions = permissionsLine(explanation.entitlements) { lines.append("  " + permissions) }
    // What keeps it out of every sheet comes first: it is the answer whatever the items.
    for obstacle in explanation.obstacles {
      lines.append("Not offered: " + Diagnostics.message(for: obstacle, service: subject))
      if case .invalid(let problems) = obstacle { lines += problems.map { "  " + Diagnostics.line(for: $0) } }
    }
    for other in explanation.otherBundles {
      lines.append(
        "Also: \(other.location.displayString), "
          + (other.errors.isEmpty
            ? "with the same identifier, read after the one above and so not used"
            : "invalid (\(other.errors.count == 1 ? "1 error" : "\(other.errors.count) errors"), so not used)")
      )
      lines += other.errors.map { "  " + Diagnostics.line(for: $0) }
    }

    lines.append("")
    lines.append(
      explanation.items.count == 1 ? "Offered 1 item:" : "Offered \(explanation.items.count) items:")
    for item in explanation.items {
      lines.append("  \(item.name) (\(item.kind.rawValue))")
      if let mimeType = item.mimeType {
        lines.append("    type: \(mimeType), \(found(item.foundBy, item.kind))")
      }
      lines.append("    as rules see it: " + item.typeIdentifiers.joined(separator: ", "))
      if !item.conformsTo.isEmpty {
        lines.append("    conforms to: " + item.conformsTo.joined(separator: ", "))
      }
    }

    lines.append("")
    guard let rule = explanation.rule, let trace = explanation.trace else {
      lines.append("Rule: not read, as the bundle is invalid")
      return lines
    }
    switch rule {
    case .dictionary: lines.append("Rule (dictionary): " + rule.source)
    case .predicate: lines.append("Rule (predicate):")
    }
    for step in trace.steps { append(step, depth: 1, to: &lines) }

    lines.append("")
    if let clause = trace.refusingClause {
      lines.append("Refused by: \(clause)")
    }
    if let refusal = trace.refusal {
      lines.append(Diagnostics.message(for: refusal, service: subject))
    } else if explanation.obstacles.isEmpty {
      lines.append("Offered: \(subject) accepts these items.")
    } else {
      lines.append("The rule accepts these items, but \(subject) is not offered (see above).")
    }
    return lines
  }

  /// One clause, its verdict and what it found, then the clauses inside it, indented.
  private static func append(_ step: RuleTrace.Step, depth: Int, to lines: inout [String]) {
    let mark = step.holds ? "✓" : "✗"
    let found = step.found.map { $0.isEmpty ? "" : " — \($0)" } ?? ""
    lines.append(String(repeating: "  ", count: depth) + "\(mark) \(step.clause)\(found)")
    for inner in step.shownSteps { append(inner, depth: depth + 1, to: &lines) }
  }

  /// How an item's type was found, after its MIME type.
  private static func found(_ source: TypeSource, _ kind: ServiceExplanation.Item.Kind) -> String {
    switch source {
    case .name: "found by its name"
    case .content: "found by its content (the name does not settle it)"
    case .fileSystem: kind == .folder ? "as a folder" : "from what the file system says it is"
    case .caller: "as the caller said"
    case .detected: "found by xdg-share from the file handed over (its name and first bytes)"
    case .kind: kind == .link ? "as every link" : "as every text"
    }
  }
}
