import Foundation
import SharePOSIX
import ShareSecret
import ShareTestSupport
import Testing

/// The keyring every test here shares: libsecret talks to the session bus GIO opens once per
/// process, so the process's `DBUS_SESSION_BUS_ADDRESS` is pointed at a private bus, holding a
/// gnome-keyring-daemon of its own, before the first call. No module of this package opens the
/// session bus through GIO otherwise; ``PrivateKeyring/check()`` proves each store landed here.
final class PrivateKeyring: Sendable {
  static let shared: Result<PrivateKeyring, any Error> = Result { try PrivateKeyring() }

  let desktop: TemporaryDesktop
  let daemon: TestKeyring

  private init() throws {
    desktop = try TemporaryDesktop(prefix: "xdg-share-keyring")
    daemon = try TestKeyring(desktop: desktop)
    // The throw-away desktop's bus; never the developer's session bus.
    setenv("DBUS_SESSION_BUS_ADDRESS", desktop.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "", 1)
    setenv("XDG_RUNTIME_DIR", "\(desktop.root)/runtime", 1)
    // A static is never deinitialised: without this the daemons would outlive the tests and hold
    // `swift test`'s output pipe open.
    atexit {
      guard case .success(let keyring) = PrivateKeyring.shared else { return }
      keyring.daemon.stop()
      try? FileManager.default.removeItem(atPath: keyring.desktop.root)
    }
  }

  /// What another client, libsecret-tools' `secret-tool`, finds on the private bus under the
  /// configuration schema for `service` and `item`; `nil` when it finds nothing.
  func lookUpWithSecretTool(service: String, item: String) throws -> String? {
    let arguments = [
      "secret-tool", "lookup", "xdg:schema", "org.xdgshare.Configuration", "service", service, "item", item,
    ]
    let run = try CapturedRun.run(arguments.map { Array($0.utf8) }, environment: desktop.environment)
    return run.status == 0 ? String(decoding: run.standardOutput, as: UTF8.self) : nil
  }
}

@Suite(
  .serialized,
  .enabled(
    if: TestKeyring.isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/bin/secret-tool"),
    "gnome-keyring or libsecret-tools is not installed: apt-get install gnome-keyring libsecret-tools"))
struct KeyringTests {
  let keyring = Keyring()
  let fixture: PrivateKeyring

  init() throws {
    fixture = try PrivateKeyring.shared.get()
  }

  /// Attributes no other test uses.
  func attributes(_ item: String = "password") -> [String: String] {
    ["service": "test.\(UUID().uuidString)", "item": item]
  }

  @Test func storedPasswordIsFoundAndLandsInThePrivateKeyring() throws {
    let attributes = attributes()
    try keyring.store("s3cret word", label: "Test password", for: attributes)
    #expect(try keyring.password(for: attributes) == "s3cret word")
    // Another client on the private bus sees it under the same schema: it is in the test's
    // keyring, not in one the process reached some other way.
    #expect(
      try fixture.lookUpWithSecretTool(service: attributes["service"]!, item: "password") == "s3cret word")
    #expect(!fixture.daemon.filesContain(Array("s3cret word".utf8)))
  }

  @Test func storingAgainReplaces() throws {
    let attributes = attributes()
    try keyring.store("first", label: "Test", for: attributes)
    try keyring.store("second", label: "Test", for: attributes)
    #expect(try keyring.password(for: attributes) == "second")
    #expect(try keyring.clear(attributes))
    #expect(try keyring.password(for: attributes) == nil)
  }

  @Test func clearRemovesAndSaysWhetherThereWasOne() throws {
    let attributes = attributes()
    try keyring.store("gone soon", label: "Test", for: attributes)
    #expect(try keyring.clear(attributes))
    #expect(try keyring.password(for: attributes) == nil)
    #expect(try fixture.lookUpWithSecretTool(service: attributes["service"]!, item: "password") == nil)
    #expect(try keyring.clear(attributes) == false)
  }

  @Test func unicodePasswordsAttributesAndLabelsRoundTrip() throws {
    let service = "test.grüße.\(UUID().uuidString)"
    let attributes = ["service": service, "item": "pässwörd 🔑"]
    let password = "Ünïcødé 🗝️ e\u{301} 日本語"
    try keyring.store(password, label: "Schlüssel für \(service)", for: attributes)
    #expect(try keyring.password(for: attributes) == password)
    #expect(try fixture.lookUpWithSecretTool(service: service, item: "pässwörd 🔑") == password)
    // Attributes match exactly: the composed form of é is another attribute value.
    #expect(try keyring.password(for: ["service": service, "item": "pa\u{308}sswörd 🔑"]) == nil)
  }

  @Test func missingPasswordsAreNil() throws {
    #expect(try keyring.password(for: attributes()) == nil)
    // Another item of the same service is another password.
    let attributes = attributes()
    try keyring.store("one", label: "Test", for: attributes)
    #expect(try keyring.password(for: ["service": attributes["service"]!, "item": "user"]) == nil)
  }

  @Test func attributesOutsideTheSchemaAndNULsAreRefused() throws {
    #expect(throws: KeyringError.unknownAttribute(name: "host", schema: "org.xdgshare.Configuration")) {
      try keyring.store("x", label: "Test", for: ["service": "test", "host": "example.org"])
    }
    #expect(throws: KeyringError.containsNUL(field: "password")) {
      try keyring.store("a\u{0}b", label: "Test", for: attributes())
    }
  }
}
