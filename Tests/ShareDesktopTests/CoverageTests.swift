import ShareCore
import Testing

@testable import ShareDesktop

/// How rules become MIME types and counts: by asking each rule about one type at a time.
@Suite struct CoverageTests {
  let catalog = Fixture.catalog

  func coverage(_ rule: ActivationRule) -> FileCoverage? {
    FileCoverage(rule: rule, catalog: catalog)
  }

  @Test func dictionaryCategoriesMapToMediaTypes() throws {
    let images = try #require(coverage(.dictionary(DictionaryRule(maxImages: 3))))
    #expect(images.fileTypes == ["image/gif", "image/jpeg", "image/png", "image/svg+xml"])
    #expect(!images.allFiles && !images.folders)
    #expect(images.minimumCount == 1 && images.maximumCount == 3)
    #expect(catalog.wildcardPatterns(for: images) == ["image/*"])

    let movies = try #require(coverage(.dictionary(DictionaryRule(maxMovies: 1))))
    #expect(catalog.wildcardPatterns(for: movies) == ["video/*"])

    let both = try #require(coverage(.dictionary(DictionaryRule(maxImages: 2, maxMovies: 4))))
    #expect(catalog.wildcardPatterns(for: both) == ["image/*", "video/*"])
    #expect(both.maximumCount == 4)
  }

  @Test func filesMeanEverythingFoldersIncluded() throws {
    let files = try #require(coverage(.dictionary(DictionaryRule(maxAttachments: 4, maxFiles: 10))))
    #expect(files.allFiles && files.folders && files.fileTypes.isEmpty)
    #expect(files.maximumCount == 4)
    let unlimited = try #require(coverage(.predicate(.constant(true))))
    #expect(unlimited.allFiles && unlimited.folders && unlimited.maximumCount == nil)
  }

  @Test func publicDataIsEveryFileButNoFolder() throws {
    let signal = try #require(coverage(Fixture.signalRule))
    #expect(signal.allFiles && !signal.folders && signal.maximumCount == nil)
  }

  @Test func textAndLinksOnlyTakeNoFiles() {
    #expect(coverage(.dictionary(DictionaryRule(supportsText: true, maxWebURLs: 3))) == nil)
    #expect(coverage(.predicate(.constant(false))) == nil)
    #expect(coverage(Fixture.everyAttachment(conformsTo: "public.url")) == nil)
  }

  @Test func conformanceFollowsSubclasses() throws {
    let text = try #require(coverage(Fixture.everyAttachment(conformsTo: "public.plain-text")))
    #expect(text.fileTypes.contains("text/markdown"))
    #expect(text.fileTypes.contains("application/x-shellscript"))
    #expect(text.fileTypes.contains("application/json"))
    #expect(!text.fileTypes.contains("application/pdf"))
    #expect(catalog.wildcardPatterns(for: text).first == "text/*")
    // KIO and Nemo follow subclasses: a JSON file is JavaScript.
    let inherited = catalog.inheritancePatterns(for: text)
    #expect(inherited.contains("application/javascript") && !inherited.contains("application/json"))
  }

  @Test func mimeTypesAndWildcardsInRulesWork() throws {
    let png = try #require(coverage(Fixture.everyAttachment(conformsTo: "image/png")))
    #expect(png.fileTypes == ["image/png"])
    let audio = try #require(coverage(Fixture.everyAttachment(conformsTo: "audio/*")))
    #expect(catalog.wildcardPatterns(for: audio) == ["audio/*"])
  }

  @Test func negationIsHonoured() throws {
    let notImages = try #require(
      coverage(
        Fixture.predicate(
          "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.image\").@count == 0 AND $e.attachments.@count >= 1).@count == 1"
        )))
    #expect(!notImages.fileTypes.contains("image/png") && notImages.fileTypes.contains("application/pdf"))
    #expect(notImages.folders)
  }

  @Test(
    arguments: [("== 2", 2, 2), ("<= 7", 1, 7), (">= 3", 3, nil), ("< 600", 1, 599)] as [(String, Int, Int?)])
  func countsAreFound(_ condition: String, _ minimum: Int, _ maximum: Int?) throws {
    let rule = Fixture.everyAttachment(conformsTo: "public.data", condition)
    let found = try #require(coverage(rule))
    #expect(found.minimumCount == minimum)
    #expect(found.maximumCount == maximum)
  }

  @Test func selectionKeysOfNemoAndDESEMA() {
    func make(_ minimum: Int, _ maximum: Int?) -> FileCoverage {
      FileCoverage(fileTypes: ["image/png"], minimumCount: minimum, maximumCount: maximum)
    }
    #expect(NemoActions.selection(make(1, 1)) == "s")
    #expect(NemoActions.selection(make(1, nil)) == "notnone")
    #expect(NemoActions.selection(make(2, nil)) == "m")
    #expect(NemoActions.selection(make(3, 3)) == "3")
    #expect(NemoActions.selection(make(1, 9)) == "notnone")
    #expect(DesktopActions.selectionCount(make(1, 1)) == "=1")
    #expect(DesktopActions.selectionCount(make(1, nil)) == ">0")
    #expect(DesktopActions.selectionCount(make(3, nil)) == ">2")
    #expect(DesktopActions.selectionCount(make(1, 9)) == "<10")
  }

  @Test func theMachinesOwnDatabaseGivesWildcardsAndExactLists() throws {
    let catalog = Fixture.systemCatalog
    try #require(catalog.knownTypes.count > 100, "no shared-mime-info in /usr/share/mime")
    let images = try #require(FileCoverage(rule: .dictionary(DictionaryRule(maxImages: 1)), catalog: catalog))
    #expect(catalog.inheritancePatterns(for: images).first == "image/*")
    #expect(images.fileTypes.contains("image/png") && images.fileTypes.contains("image/jpeg"))
    #expect(!images.fileTypes.contains("text/plain"))
    let rendering = try FileManagerIntegration.render(
      services: Fixture.services, executable: Fixture.executable, catalog: catalog)
    #expect(rendering.entries.count == 6)
  }
}
