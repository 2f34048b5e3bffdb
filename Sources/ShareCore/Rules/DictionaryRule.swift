/// The dictionary form of `NSExtensionActivationRule`.
///
/// A count of 0 is the same as an absent key. Matching, as documented in `docs/activation-rules.md`:
///
/// - Each attachment falls into one category: text, web URL, image (conforms to `public.image`),
///   movie (conforms to `public.movie`) or other file. An image or movie counts against
///   `…ImageWithMaxCount` / `…MovieWithMaxCount` when that key is given, and otherwise against
///   `…FileWithMaxCount`; every other file counts against `…FileWithMaxCount`. A link counts
///   against `…WebURLWithMaxCount`, or `…WebPageWithMaxCount` when only that is given (Linux hosts
///   run no page preprocessing, so a page is shared as its address).
/// - Strict matching (`NSExtensionActivationDictionaryVersion` below 2, or
///   `NSExtensionActivationUsesStrictMatching`): every attachment must fall into a declared
///   category, and no category may exceed its maximum.
/// - Fuzzy matching (version 2 without strict matching): at least one attachment must fall into a
///   declared category and no category may exceed its maximum; attachments of undeclared
///   categories are tolerated.
/// - In both, the total number of attachments must lie within `…AttachmentsWithMinCount` and
///   `…AttachmentsWithMaxCount` when given, and an empty selection is never accepted.
///   `…AttachmentsWithMaxCount` means attachments of any type: with it, no kind is undeclared.
public struct DictionaryRule: Sendable, Equatable {
  public var maxAttachments: Int?
  public var minAttachments: Int?
  public var maxFiles: Int?
  public var maxImages: Int?
  public var maxMovies: Int?
  public var supportsText: Bool
  public var maxWebURLs: Int?
  public var maxWebPages: Int?
  public var version: Int
  public var usesStrictMatching: Bool

  public init(
    maxAttachments: Int? = nil, minAttachments: Int? = nil, maxFiles: Int? = nil, maxImages: Int? = nil,
    maxMovies: Int? = nil, supportsText: Bool = false, maxWebURLs: Int? = nil, maxWebPages: Int? = nil,
    version: Int = 1, usesStrictMatching: Bool = false
  ) {
    // A count of 0 means the key is absent.
    func positive(_ value: Int?) -> Int? { value.flatMap { $0 > 0 ? $0 : nil } }
    self.maxAttachments = positive(maxAttachments)
    self.minAttachments = positive(minAttachments)
    self.maxFiles = positive(maxFiles)
    self.maxImages = positive(maxImages)
    self.maxMovies = positive(maxMovies)
    self.supportsText = supportsText
    self.maxWebURLs = positive(maxWebURLs)
    self.maxWebPages = positive(maxWebPages)
    self.version = version
    self.usesStrictMatching = usesStrictMatching
  }

  /// Whether matching is strict: Apple's `UsesStrictMatching || DictionaryVersion < 2`.
  public var isStrict: Bool { usesStrictMatching || version < 2 }

  /// What a dictionary rule counts: each attachment falls into one category.
  public enum Category: Hashable, Sendable {
    case text, webURL, image, movie, file

    /// The order in which limits are checked: file, image, movie, web URL, text.
    static let order: [Category] = [.file, .image, .movie, .webURL, .text]

    var index: Int {
      switch self {
      case .file: 0
      case .image: 1
      case .movie: 2
      case .webURL: 3
      case .text: 4
      }
    }
  }

  /// The maximum of category number `index` (``Category/index``); -1 where it is not declared,
  /// `Int.max` for text, which has no maximum.
  private func limit(_ index: Int) -> Int {
    switch index {
    case 0: maxFiles ?? -1
    case 1: maxImages ?? -1
    case 2: maxMovies ?? -1
    case 3: (maxWebURLs ?? maxWebPages).map { max($0, maxWebPages ?? 0) } ?? -1
    default: supportsText ? .max : -1
    }
  }

  public func accepts(_ selection: ActivationSelection) -> Bool {
    rejection(of: selection) == nil
  }

  /// Why the rule refuses `selection`, or `nil` when it accepts it.
  func rejection(of selection: ActivationSelection) -> RuleRejection? {
    let total = selection.attachmentCount
    guard total > 0 else { return .empty }
    if let maxAttachments, total > maxAttachments {
      return .tooManyAttachments(maximum: maxAttachments, found: total)
    }
    if let minAttachments, total < minAttachments {
      return .tooFewAttachments(minimum: minAttachments, found: total)
    }

    // Fixed-size counters indexed by category: no dictionaries, no hashing, no allocation.
    var used = (0, 0, 0, 0, 0)
    var undeclared = (0, 0, 0, 0, 0)
    func add(_ tuple: inout (Int, Int, Int, Int, Int), _ index: Int, _ count: Int) {
      switch index {
      case 0: tuple.0 += count
      case 1: tuple.1 += count
      case 2: tuple.2 += count
      case 3: tuple.3 += count
      default: tuple.4 += count
      }
    }
    func get(_ tuple: (Int, Int, Int, Int, Int), _ index: Int) -> Int {
      switch index {
      case 0: tuple.0
      case 1: tuple.1
      case 2: tuple.2
      case 3: tuple.3
      default: tuple.4
      }
    }
    for (kind, count) in selection.kindCounts {
      let own: Category =
        switch kind {
        case .text: .text
        case .webURL: .webURL
        case .image: .image
        case .movie: .movie
        case .otherFile: .file
        }
      let category: Category? =
        limit(own.index) >= 0
        ? own : (own == .image || own == .movie) && limit(Category.file.index) >= 0 ? .file : nil
      if let category { add(&used, category.index, count) } else { add(&undeclared, own.index, count) }
    }
    for category in Category.order {
      let count = get(used, category.index)
      if count > 0, count > max(0, limit(category.index)) {
        return .tooMany(category, maximum: max(0, limit(category.index)), found: count)
      }
    }
    // `…AttachmentsWithMaxCount` is Apple's "attachments of any type": with it, every kind is
    // declared, up to the total.
    if maxAttachments != nil { undeclared = (0, 0, 0, 0, 0) }
    let undeclaredTotal = undeclared.0 + undeclared.1 + undeclared.2 + undeclared.3 + undeclared.4
    let firstUndeclared = Category.order.first { get(undeclared, $0.index) > 0 }
    if isStrict, let firstUndeclared { return .unsupported(firstUndeclared) }
    if !isStrict, undeclaredTotal == total, let firstUndeclared { return .unsupported(firstUndeclared) }
    return nil
  }
}

/// Why a dictionary rule refuses a selection: what the evaluator stops at. People are told
/// from the rule's trace instead (``RuleTrace``), which says what was counted.
enum RuleRejection: Equatable, Sendable {
  case empty
  case tooManyAttachments(maximum: Int, found: Int)
  case tooFewAttachments(minimum: Int, found: Int)
  case tooMany(DictionaryRule.Category, maximum: Int, found: Int)
  case unsupported(DictionaryRule.Category)
}
