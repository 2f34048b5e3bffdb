import Synchronization

/// Where the values of secure configuration items (passwords) are kept, by service and item: the
/// Secret Service in the desktop (libsecret, schema `org.xdgshare.Configuration`, attributes
/// `service` and `item`), never a file of xdg-share's.
public protocol SecretStore: Sendable {
  /// The secret kept for `item` of `service`; `nil` when there is none.
  func lookup(service: String, item: String) throws(SecretStoreFailure) -> String?
  /// Keeps `secret` for `item` of `service`, replacing one kept before; `label` is what a keyring
  /// manager shows ("xdg-share: Upload to WebDAV, Password").
  func store(_ secret: String, service: String, item: String, label: String) throws(SecretStoreFailure)
  /// Forgets the secret of `item` of `service`; nothing happens when there is none.
  func clear(service: String, item: String) throws(SecretStoreFailure)
}

/// Why the Secret Service did not answer (no keyring running, a locked one the user did not
/// unlock): its message, in English.
public struct SecretStoreFailure: Error, Equatable, Sendable {
  public var message: String

  public init(message: String) {
    self.message = message
  }
}

/// Secrets kept in memory for as long as the process runs: the tests' double.
public final class InMemorySecretStore: SecretStore {
  private let secrets: Mutex<[String: String]>

  public init(_ secrets: [String: String] = [:]) {
    self.secrets = Mutex(secrets)
  }

  /// The key of `item` of `service` in ``all``: `service/item`.
  public static func key(service: String, item: String) -> String { service + "/" + item }

  /// Every secret kept, by ``key(service:item:)``.
  public var all: [String: String] { secrets.withLock { $0 } }

  public func lookup(service: String, item: String) throws(SecretStoreFailure) -> String? {
    secrets.withLock { $0[Self.key(service: service, item: item)] }
  }

  public func store(_ secret: String, service: String, item: String, label: String) throws(SecretStoreFailure)
  {
    secrets.withLock { $0[Self.key(service: service, item: item)] = secret }
  }

  public func clear(service: String, item: String) throws(SecretStoreFailure) {
    _ = secrets.withLock { $0.removeValue(forKey: Self.key(service: service, item: item)) }
  }
}

/// A desktop without a Secret Service: nothing is kept, and keeping something says why not.
public struct UnavailableSecretStore: SecretStore {
  public init() {}

  public func lookup(service: String, item: String) throws(SecretStoreFailure) -> String? { nil }

  public func store(_ secret: String, service: String, item: String, label: String) throws(SecretStoreFailure)
  {
    throw SecretStoreFailure(message: "no Secret Service (a keyring such as gnome-keyring) is available")
  }

  public func clear(service: String, item: String) throws(SecretStoreFailure) {}
}
