/// The words of a refusal: what the service takes, then what it was given. Every front end says
/// a refusal with these (the command line, notifications, D-Bus errors, the sheet, Purpose), and
/// `xdg-share why` ends with them, all from the same ``RuleTrace``.
extension Diagnostics {
  /// What a share of nothing is told.
  public static let nothingToShare = "there is nothing to share"

  /// "MyShare takes up to 2 images; notes.txt is a text document (public.plain-text)".
  public static func message(for refusal: RuleRefusal, service: String) -> String {
    "\(service) takes \(takes(refusal.takes)); \(given(refusal.given))"
  }

  /// What a service takes: "up to 2 images", "only images (public.image)".
  public static func takes(_ takes: RuleRefusal.Takes) -> String {
    switch takes {
    case .kinds(let rule): kinds(rule)
    case .count(let op, let bound, let types, let counts, let ofAll):
      ofAll
        ? "only " + typeNouns(types, plural: true, counts: counts)
        : quantity(op, bound) + " "
          + typeNouns(types, plural: bound != 1 || quantity(op, bound) == "no", counts: counts)
    case .types(let quantifier, let types):
      switch quantifier {
      case .any: typeNouns(types, plural: true, counts: .attachments)
      case .all: "only " + typeNouns(types, plural: true, counts: .attachments)
      case .none: "anything but " + typeNouns(types, plural: true, counts: .attachments)
      }
    case .rule("FALSEPREDICATE"): "nothing (its rule is FALSEPREDICATE)"
    case .rule(let text): "only what its rule allows: " + (text.count > 200 ? text.prefix(199) + "…" : text)
    }
  }

  /// What a service was given that its rule refused.
  public static func given(_ given: RuleRefusal.Given) -> String {
    switch given {
    case .nothing: return "it was given nothing"
    case .counted(let items):
      guard !items.isEmpty else { return "it was given none" }
      return "it was given \(items.count): " + shortList(items.map(\.name))
    case .items(let items):
      let described = items.prefix(3).map { "\($0.name) \(article($0.kind)) (\($0.typeIdentifier))" }
      return described.joined(separator: "; ") + (items.count > 3 ? "; and \(items.count - 3) more" : "")
    }
  }

  /// What a dictionary rule declares: "up to 2 images and text", "one file, at least 2 in all".
  static func kinds(_ rule: DictionaryRule) -> String {
    var parts: [String] = []
    if let total = rule.maxAttachments {
      parts.append(total == 1 ? "one item of any kind" : "up to \(total) items of any kind")
    }
    for category in DictionaryRule.Category.order where rule.declares(category) {
      guard let maximum = rule.maximum(category) else {
        parts.append(noun(category))
        continue
      }
      parts.append(
        maximum == 1 ? "one \(noun(category))" : "up to \(maximum) \(noun(category, plural: true))")
    }
    guard !parts.isEmpty else { return "nothing (its rule declares no kind of item)" }
    var words = listed(parts, "and")
    if let minimum = rule.minAttachments { words += ", at least \(minimum) in all" }
    return words
  }

  /// "at least 2", "exactly 1".
  static func quantity(_ op: Predicate.Operator, _ bound: Double) -> String {
    // None allowed.
    if (op == .equal || op == .lessOrEqual) && bound == 0 || op == .less && bound == 1 { return "no" }
    let number = bound == bound.rounded() && abs(bound) < 1e15 ? String(Int64(bound)) : String(bound)
    return switch op {
    case .greaterOrEqual: "at least \(number)"
    case .greater: "more than \(number)"
    case .lessOrEqual: "up to \(number)"
    case .less: "fewer than \(number)"
    case .notEqual: "any number but \(number)"
    default: "exactly \(number)"
    }
  }

  /// Things of `types`: "images (public.image)", "images or movies (public.image,
  /// public.movie)", or, for identifiers without a common name, "items of type com.example.x".
  static func typeNouns(_ types: [String], plural: Bool, counts: RuleTrace.CountedThing) -> String {
    let unique = types.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    if counts == .typeIdentifiers {
      let thing = plural ? "type identifiers" : "type identifier"
      return unique.isEmpty ? thing : "\(thing) conforming to " + listed(unique, "or")
    }
    let item = plural ? "items" : "item"
    guard !unique.isEmpty else { return item }
    let nouns = unique.map { typeNoun($0, plural: plural) }
    guard nouns.allSatisfy({ $0 != nil }) else { return "\(item) of type " + listed(unique, "or") }
    let named = nouns.compactMap { $0 }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    return listed(named, "or") + " (" + unique.joined(separator: ", ") + ")"
  }

  /// The common name of a type identifier or MIME type, where it has one.
  static func typeNoun(_ type: String, plural: Bool) -> String? {
    let pair: (String, String)? =
      switch type {
      case "public.image", "image/*": ("image", "images")
      case "public.movie", "public.video", "video/*": ("movie", "movies")
      case "public.audio", "audio/*": ("audio file", "audio files")
      case "public.text", "text/*": ("text", "text")
      case "public.plain-text", "text/plain": ("plain text", "plain text")
      case "public.url": ("link", "links")
      case "public.file-url", "public.data": ("file", "files")
      case "public.content": ("document", "documents")
      case "public.item": ("item", "items")
      case "public.folder", "public.directory", "inode/directory": ("folder", "folders")
      case "public.archive": ("archive", "archives")
      case "com.adobe.pdf", "application/pdf": ("PDF document", "PDF documents")
      case "public.jpeg", "image/jpeg": ("JPEG image", "JPEG images")
      case "public.png", "image/png": ("PNG image", "PNG images")
      case "public.html", "text/html": ("web page", "web pages")
      default: nil
      }
    return pair.map { plural ? $0.1 : $0.0 }
  }

  /// "is a text document", "is text".
  static func article(_ kind: GivenItem.Kind) -> String {
    switch kind {
    case .folder: "is a folder"
    case .image: "is an image"
    case .movie: "is a movie"
    case .audio: "is an audio file"
    case .pdf: "is a PDF document"
    case .textDocument: "is a text document"
    case .archive: "is an archive"
    case .file: "is a file"
    case .link: "is a link"
    case .text: "is text"
    }
  }

  /// "a, b and c".
  public static func listed(_ parts: [String], _ conjunction: String) -> String {
    guard parts.count > 1 else { return parts.first ?? "" }
    return parts.dropLast().joined(separator: ", ") + " \(conjunction) " + parts[parts.count - 1]
  }

  /// The first names of a list, the rest counted.
  static func shortList(_ names: [String]) -> String {
    let shown = names.prefix(3)
    return shown.joined(separator: ", ")
      + (names.count > shown.count ? " and \(names.count - shown.count) more" : "")
  }
}
