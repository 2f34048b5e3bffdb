import SharePOSIX
import ShareSecret

/// The desktop's Secret Service (gnome-keyring, KWallet's Secret Service), through libsecret, with
/// the schema `org.xdgshare.Configuration` the bundled services read too.
public struct KeyringSecretStore: SecretStore {
  private let keyring = Keyring(schema: .configuration)
  private let environment: [String: String]

  /// - Parameter environment: where to find the session bus. Without one the store is unavailable:
  ///   GLib would otherwise autolaunch a bus whose daemons outlive the process.
  public init(environment: [String: String]) {
    self.environment = environment
  }

  public func lookup(service: String, item: String) throws(SecretStoreFailure) -> String? {
    try checkBus()
    do {
      return try keyring.password(for: Self.attributes(service, item))
    } catch {
      throw SecretStoreFailure(message: error.description)
    }
  }

  public func store(_ secret: String, service: String, item: String, label: String) throws(SecretStoreFailure)
  {
    try checkBus()
    do {
      try keyring.store(secret, label: label, for: Self.attributes(service, item))
    } catch {
      throw SecretStoreFailure(message: error.description)
    }
  }

  public func clear(service: String, item: String) throws(SecretStoreFailure) {
    try checkBus()
    do {
      _ = try keyring.clear(Self.attributes(service, item))
    } catch {
      throw SecretStoreFailure(message: error.description)
    }
  }

  private static func attributes(_ service: String, _ item: String) -> [String: String] {
    ["service": service, "item": item]
  }

  private func checkBus() throws(SecretStoreFailure) {
    if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return }
    if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
      (try? FileSystem.status(Array("\(runtime)/bus".utf8))) != nil
    {
      return
    }
    throw SecretStoreFailure(message: "no session bus, so no keyring (Secret Service) to ask")
  }
}
