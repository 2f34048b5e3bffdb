import Foundation
import ShareTestSupport
import Testing

@testable import ShareCore

/// `ServiceRegistry.load` in process, over a user and a system folder of a throw-away desktop.
@Suite struct ServiceRegistryTests {
  let desktop: TemporaryDesktop
  let loader = BundleLoader(languages: [])

  init() throws {
    desktop = try TemporaryDesktop(prefix: "share-core-test")
  }

  var folders: [String] { [desktop.userExtensions, desktop.systemExtensions] }

  @discardableResult
  func install(_ id: String, _ name: String, system: Bool = false, folder: String? = nil, rule: String? = nil)
    throws -> String
  {
    try BundleFixture(id: id, name: name, ruleXML: rule ?? HandWrittenBundle.anyItem)
      .write(into: system ? desktop.systemExtensions : desktop.userExtensions, folder: folder)
  }

  @Test func servicesAreOrderedByNameThenIdentifier() throws {
    try install("org.example.z", "same")
    try install("org.example.a", "Same")
    try install("org.example.m", "beta", system: true)
    try install("org.example.b", "alpha")
    let registry = ServiceRegistry.load(from: folders, loader: loader)
    // Names compare without case; equal names by identifier.
    #expect(
      registry.services.map(\.id) == ["org.example.b", "org.example.m", "org.example.a", "org.example.z"])
    #expect(registry.problems == [])
  }

  @Test func theFirstBundleOfAnIdentifierWins() throws {
    let user = try install("org.example.dup", "User")
    let system = try install("org.example.dup", "System", system: true)
    // In one folder, the first name in byte order comes first.
    let first = try install("org.example.twin", "First", folder: "a-twin")
    let second = try install("org.example.twin", "Second", folder: "b-twin")
    let registry = ServiceRegistry.load(from: folders, loader: loader)
    #expect(registry.services.map(\.name) == ["First", "User"])
    #expect(registry.service(withID: "org.example.dup")?.bundlePath == user)
    #expect(
      Set(registry.problems) == [
        BundleProblem(
          file: system, key: InfoPlistKey.identifier, kind: .shadowed(by: user), severity: .warning),
        BundleProblem(
          file: second, key: InfoPlistKey.identifier, kind: .shadowed(by: first), severity: .warning),
      ])
    #expect(ServiceRegistry.first(withID: "org.example.dup", in: folders, loader: loader)?.name == "User")
    #expect(ServiceRegistry.first(withID: "org.example.twin", in: folders, loader: loader)?.name == "First")
    #expect(ServiceRegistry.first(withID: "org.example.none", in: folders, loader: loader) == nil)
  }

  @Test func aBrokenBundleIsSkippedWithItsProblem() throws {
    try install("org.example.good", "Good")
    let broken = try install("org.example.broken", "Broken")
    try FileManager.default.removeItem(atPath: "\(broken)/share")
    let registry = ServiceRegistry.load(from: folders, loader: loader)
    #expect(registry.services.map(\.id) == ["org.example.good"])
    #expect(
      registry.problems.withoutPositions == [
        BundleProblem(
          file: "\(broken)/Info.plist", key: InfoPlistKey.executable,
          kind: .missingFile(expected: .executableFileInBundle, name: "share"))
      ])
    // A broken bundle does not shadow a good one of the same identifier further on.
    try install("org.example.broken", "Fallback", system: true)
    #expect(
      ServiceRegistry.load(from: folders, loader: loader).service(withID: "org.example.broken")?.name
        == "Fallback")
  }

  @Test func onlyShareextFoldersOfExistingFoldersAreLoaded() throws {
    try install("org.example.kept", "Kept")
    let other = try install("org.example.other", "Other", folder: "other")
    try FileManager.default.moveItem(atPath: other, toPath: "\(desktop.userExtensions)/other.appex")
    let registry = ServiceRegistry.load(from: ["/no/such/folder"] + folders, loader: loader)
    #expect(registry.services.map(\.id) == ["org.example.kept"])
    #expect(registry.problems == [])
  }

  @Test func hiddenAndUnmetServicesAreNotOffered() throws {
    try install("org.example.shown", "Shown")
    try install("org.example.hidden", "Hidden")
    try BundleFixture(
      id: "org.example.needs", name: "Needs", ruleXML: HandWrittenBundle.anyItem,
      extraXML: "<key>XDGShareRequiredPrograms</key><array><string>qrencode</string></array>"
    ).write(into: desktop.userExtensions)
    try install(
      "org.example.text", "Text",
      rule: BundleFixture.dictionary([(InfoPlistKey.Rule.supportsText, "<true/>")]))
    let registry = ServiceRegistry.load(from: folders, loader: loader, hiddenServices: ["org.example.hidden"])
    #expect(registry.services.count == 4)
    let none = FixedRequirements()
    #expect(registry.offered(in: none).map(\.id) == ["org.example.shown", "org.example.text"])
    #expect(
      registry.offered(in: FixedRequirements(programs: ["qrencode"])).map(\.id) == [
        "org.example.needs", "org.example.shown", "org.example.text",
      ])
    let png = ActivationSelection(
      attachments: [
        Attachment(item: .file(FilePath("/a.png")), typeIdentifiers: ["public.png", "image/png"])
      ],
      types: TypeSystem(mime: MIMEHierarchy()))
    #expect(registry.offered(accepting: png, in: none).map(\.id) == ["org.example.shown"])
  }
}

@Suite struct FixedRequirementsTests {
  @Test func answersFromItsSets() {
    let desktop = FixedRequirements(programs: ["xclip", "qrencode"], busNames: ["org.kde.kdeconnect"])
    #expect(desktop.isProgramAvailable("xclip"))
    #expect(!desktop.isProgramAvailable("wl-copy"))
    #expect(!desktop.isProgramAvailable("XClip"))
    #expect(desktop.isBusNameAvailable("org.kde.kdeconnect"))
    #expect(!desktop.isBusNameAvailable("xclip"))
    #expect(desktop.satisfies(Requirements(programs: ["wl-copy|xclip"], busNames: ["org.kde.kdeconnect"])))
    #expect(
      desktop.unmet(Requirements(programs: ["wl-copy", "qrencode"], busNames: ["org.gnome.Shell"]))
        == ["wl-copy", "org.gnome.Shell"])
    #expect(FixedRequirements().unmet(Requirements()) == [])
  }
}

@Suite struct InMemoryFileInspectorTests {
  @Test func answersFromItsTableAndCountsEveryCall() {
    let png = FilePath("/a.png")
    let inspector = InMemoryFileInspector([
      png: .file(contentType: "image/png", size: 3), FilePath("/d"): .directory,
      FilePath("/s"): .problem(.other("I/O error")),
    ])
    #expect(throws: Never.self) { try inspector.inspect(png) }
    #expect((try? inspector.inspect(png)) == FileFacts(contentType: "image/png", size: 3, isDirectory: false))
    #expect((try? inspector.inspect(FilePath("/d")))?.isDirectory == true)
    #expect(throws: FileProblem(path: FilePath("/s"), reason: .other("I/O error"))) {
      try inspector.inspect(FilePath("/s"))
    }
    // Exact bytes: another spelling of a path is another path.
    #expect(throws: FileProblem(path: FilePath("//a.png"), reason: .notFound)) {
      try inspector.inspect(FilePath("//a.png"))
    }
    #expect(inspector.inspectionCount(of: png) == 2)
    #expect(inspector.inspected == [png, png, FilePath("/d"), FilePath("/s"), FilePath("//a.png")])
    inspector.reset()
    #expect(inspector.inspected == [])
    #expect((try? inspector.inspect(png))?.size == 3)
  }

  /// Through the type system: each file once, problems in selection order.
  @Test func feedsTheTypeSystem() {
    let inspector = InMemoryFileInspector([FilePath("/a.png"): .file(contentType: "image/png")])
    let (attachments, problems) = TypeSystem(mime: MIMEHierarchy()).attachments(
      for: [.file(FilePath("/gone")), .file(FilePath("/a.png")), .text("t")], inspector: inspector)
    #expect(attachments.map(\.typeIdentifiers) == [["public.png", "image/png"], TypeSystem.textIdentifiers])
    #expect(problems == [FileProblem(path: FilePath("/gone"), reason: .notFound)])
    #expect(inspector.inspected == [FilePath("/gone"), FilePath("/a.png")])
  }
}
