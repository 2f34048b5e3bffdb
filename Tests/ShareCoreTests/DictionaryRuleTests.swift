import Testing

@testable import ShareCore

/// The dictionary form of `NSExtensionActivationRule`, key by key.
// Swift Testing has an `Attachment` of its own.
typealias Attachment = ShareCore.Attachment

@Suite struct DictionaryRuleTests {
  static let types = TypeSystem(mime: MIMEHierarchy())

  static func file(_ uti: String, _ mime: String) -> Attachment {
    Attachment(item: .file(FilePath("/f")), typeIdentifiers: [uti, mime])
  }
  static let png = file("public.png", "image/png")
  static let movie = file("public.mpeg-4", "video/mp4")
  static let pdf = file("com.adobe.pdf", "application/pdf")
  static let link = Attachment(
    item: .webURL("https://example.org/"), typeIdentifiers: TypeSystem.webURLIdentifiers)
  static let text = Attachment(item: .text("hi"), typeIdentifiers: TypeSystem.textIdentifiers)

  static func accepts(_ rule: DictionaryRule, _ attachments: [Attachment]) -> Bool {
    rule.accepts(ActivationSelection(attachments: attachments, types: types))
  }

  static let movieTypes = TypeSystem(mime: MIMEHierarchy())

  @Test func hoiAcceptsOneImageOrOneWebURL() {
    let hoi = DictionaryRule(maxImages: 1, maxWebURLs: 1)
    #expect(Self.accepts(hoi, [Self.png]))
    #expect(Self.accepts(hoi, [Self.link]))
    #expect(Self.accepts(hoi, [Self.png, Self.link]))
    #expect(!Self.accepts(hoi, [Self.png, Self.png]))
    #expect(!Self.accepts(hoi, [Self.link, Self.link]))
    #expect(!Self.accepts(hoi, [Self.pdf]))
    #expect(!Self.accepts(hoi, [Self.text]))
    #expect(!Self.accepts(hoi, []))
  }

  @Test func zeroCountIsAnAbsentKey() {
    let rule = DictionaryRule(maxImages: 0, supportsText: true)
    #expect(rule.maxImages == nil)
    #expect(!Self.accepts(rule, [Self.png]))
    #expect(Self.accepts(rule, [Self.text]))
  }

  @Test func filesOfAnyTypeCountAgainstFileMaximum() {
    let rule = DictionaryRule(maxFiles: 2)
    #expect(Self.accepts(rule, [Self.pdf, Self.png]))
    #expect(!Self.accepts(rule, [Self.pdf, Self.png, Self.pdf]))
    #expect(!Self.accepts(rule, [Self.link]))
  }

  @Test func imagesUseTheirOwnMaximumWhenGiven() {
    let rule = DictionaryRule(maxFiles: 1, maxImages: 3)
    #expect(Self.accepts(rule, [Self.png, Self.png, Self.png, Self.pdf]))
    #expect(!Self.accepts(rule, [Self.png, Self.pdf, Self.pdf]))
  }

  @Test func moviesCountAgainstMovieMaximum() {
    let rule = DictionaryRule(maxMovies: 1)
    let movie = Self.movie
    let selection = { (a: [Attachment]) in
      rule.accepts(ActivationSelection(attachments: a, types: Self.movieTypes))
    }
    #expect(selection([movie]))
    #expect(!selection([movie, movie]))
    #expect(!selection([Self.png]))
  }

  @Test func attachmentCountsBoundTheTotal() {
    let rule = DictionaryRule(maxAttachments: 2, minAttachments: 2, maxFiles: 5, supportsText: true)
    #expect(!Self.accepts(rule, [Self.pdf]))
    #expect(Self.accepts(rule, [Self.pdf, Self.text]))
    #expect(!Self.accepts(rule, [Self.pdf, Self.pdf, Self.text]))
    #expect(Self.accepts(rule, [Self.png, Self.link]))
  }

  @Test func attachmentMaximumAcceptsAnyType() {
    let rule = DictionaryRule(maxAttachments: 3, maxImages: 1)
    #expect(Self.accepts(rule, [Self.pdf, Self.text, Self.link]))
    #expect(!Self.accepts(rule, [Self.pdf, Self.text, Self.link, Self.pdf]))
    #expect(!Self.accepts(rule, [Self.png, Self.png]))
    #expect(!Self.accepts(DictionaryRule(minAttachments: 1), [Self.pdf]), "a minimum alone declares no type")
  }

  @Test func strictRejectsUndeclaredAttachments() {
    for rule in [
      DictionaryRule(maxImages: 1), DictionaryRule(maxImages: 1, version: 2, usesStrictMatching: true),
    ] {
      #expect(rule.isStrict)
      #expect(!Self.accepts(rule, [Self.png, Self.text]))
    }
  }

  @Test func fuzzyToleratesUndeclaredAttachmentsButKeepsMaxima() {
    let rule = DictionaryRule(maxImages: 1, version: 2)
    #expect(!rule.isStrict)
    #expect(Self.accepts(rule, [Self.png, Self.text]))
    #expect(Self.accepts(rule, [Self.png, Self.pdf, Self.link]))
    #expect(!Self.accepts(rule, [Self.png, Self.png, Self.text]))
    #expect(!Self.accepts(rule, [Self.text, Self.pdf]))
  }

  @Test func webPageAcceptsLinksWhenWebURLIsAbsent() {
    #expect(Self.accepts(DictionaryRule(maxWebPages: 1), [Self.link]))
    #expect(!Self.accepts(DictionaryRule(maxWebPages: 1), [Self.link, Self.link]))
    #expect(Self.accepts(DictionaryRule(maxWebURLs: 1, maxWebPages: 2), [Self.link, Self.link]))
  }

  @Test func mastodonAndWordPressRules() {
    let mastodon = DictionaryRule(maxImages: 4, maxMovies: 1, supportsText: true, maxWebURLs: 1)
    #expect(Self.accepts(mastodon, [Self.text, Self.link, Self.png, Self.png, Self.png, Self.png]))
    #expect(!Self.accepts(mastodon, [Self.pdf]))
    let wordpress = DictionaryRule(maxImages: 1, supportsText: true, maxWebURLs: 1, version: 2)
    #expect(Self.accepts(wordpress, [Self.text, Self.pdf]))
    #expect(!Self.accepts(wordpress, [Self.png, Self.png]))
  }
}
