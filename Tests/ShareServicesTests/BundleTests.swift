import Foundation
import ShareTestSupport
import Testing

/// The bundles in data/extensions as `xdg-share` sees them: valid, localized, shown only where
/// their programs are, and offered for the right selections.
@Suite struct BundleTests {
  let desktop: TemporaryDesktop
  let fakes: FakePrograms

  init() throws {
    desktop = try TemporaryDesktop()
    fakes = try FakePrograms(desktop: desktop)
    try desktop.installServices()
  }

  /// `xdg-share list --json` with `arguments`: the services' identifiers, and every entry.
  func list(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> [[String: Any]] {
    let result = try Tool.run(["list", "--json"] + arguments, on: desktop, environment: environment)
    #expect(result.status == 0, "\(result.standardError)")
    return try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]] ?? []
  }

  func ids(_ arguments: [String] = [], path: String) throws -> [String] {
    try list(arguments, environment: ["PATH": path]).compactMap { $0["id"] as? String }.sorted()
  }

  @Test func everyBundleIsValidAndShipsNoProgram() throws {
    let bundles = ServiceBundles.all.map { desktop.bundle($0) }
    let result = try Tool.run(["validate"] + bundles, on: desktop)
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    for id in ServiceBundles.all {
      #expect(!FileManager.default.fileExists(atPath: "\(ServiceBundles.source)/\(id).shareext/share"))
    }
  }

  @Test func everyBundleHasAVersionAnIconAndADescription() throws {
    for id in ServiceBundles.all {
      try fakes.install(["org.xdgshare.mail": "xdg-email"][id] ?? "unused-\(id)")
    }
    try fakes.install("kdeconnect-cli")
    try fakes.install("xsel")
    try fakes.install("qrencode")
    try fakes.install("gio")
    let entries = try list(environment: ["PATH": fakes.isolatedPath])
    #expect(entries.count == ServiceBundles.all.count)
    for entry in entries {
      #expect(entry["version"] as? String == "1.0")
      #expect((entry["icon"] as? String)?.isEmpty == false)
      #expect((entry["description"] as? String)?.isEmpty == false)
    }
  }

  @Test(arguments: [
    (
      "de_DE.UTF-8",
      ["org.xdgshare.save-to-folder": "In Ordner speichern", "org.xdgshare.qr-code": "QR-Code"]
    ),
    (
      "fr_FR.UTF-8",
      ["org.xdgshare.save-to-folder": "Enregistrer dans un dossier", "org.xdgshare.qr-code": "Code QR"]
    ),
  ])
  func namesAndDescriptionsAreLocalized(locale: String, someNames: [String: String]) throws {
    try fakes.install("xdg-email")
    try fakes.install("kdeconnect-cli")
    try fakes.install("xsel")
    try fakes.install("qrencode")
    try fakes.install("gio")
    let english = try list(environment: ["PATH": fakes.isolatedPath])
    let localized = try list(environment: ["PATH": fakes.isolatedPath, "LANG": locale])
    #expect(localized.count == ServiceBundles.all.count)
    for entry in localized {
      let id = try #require(entry["id"] as? String)
      let original = try #require(english.first { $0["id"] as? String == id })
      #expect(entry["name"] as? String != original["name"] as? String, "\(id) has no \(locale) name")
      #expect(
        entry["description"] as? String != original["description"] as? String,
        "\(id) has no \(locale) description")
      if let name = someNames[id] { #expect(entry["name"] as? String == name) }
    }
  }

  @Test func servicesAreShownOnlyWhereTheirProgramsAre() throws {
    let path = fakes.isolatedPath
    #expect(try ids(path: path) == [ServiceBundles.saveToFolder, ServiceBundles.webDAV])
    try fakes.install("xdg-email")
    try fakes.install("xsel")
    try fakes.install("kdeconnect-cli")
    try fakes.install("qrencode")
    #expect(
      try ids(path: path) == [
        ServiceBundles.clipboard, ServiceBundles.kdeConnect, ServiceBundles.mail, ServiceBundles.saveToFolder,
        ServiceBundles.webDAV,
      ])
    try fakes.install("xdg-open")
    #expect(try ids(path: path).contains(ServiceBundles.qrCode))
  }

  @Test func rulesOfferTheServicesThatFitTheSelection() throws {
    for program in ["xdg-email", "wl-copy", "kdeconnect-cli", "qrencode", "xdg-open"] {
      try fakes.install(program)
    }
    let png = try desktop.writeFile(named: Array("photo.png".utf8), contents: tinyPNG)
    let photo = String(decoding: png, as: UTF8.self)
    try FileManager.default.createDirectory(
      atPath: "\(desktop.files)/Album", withIntermediateDirectories: true)
    let path = fakes.isolatedPath
    let (clipboard, kde, mail, qr, save, webDAV) = (
      ServiceBundles.clipboard, ServiceBundles.kdeConnect, ServiceBundles.mail, ServiceBundles.qrCode,
      ServiceBundles.saveToFolder, ServiceBundles.webDAV
    )
    #expect(try ids(["--", photo], path: path) == [clipboard, kde, mail, save, webDAV])
    #expect(try ids(["--text", "hello"], path: path) == [clipboard, kde, mail, qr, save])
    #expect(try ids(["--url", "https://example.org/"], path: path) == [clipboard, kde, mail, qr, save])
    #expect(
      try ids(["--url", "https://a.example/", "--url", "https://b.example/"], path: path) == [
        clipboard, kde, mail, save,
      ])
    #expect(try ids(["--text", "hello", "--", photo], path: path) == [clipboard, kde, mail, save])
    #expect(
      try ids(["--text", "Example", "--url", "https://example.org/"], path: path) == [
        clipboard, kde, mail, qr, save,
      ])
    // A folder: Save to Folder's predicate wants data; the dictionary rules count it as a file,
    // and those services refuse it with a message when it comes.
    #expect(try ids(["--", "\(desktop.files)/Album"], path: path) == [clipboard, kde, mail, webDAV])
  }
}
