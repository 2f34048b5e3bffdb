import Foundation
import ShareCore
import SharePOSIX
import ShareProtocol
import ShareTestSupport
import Testing

@testable import ShareHost

/// Upload to WebDAV's `webdav.ini`, from before services ran sandboxed: read by the host into the
/// compose step's values, its password command run here, its `Password=` moved into the keyring.
@Suite struct EarlierSettingsTests {
  let host: HostDesktop
  let secrets = InMemorySecretStore()

  init() throws {
    host = try HostDesktop()
    try FileManager.default.createDirectory(
      atPath: "\(host.root)/config/xdg-share", withIntermediateDirectories: true)
  }

  static let service = ShareService(
    id: "org.xdgshare.webdav", name: "Upload to WebDAV", bundlePath: "/b", executablePath: "/b/x",
    rule: .predicate(.constant(true)),
    composeSheet: ComposeSheetDeclaration(
      title: "Upload to WebDAV",
      configurationItems: [
        .init(identifier: "server", title: "Server", defaultValue: ""),
        .init(identifier: "folder", title: "Folder", defaultValue: ""),
        .init(identifier: "user", title: "User", defaultValue: ""),
        .init(identifier: "password", title: "Password", defaultValue: "", isSecure: true),
      ]))

  var file: String { "\(host.root)/config/xdg-share/webdav.ini" }
  var store: ConfigurationStore { ConfigurationStore(configHome: "\(host.root)/config") }
  var step: ComposeStep {
    ComposeStep(
      configuration: store, secrets: secrets,
      earlier: EarlierSettings(
        configHome: FilePath("\(host.root)/config"), environment: ["PATH": "/usr/bin:/bin"]))
  }

  func write(_ text: String, mode: UInt32 = 0o600) throws {
    try FileSystem.writeAtomically(Array(text.utf8), to: Array(file.utf8), mode: mode)
  }

  @Test func theFileGivesWhatNothingElseDoesAndItsPasswordMovesIntoTheKeyring() throws {
    try write("# mine\n[WebDAV]\nURL=https://dav.example/me/\nUser=me\nPassword=hunter2\n", mode: 0o640)
    let (values, warnings) = step.currentValues(of: Self.service)
    #expect(warnings.isEmpty)
    #expect(
      values == ["server": "https://dav.example/me/", "folder": "", "user": "me", "password": "hunter2"])
    #expect(try secrets.lookup(service: Self.service.id, item: "password") == "hunter2")
    #expect(
      try String(contentsOfFile: file, encoding: .utf8)
        == "# mine\n[WebDAV]\nURL=https://dav.example/me/\nUser=me\n")
    #expect(try FileSystem.status(Array(file.utf8)).permissions & 0o777 == 0o640)
  }

  @Test func rememberedValuesComeFirstAndTheFilesAreNotRemembered() throws {
    try write("[WebDAV]\nURL=https://dav.example/me/\nUser=me\n")
    try store.remember(["user": "you"], for: Self.service)
    let outcome = step.run(service: Self.service, items: [], prompt: DefaultsComposePrompt())
    guard case .posted(let payload, _) = outcome else {
      Issue.record("not posted: \(outcome)")
      return
    }
    #expect(payload.configuration["server"] == "https://dav.example/me/")
    #expect(payload.configuration["user"] == "you")
    // Edited in the file later, the address counts: it was never remembered.
    #expect(store.values(for: Self.service.id)["server"] ?? "" == "")
    #expect(store.values(for: Self.service.id)["user"] == "you")
  }

  @Test func thePasswordCommandRunsWithoutAShellAndIsNotKept() throws {
    try write("[WebDAV]\nURL=https://dav.example/\nUser=me\nPasswordCommand=/usr/bin/printf s3cr3t;\n")
    let outcome = step.run(service: Self.service, items: [], prompt: DefaultsComposePrompt())
    guard case .posted(let payload, let warnings) = outcome else {
      Issue.record("not posted: \(outcome)")
      return
    }
    #expect(warnings.isEmpty)
    // `;` reaches printf as it is: no shell read the line.
    #expect(payload.configuration["password"] == "s3cr3t;")
    #expect(try secrets.lookup(service: Self.service.id, item: "password") == nil)
  }

  @Test func thePasswordCommandRunsOncePerShare() throws {
    let command = "\(host.root)/password"
    try FileSystem.writeAtomically(
      Array("#!/bin/sh\necho ran >> '\(host.root)/runs'\nprintf s3cr3t\n".utf8), to: Array(command.utf8),
      mode: 0o755)
    try write("[WebDAV]\nURL=https://dav.example/\nPasswordCommand=\(command)\n")
    let outcome = step.run(service: Self.service, items: [], prompt: DefaultsComposePrompt())
    guard case .posted(let payload, _) = outcome else {
      Issue.record("not posted: \(outcome)")
      return
    }
    #expect(payload.configuration["password"] == "s3cr3t")
    #expect(try String(contentsOfFile: "\(host.root)/runs", encoding: .utf8) == "ran\n")
  }

  @Test func aFailingPasswordCommandIsAWarningAndTheShareGoesOn() throws {
    try write("[WebDAV]\nURL=https://dav.example/\nPasswordCommand=/bin/false\n")
    let (values, warnings) = step.currentValues(of: Self.service)
    #expect(values["server"] == "https://dav.example/")
    #expect(values["password"] == "")
    #expect(
      warnings.map(\.message) == ["\(file): the password command failed with status 1"])
  }

  @Test func anotherServiceReadsNoFile() throws {
    try write("[WebDAV]\nURL=https://dav.example/\n")
    var other = Self.service
    other.id = "org.example.upload"
    #expect(step.currentValues(of: other).values["server"] == "")
  }
}
