import Foundation
import ShareCore
import ShareHost
import SharePOSIX
import ShareTestSupport

/// A throw-away desktop for the host's in-process tests: bundles written with `BundleFixture`,
/// files answered by `InMemoryFileInspector`, requirements by `FixedRequirements`.
struct HostDesktop {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop(prefix: "share-host-test")
  }

  /// Apple's UTI table over an empty MIME hierarchy, as ShareCoreTests build one: the rules need
  /// no shared-mime-info and no GIO (`image/png` is `public.png`, an image).
  static let types = TypeSystem(mime: MIMEHierarchy())

  var environment: [String: String] { desktop.environment }
  var root: String { desktop.root }
  var history: HistoryStore { HistoryStore(stateHome: "\(root)/state") }

  /// Writes a bundle into the user's (or a system) extensions folder.
  ///
  /// The program is written again through `FileSystem.writeAtomically`, whose descriptor is
  /// close-on-exec: `BundleFixture` writes it with Foundation, whose descriptor a program started
  /// meanwhile by a test running in parallel inherits and keeps, and running the plugin then
  /// fails with ETXTBSY ("Text file busy").
  @discardableResult
  func install(_ bundle: BundleFixture, system: Bool = false) throws -> String {
    let path = try bundle.write(into: system ? desktop.systemExtensions : desktop.userExtensions)
    try FileSystem.writeAtomically(
      Array(bundle.program.utf8), to: Array("\(path)/\(bundle.executableName)".utf8), mode: 0o755)
    return path
  }

  /// Writes the user's settings with `Hidden=` naming `ids`.
  func hide(_ ids: [String]) throws {
    let folder = "\(root)/config/xdg-share"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try "[Services]\nHidden=\(ids.joined(separator: ";"));\n".write(
      toFile: "\(folder)/settings.ini", atomically: true, encoding: .utf8)
  }

  /// The catalog of this desktop through the injected init; `requirements` answers what the
  /// services need.
  func catalog(_ requirements: FixedRequirements = FixedRequirements()) -> ServiceCatalog {
    ServiceCatalog(environment: environment, types: Self.types) { _ in requirements }
  }
}

extension BundleFixture {
  /// A service taking anything, with more plist keys.
  static func anything(id: String, name: String, extraXML: String = "", program: String? = nil)
    -> BundleFixture
  {
    BundleFixture(
      id: id, name: name, ruleXML: predicate("TRUEPREDICATE"), extraXML: extraXML, program: program)
  }

  /// `<key>key</key><array><string>…</string>…</array>`.
  static func stringArray(_ key: String, _ values: [String]) -> String {
    "<key>\(key)</key><array>" + values.map { "<string>\(escape($0))</string>" }.joined() + "</array>"
  }
}

extension Entitlements {
  /// `org.xdgshare.unconfined`: for a fake service that records into the test's own tree, which
  /// a sandbox does not show it, or whose test is of what runs outside one.
  static let unconfinedForTests = Entitlements(unconfined: true)
}
