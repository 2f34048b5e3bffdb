import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// A throw-away desktop with a shell-script service that declares its compose sheet in
/// `Info.plist` (`XDGShareComposeSheet`), a display, and a file to share. The service keeps each
/// request it reads in its container (its sandbox writes nowhere else; a search of the home for a
/// password leaves that copy of the plugin's own out) and completes.
final class DeclaredDesktop {
  static let serviceID = "org.example.declared"
  static let serviceName = "Micro Poster"

  let desktop: TemporaryDesktop
  let display: VirtualDisplay
  /// Where the service writes each request it reads, and its `XDG_SHARE_PARENT_WINDOW`: its
  /// `$XDG_STATE_HOME/requests`, in its container.
  let requests: String
  let file: String

  /// - Parameter secure: declares a `Secure` item, "Password", too.
  /// Installs the bundled service `id` as install.sh does: `data/extensions/<id>.shareext`
  /// copied into the user's extensions, its program a link to the built `xdg-share-services`.
  func installBundled(_ id: String) throws {
    let bundle = "\(desktop.userExtensions)/\(id).shareext"
    try FileManager.default.copyItem(
      atPath: ComposeHarness.repository.appendingPathComponent("data/extensions/\(id).shareext").path,
      toPath: bundle)
    try FileManager.default.createSymbolicLink(
      atPath: "\(bundle)/share", withDestinationPath: ComposeHarness.built("xdg-share-services"))
  }

  init(secure: Bool = false) throws {
    desktop = try TemporaryDesktop(prefix: "xdg-share-declared")
    try ComposeHarness.prepare(desktop)
    display = try VirtualDisplay(firstNumber: 200)
    requests = desktop.containerState(of: Self.serviceID) + "/requests"
    func item(_ identifier: String, _ title: String, _ extra: String = "") -> String {
      "<dict><key>Identifier</key><string>\(identifier)</string><key>Title</key><string>\(title)</string>"
        + "\(extra)</dict>"
    }
    var items = [
      item(
        "visibility", "Visibility",
        "<key>Choices</key><array><string>Public</string><string>Followers</string></array>"
          + "<key>Default</key><string>Public</string>"),
      item("tag", "Tag"),
    ]
    if secure { items.append(item("password", "Password", "<key>Secure</key><true/>")) }
    try BundleFixture(
      id: Self.serviceID, name: Self.serviceName, ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      extraXML: """
        <key>XDGShareComposeSheet</key><dict>
          <key>Title</key><string>New Post</string>
          <key>PostButtonTitle</key><string>Send</string>
          <key>Placeholder</key><string>What is new?</string>
          <key>MaximumCharacters</key><integer>20</integer>
          <key>ConfigurationItems</key><array>\(items.joined())</array>
        </dict>
        """,
      program: """
        #!/bin/sh
        mkdir -p "$XDG_STATE_HOME/requests"
        cat > "$(mktemp "$XDG_STATE_HOME/requests/request.XXXXXX")"
        printf '%s' "$XDG_SHARE_PARENT_WINDOW" > "$XDG_STATE_HOME/requests/parent-window"
        echo '{"complete": {}}'
        """
    ).write(into: desktop.userExtensions)
    file = try desktop.writeFile(named: "note.txt", contents: "a note\n")
  }

  /// The environment of the programs on the virtual display.
  func environment(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = desktop.environment
    environment["DISPLAY"] = display.name
    environment["GDK_BACKEND"] = "x11"
    environment["GIO_USE_VFS"] = "local"
    environment["ADW_DISABLE_PORTAL"] = "1"
    environment["GSK_RENDERER"] = "cairo"
    environment.merge(extra) { $1 }
    return environment
  }

  /// Runs `command` (arguments of `xdg-share`) and drives the sheet named `app` with `steps`:
  /// inside `dbus-run-session`, or on the desktop's own bus when it has one (the keyring's).
  func run(_ command: [String], app: String = "xdg-share-sheet", steps: [String], ownBus: Bool = false)
    throws -> ComposeRun
  {
    let driver =
      [ComposeHarness.python, ComposeHarness.driverPath, app, Tool.path] + command + ["--then"] + steps
    let run = try CapturedRun.run(
      ((ownBus ? [] : ["dbus-run-session", "--"]) + driver).map { Array($0.utf8) },
      environment: environment(), workingDirectory: Array(desktop.files.utf8))
    return ComposeRun(run)
  }

  /// Shares the file with the service by name, which shows its sheet, and drives it.
  func share(_ steps: [String], ownBus: Bool = false) throws -> ComposeRun {
    try run(["share", "--service", Self.serviceID, file], steps: steps, ownBus: ownBus)
  }

  /// The requests the service read, in no particular order.
  var received: [[String: Any]] {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: requests)) ?? []).filter {
      $0.hasPrefix("request.")
    }
    return names.compactMap { name in
      guard let data = FileManager.default.contents(atPath: "\(requests)/\(name)") else { return nil }
      return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }
  }

  /// The `compose` object of each request.
  var composed: [NSDictionary] {
    received.compactMap { $0["compose"] as? NSDictionary }
  }

  /// The `XDG_SHARE_PARENT_WINDOW` the service last ran with.
  var parentWindow: String? {
    try? String(contentsOfFile: "\(requests)/parent-window", encoding: .utf8)
  }

  /// Lets the desktop's own bus start the accessibility bus on demand, as a session bus does.
  func offerAccessibilityBus(on bus: PrivateBus) throws {
    let service = "org.a11y.Bus.service"
    try FileManager.default.copyItem(
      atPath: "/usr/share/dbus-1/services/\(service)", toPath: "\(bus.servicesDirectory)/\(service)")
  }

  /// Whether some file under the throw-away tree holds `bytes`, the requests the service kept
  /// left out: they are the plugin's own copies, which hold what it was sent.
  func someFileContains(_ bytes: [UInt8]) -> Bool {
    guard let walker = FileManager.default.enumerator(atPath: desktop.root) else { return false }
    for case let name as String in walker {
      let path = "\(desktop.root)/\(name)"
      if path.hasPrefix(requests + "/") { continue }
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
        let data = FileManager.default.contents(atPath: path)
      else { continue }
      if Array(data).firstRange(of: bytes) != nil { return true }
    }
    return false
  }
}
