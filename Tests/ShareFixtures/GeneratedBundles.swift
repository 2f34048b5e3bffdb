import Foundation

/// Generated share services, many at a time, for benchmarks and tests of many bundles.
extension BundleFixture {
  /// Signal's predicate: any file or link.
  public static let signalPredicate = """
    SUBQUERY (extensionItems, $extensionItem, SUBQUERY ($extensionItem.attachments, $attachment,
      ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.data" ||
      ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url").@count >= 1).@count == 1
    """

  /// A predicate: some attachment conforms to `type`.
  public static func conformingPredicate(_ type: String) -> String {
    """
    SUBQUERY (extensionItems, $extensionItem, SUBQUERY ($extensionItem.attachments, $attachment,
      ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "\(type)").@count >= 1).@count == 1
    """
  }

  /// A dictionary rule from `NSExtensionActivation<key>: value` pairs (the prefix left out).
  public static func activationDictionary(_ entries: [(String, String)]) -> String {
    dictionary(entries.map { ("NSExtensionActivation\($0.0)", $0.1) })
  }

  /// Generated service number `index` (`org.bench.service<index>` unless `id` is given), named
  /// `Service <index>`, with a version, an icon and, for even numbers, a description. Eight kinds
  /// of rule, in turn, so that half of them accept one PNG:
  ///
  /// | index % 8 | rule | one PNG | 1,000 mixed files |
  /// |---|---|---|---|
  /// | 0 | Signal's predicate (any file or link) | yes | yes |
  /// | 1 | Hoi's dictionary (one image, one link) | yes | no |
  /// | 2 | dictionary: text only | no | no |
  /// | 3 | dictionary: at most 10 files | yes | no |
  /// | 4 | predicate: some attachment is an image | yes | yes |
  /// | 5 | predicate: some attachment is a PDF | no | yes |
  /// | 6 | dictionary: at most 5 movies | no | no |
  /// | 7 | dictionary: one web page, fuzzy | no | no |
  public static func generated(index: Int, id: String? = nil) -> BundleFixture {
    let description =
      index % 2 == 0
      ? "<key>XDGShareDescription</key><string>Sends things to service number \(index)</string>" : ""
    return BundleFixture(
      id: id ?? "org.bench.service\(index)", name: "Service \(index)", ruleXML: generatedRule(index: index),
      extraXML: """
        <key>CFBundleShortVersionString</key><string>1.\(index % 10)</string>
          <key>CFBundleIconName</key><string>mail-send</string>
          \(description)
        """)
  }

  /// The activation rule of generated service number `index`: see ``generated(index:id:)``.
  public static func generatedRule(index: Int) -> String {
    func integer(_ value: Int) -> String { "<integer>\(value)</integer>" }
    switch index % 8 {
    case 0: return predicate(signalPredicate)
    case 1:
      return activationDictionary([
        ("SupportsImageWithMaxCount", integer(1)), ("SupportsWebURLWithMaxCount", integer(1)),
      ])
    case 2: return activationDictionary([("SupportsText", "<true/>")])
    case 3: return activationDictionary([("SupportsFileWithMaxCount", integer(10))])
    case 4: return predicate(conformingPredicate("public.image"))
    case 5: return predicate(conformingPredicate("com.adobe.pdf"))
    case 6: return activationDictionary([("SupportsMovieWithMaxCount", integer(5))])
    default:
      return activationDictionary([
        ("DictionaryVersion", integer(2)), ("SupportsWebPageWithMaxCount", integer(1)),
      ])
    }
  }
}
