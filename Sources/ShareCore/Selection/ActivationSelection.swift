/// A selection made ready for activation rules: attachments grouped into classes of equal
/// type identifiers, each identifier's conformance worked out once.
///
/// Building one costs a conformance closure per distinct identifier; evaluating any number of rules
/// against it afterwards only looks things up. That is what lets hundreds of services be matched
/// against thousands of files in well under a millisecond.
public struct ActivationSelection: Sendable {
  /// One extension item, as Apple hosts present a selection.
  public struct Item: Sendable {
    /// Each attachment's type class, an index into ``ActivationSelection/typeClasses``.
    public var attachmentClasses: [Int]
    /// The same attachments as (type class, how many), each class once, in order of first use.
    public var classCounts: [(typeClass: Int, count: Int)]
    public var attributedContentText: String?
  }

  /// Attachments that register the same identifiers, and so answer every type question alike.
  public struct TypeClass: Sendable {
    public var kind: Kind
    /// Indexes into ``ActivationSelection/identifiers``, most specific first.
    public var identifiers: [Int]
    /// How many attachments of the selection are of this class.
    public var count: Int
  }

  /// What kind of content a class holds, for dictionary rules.
  public enum Kind: Int, Hashable, Sendable, CaseIterable {
    case text
    case webURL
    case image
    case movie
    case otherFile
  }

  /// The attachments themselves, in selection order.
  public let attachments: [Attachment]
  public let items: [Item]
  public let typeClasses: [TypeClass]
  /// Every distinct type identifier of the selection.
  public let identifiers: [String]
  /// For each identifier, every identifier and MIME wildcard it conforms to (itself included).
  public let conformance: [Set<String>]
  /// How many attachments there are of each kind.
  public let kindCounts: KindCounts

  /// How many attachments there are of each kind; iterated, the kinds present, in ``Kind``'s order.
  public struct KindCounts: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    // A count per kind by its raw value. Not a dictionary keyed by kind: a program's first
    // dictionary of a new key type has the runtime scan every conformance record of the binary
    // (`Kind: Hashable`), a tenth of a millisecond for `xdg-share list`.
    private var counts = [Int](repeating: 0, count: Kind.allCases.count)

    public init() {}

    public init(dictionaryLiteral elements: (Kind, Int)...) {
      for (kind, count) in elements { self[kind] += count }
    }

    public subscript(kind: Kind) -> Int {
      get { counts[kind.rawValue] }
      set { counts[kind.rawValue] = newValue }
    }

    public func makeIterator() -> IndexingIterator<[(kind: Kind, count: Int)]> {
      Kind.allCases.compactMap { kind in self[kind] > 0 ? (kind, self[kind]) : nil }.makeIterator()
    }
  }

  /// Groups `attachments` and works out their conformance with `types`.
  public init(attachments: [Attachment], types: TypeSystem) {
    var identifierIndex: [String: Int] = [:]
    var identifiers: [String] = []
    var conformance: [Set<String>] = []
    // By the identifiers and kind, as text: `[Int]` keys cost a conformance scan (see `KindCounts`).
    var classIndex: [String: Int] = [:]
    var classes: [TypeClass] = []
    var attachmentClasses: [Int] = []
    var kindCounts = KindCounts()
    var texts: [String] = []
    // Selections come in runs of one type (a thousand photos): a file or link registering the
    // same identifiers as the one before is of its class, found without hashing anything.
    var previous: (typeIdentifiers: [String], isFile: Bool, typeClass: Int)?

    for attachment in attachments {
      let isFile: Bool
      switch attachment.item {
      case .file: isFile = true
      case .webURL: isFile = false
      case .text: previous = nil; isFile = false
      }
      if let previous, previous.isFile == isFile,
        previous.typeIdentifiers == attachment.typeIdentifiers
      {
        classes[previous.typeClass].count += 1
        attachmentClasses.append(previous.typeClass)
        kindCounts[classes[previous.typeClass].kind] += 1
        continue
      }
      let ids = attachment.typeIdentifiers.map { id -> Int in
        if let index = identifierIndex[id] { return index }
        identifierIndex[id] = identifiers.count
        identifiers.append(id)
        conformance.append(types.conformanceClosure(of: id))
        return identifiers.count - 1
      }
      let kind: Kind
      switch attachment.item {
      case .text(let text):
        kind = .text
        texts.append(text)
      case .webURL:
        kind = .webURL
      case .file:
        func conforms(to family: String) -> Bool { ids.contains { conformance[$0].contains(family) } }
        kind = conforms(to: "public.image") ? .image : conforms(to: "public.movie") ? .movie : .otherFile
      }
      kindCounts[kind] += 1
      var key = String(kind.rawValue)
      for id in ids { key += "," + String(id) }
      let typeClass: Int
      if let existing = classIndex[key] {
        typeClass = existing
        classes[existing].count += 1
      } else {
        typeClass = classes.count
        classIndex[key] = classes.count
        classes.append(TypeClass(kind: kind, identifiers: ids, count: 1))
      }
      attachmentClasses.append(typeClass)
      previous = kind == .text ? nil : (attachment.typeIdentifiers, isFile, typeClass)
    }
    self.attachments = attachments
    self.items = [
      Item(
        attachmentClasses: attachmentClasses,
        classCounts: classes.indices.map { ($0, classes[$0].count) },
        attributedContentText: texts.isEmpty ? nil : texts.joined(separator: "\n"))
    ]
    self.typeClasses = classes
    self.identifiers = identifiers
    self.conformance = conformance
    self.kindCounts = kindCounts
  }

  /// Whether identifier number `identifier` conforms to `target` (a lowercase UTI or MIME type,
  /// possibly a `type/*` wildcard).
  @inlinable
  public func identifier(_ identifier: Int, conformsTo target: String) -> Bool {
    conformance[identifier].contains(target)
  }

  /// The number of attachments in all.
  public var attachmentCount: Int { attachments.count }
}
