import ShareCore
import ShareHost
import ShareTestSupport
import Testing

/// `ServiceCatalog` in process: bundles on a throw-away desktop, files and requirements from
/// the in-memory doubles.
@Suite struct ServiceCatalogTests {
  let host: HostDesktop
  let png = FilePath("/photos/a.png")
  let otherPNG = FilePath("/photos/b.png")

  init() throws {
    host = try HostDesktop()
    let images = BundleFixture.activationDictionary([("SupportsImageWithMaxCount", "<integer>2</integer>")])
    // Installed out of name order: the catalog sorts.
    try host.install(BundleFixture.anything(id: "org.example.zeta", name: "Zeta"))
    try host.install(BundleFixture(id: "org.example.alpha", name: "Alpha", ruleXML: images))
    try host.install(
      BundleFixture(
        id: "org.example.gamma", name: "Gamma",
        ruleXML: BundleFixture.activationDictionary([("SupportsText", "<true/>")])))
    try host.install(BundleFixture.anything(id: "org.example.delta", name: "Delta"))
    try host.install(
      BundleFixture.anything(
        id: "org.example.epsilon", name: "Epsilon",
        extraXML: BundleFixture.stringArray(InfoPlistKey.requiredPrograms, ["qrencode"])
          + BundleFixture.stringArray(InfoPlistKey.requiredBusNames, ["org.kde.kdeconnect"])))
    try host.install(
      BundleFixture.anything(
        id: "org.example.beta", name: "Beta",
        extraXML: BundleFixture.stringArray(InfoPlistKey.requiredPrograms, ["wl-copy|xclip"])),
      system: true)
    try host.hide(["org.example.delta"])
  }

  /// This desktop has `xclip` (for Beta) and nothing Epsilon needs.
  var requirements: FixedRequirements { FixedRequirements(programs: ["xclip"]) }

  var inspector: InMemoryFileInspector {
    InMemoryFileInspector([
      png: .file(contentType: "image/png", size: 70),
      otherPNG: .file(contentType: "image/png", size: 80),
      FilePath("/secret.txt"): .problem(.permissionDenied),
    ])
  }

  @Test func offersTheLoadedServicesByName() {
    let catalog = host.catalog(requirements)
    #expect(
      catalog.registry.services.map(\.id) == [
        "org.example.alpha", "org.example.beta", "org.example.delta", "org.example.epsilon",
        "org.example.gamma", "org.example.zeta",
      ])
    // The fixtures take anything, which is all that is said of them.
    #expect(catalog.registry.problems.allSatisfy { $0.kind == .acceptsEverything(clause: "TRUEPREDICATE") })
    #expect(
      catalog.offered.map(\.id) == [
        "org.example.alpha", "org.example.beta", "org.example.gamma", "org.example.zeta",
      ])
  }

  @Test func asksForRequirementsOnceWithEveryLoadedService() {
    var asked: [[String]] = []
    let catalog = ServiceCatalog(environment: host.environment, types: HostDesktop.types) { services in
      asked.append(services.map(\.id))
      return requirements
    }
    #expect(asked == [catalog.registry.services.map(\.id)])
    #expect(asked.first?.count == 6)
  }

  @Test func matchReturnsTheAcceptingServicesInOrderWithThePreparedSelection() throws {
    let inspector = self.inspector
    let items = [RequestedItem(.file(png)), RequestedItem(.file(otherPNG))]
    let match = try host.catalog(requirements).match(items, inspector: inspector)

    // Gamma takes only text; Delta is hidden; Epsilon lacks what it needs.
    #expect(match.services.map(\.id) == ["org.example.alpha", "org.example.beta", "org.example.zeta"])
    #expect(match.selection.items == items)
    #expect(
      match.selection.attachments == [
        Attachment(
          item: .file(png), typeIdentifiers: ["public.png", "image/png"],
          file: FileFacts(contentType: "image/png", size: 70, isDirectory: false)),
        Attachment(
          item: .file(otherPNG), typeIdentifiers: ["public.png", "image/png"],
          file: FileFacts(contentType: "image/png", size: 80, isDirectory: false)),
      ])
    #expect(match.activation.attachmentCount == 2)
    #expect(match.activation.kindCounts == [.image: 2])
    #expect(inspector.inspected == [png, otherPNG])
  }

  @Test func matchingAPreparedSelectionLooksAtNoFileAgain() throws {
    let inspector = self.inspector
    let catalog = host.catalog(requirements)
    let prepared = try catalog.inspect(
      [RequestedItem(.file(png)), RequestedItem(.text("hi"))], inspector: inspector)
    #expect(inspector.inspected == [png])
    let match = catalog.match(prepared)
    #expect(inspector.inspected == [png])
    #expect(inspector.inspectionCount(of: png) == 1)
    // An image and a text: too much for Alpha (images only) and Gamma (text only).
    #expect(match.services.map(\.id) == ["org.example.beta", "org.example.zeta"])
    #expect(
      match.selection.attachments.map(\.typeIdentifiers) == [
        ["public.png", "image/png"], TypeSystem.textIdentifiers,
      ])
  }

  @Test func unreadableFilesAreAllReported() {
    let inspector = self.inspector
    let items = [
      RequestedItem(.file(png)), RequestedItem(.file(FilePath("/gone.png"))),
      RequestedItem(.webURL("https://example.org/")), RequestedItem(.file(FilePath("/secret.txt"))),
    ]
    #expect(
      throws: UnreadableFiles(problems: [
        FileProblem(path: FilePath("/gone.png"), reason: .notFound),
        FileProblem(path: FilePath("/secret.txt"), reason: .permissionDenied),
      ])
    ) {
      try host.catalog(requirements).match(items, inspector: inspector)
    }
    #expect(inspector.inspected == [png, FilePath("/gone.png"), FilePath("/secret.txt")])
  }

  @Test func withheldServicesSayWhy() {
    let withheld = host.catalog(requirements).withheld
    #expect(withheld.map(\.service.id) == ["org.example.delta", "org.example.epsilon"])
    #expect(withheld.map(\.reason) == [.hidden, .missing(["qrencode", "org.kde.kdeconnect"])])
  }

  @Test func metRequirementsOfferTheService() {
    let everything = FixedRequirements(programs: ["qrencode", "wl-copy"], busNames: ["org.kde.kdeconnect"])
    let catalog = host.catalog(everything)
    #expect(catalog.withheld.map(\.reason) == [.hidden])
    #expect(catalog.offered.map(\.id).contains("org.example.epsilon"))
    #expect(catalog.offered.map(\.id).contains("org.example.beta"))
    // Without either alternative, Beta is withheld, its alternatives named as written.
    let bare = host.catalog(FixedRequirements())
    #expect(
      bare.withheld.first { $0.service.id == "org.example.beta" }?.reason == .missing(["wl-copy|xclip"]))
  }

  @Test func aHiddenServiceIsStillFoundByIdentifier() {
    let catalog = host.catalog(requirements)
    #expect(catalog.registry.hiddenServices == ["org.example.delta"])
    #expect(catalog.registry.service(withID: "org.example.delta")?.name == "Delta")
  }
}

@Suite struct ServiceLookupTests {
  @Test func aUserBundleOverridesASystemOne() throws {
    let host = try HostDesktop()
    try host.install(BundleFixture.anything(id: "org.example.dup", name: "System copy"), system: true)
    let user = try host.install(BundleFixture.anything(id: "org.example.dup", name: "User copy"))
    try host.install(BundleFixture.anything(id: "org.example.other", name: "Other"), system: true)

    let found = ServiceCatalog.service(withID: "org.example.dup", environment: host.environment)
    #expect(found?.service.name == "User copy")
    #expect(found?.service.bundlePath == user)
    #expect(found?.types.conforms("image/png", to: "public.image") == true)
    #expect(
      ServiceCatalog.service(withID: "org.example.other", environment: host.environment)?.service.name
        == "Other")
  }

  @Test func anUnknownIdentifierIsNil() throws {
    let host = try HostDesktop()
    try host.install(BundleFixture.anything(id: "org.example.known", name: "Known"))
    #expect(ServiceCatalog.service(withID: "org.example.unknown", environment: host.environment) == nil)
    #expect(ServiceCatalog.service(withID: "org.example.known", environment: host.environment) != nil)
  }
}

@Suite struct PublicFieldTests {
  func service(description: String?, version: String?) -> ShareService {
    ShareService(
      id: "org.example.x", name: "X", icon: "mail-send", description: description, version: version,
      bundlePath: "/b", executablePath: "/b/x", rule: .predicate(.constant(true)))
  }

  @Test func theFieldsInTheirOneOrder() {
    #expect(PublicField.allCases.map(\.rawValue) == ["id", "name", "icon", "description", "version"])
    let fields = service(description: "Sends it", version: "1.2").publicFields
    #expect(fields.map(\.field) == [.id, .name, .icon, .description, .version])
    #expect(fields.map(\.value) == ["org.example.x", "X", "mail-send", "Sends it", "1.2"])
  }

  @Test func absentDescriptionAndVersionAreLeftOut() {
    #expect(service(description: nil, version: nil).publicFields.map(\.field) == [.id, .name, .icon])
    #expect(
      service(description: nil, version: "2").publicFields.map(\.field) == [.id, .name, .icon, .version])
    #expect(
      service(description: "d", version: nil).publicFields.map(\.field) == [.id, .name, .icon, .description])
  }
}
