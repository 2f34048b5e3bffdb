import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// Upload to WebDAV set up through its configuration items, with the password in a real keyring
/// (gnome-keyring on the test's private bus), and an older webdav.ini moved over.
@Suite(
  .enabled(
    if: WebDAVServer.isAvailable && TestKeyring.isAvailable
      && FileManager.default.isExecutableFile(atPath: "/usr/bin/secret-tool"),
    "lighttpd, gnome-keyring or libsecret-tools is not installed"))
struct WebDAVSettingsTests {
  let desktop: TemporaryDesktop
  let server: WebDAVServer
  let keyring: TestKeyring
  let id = ServiceBundles.webDAV

  init() throws {
    desktop = try TemporaryDesktop()
    server = try WebDAVServer(root: "\(desktop.root)/dav", state: "\(desktop.root)/dav-state")
    keyring = try TestKeyring(desktop: desktop)
    try desktop.installServices([id])
  }

  var iniPath: String { "\(desktop.root)/config/xdg-share/webdav.ini" }

  func writeINI(_ text: String) throws {
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/config/xdg-share", withIntermediateDirectories: true)
    try text.write(toFile: iniPath, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: iniPath)
  }

  func run(_ name: String, configuration: [String: String]? = nil) throws -> ServiceRun {
    let file = try desktop.writeFile(named: name, contents: "contents of \(name)")
    return try ServiceRunner.run(id, [.file(file)], on: desktop, configuration: configuration)
  }

  /// The keyring's password for the service's `item`, as another client (secret-tool) finds it.
  func stored(_ item: String = "password") throws -> String? {
    let arguments = [
      "secret-tool", "lookup", "xdg:schema", "org.xdgshare.Configuration", "service", id, "item", item,
    ]
    let run = try CapturedRun.run(arguments.map { Array($0.utf8) }, environment: desktop.environment)
    return run.status == 0 ? String(decoding: run.standardOutput, as: UTF8.self) : nil
  }

  /// Every file under `folder` holding `bytes`.
  func files(under folder: String, holding bytes: [UInt8]) -> [String] {
    let paths = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
    return paths.filter { path in
      guard let data = FileManager.default.contents(atPath: "\(folder)/\(path)") else { return false }
      return Array(data).firstRange(of: bytes) != nil
    }
  }

  @Test func theConfigurationItemsSayWhereAndAsWhom() throws {
    let run = try run(
      "a.txt",
      configuration: [
        "server": "\(server.baseURL)/", "folder": "From xdg-share/Grüße", "user": server.user,
        "password": server.password,
      ])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(run.returned?.first?.url == "\(server.baseURL)/From%20xdg-share/Gr%C3%BC%C3%9Fe/a.txt")
    #expect(
      try String(contentsOfFile: "\(server.root)/From xdg-share/Grüße/a.txt", encoding: .utf8)
        == "contents of a.txt")
  }

  @Test func aPasswordLeftOutOfTheCompositionComesFromTheKeyring() throws {
    let store = try CapturedRun.run(
      [
        "secret-tool", "store", "--label=WebDAV", "xdg:schema", "org.xdgshare.Configuration", "service", id,
        "item", "password",
      ].map { Array($0.utf8) }, environment: desktop.environment, input: Array(server.password.utf8))
    #expect(store.status == 0)
    let run = try run("b.txt", configuration: ["server": server.baseURL, "user": server.user])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(FileManager.default.fileExists(atPath: "\(server.root)/b.txt"))
  }

  @Test func anOlderINIPasswordMovesIntoTheKeyringAndTheRestOfTheFileStays() throws {
    let before = """
      # my server
      [WebDAV]
      URL=\(server.baseURL)/Shared
      User=\(server.user)
      Password=\(server.password)
      ; kept too

      [Other]
      Key=value

      """
    try writeINI(before)
    // No composition: the file's values are the defaults.
    let first = try run("one.txt")
    #expect(first.completed, "\(first.cancelMessage ?? first.standardError)")
    #expect(FileManager.default.fileExists(atPath: "\(server.root)/Shared/one.txt"))
    #expect(try stored() == server.password)
    let after = try String(contentsOfFile: iniPath, encoding: .utf8)
    #expect(after == before.replacingOccurrences(of: "Password=\(server.password)\n", with: ""))
    let permissions = try FileManager.default.attributesOfItem(atPath: iniPath)[.posixPermissions] as? Int
    #expect(permissions == 0o600)
    // No password anywhere on disk in clear: not in the configuration, not in the keyring's files.
    let secret = Array(server.password.utf8)
    #expect(files(under: "\(desktop.root)/config", holding: secret).isEmpty)
    #expect(files(under: "\(desktop.root)/home", holding: secret).isEmpty)
    #expect(files(under: "\(desktop.root)/data", holding: secret).isEmpty)
    // The next upload finds it in the keyring.
    let second = try run("two.txt")
    #expect(second.completed, "\(second.cancelMessage ?? second.standardError)")
    #expect(FileManager.default.fileExists(atPath: "\(server.root)/Shared/two.txt"))
  }

  @Test func theCompositionWinsOverTheINIWhichFillsWhatItLacks() throws {
    try writeINI("[WebDAV]\nURL=http://127.0.0.1:9/elsewhere/\nUser=\(server.user)\n")
    let run = try run(
      "c.txt",
      configuration: ["server": server.baseURL, "folder": "", "user": "", "password": server.password])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(FileManager.default.fileExists(atPath: "\(server.root)/c.txt"))
  }

  @Test func theSheetsDefaultsAreNotAServer() throws {
    let run = try run("d.txt", configuration: ["server": "", "folder": "", "user": "", "password": ""])
    #expect(run.cancelCode == 3072)
    #expect(run.cancelMessage?.contains("xdg-share configure org.xdgshare.webdav") == true)
    #expect(try Bytes.names(in: server.root).isEmpty)
  }

  @Test func aServerThatIsDownFailsRatherThanCancels() throws {
    let closed = try WebDAVServer.freePort()
    let run = try run(
      "e.txt",
      configuration: ["server": "http://127.0.0.1:\(closed)/", "user": server.user, "password": "x"])
    // Failed: a `fail` event with the reason, which the host shows.
    #expect(run.status == 0 && !run.completed && run.cancelCode == nil, "\(run.lines) \(run.standardError)")
    #expect(
      (run.failMessage ?? "").contains(
        "Cannot connect to 127.0.0.1: is the server running, and the address in the settings "
          + "(xdg-share configure org.xdgshare.webdav) right?"), "\(run.lines)")
    let refused = try self.run(
      "f.txt", configuration: ["server": server.baseURL, "user": server.user, "password": "wrong"])
    #expect(refused.cancelCode == 401)
    #expect(
      refused.cancelMessage
        == "The server refused the user name or password: check the user name and the password: "
        + "xdg-share configure org.xdgshare.webdav")
  }
}
