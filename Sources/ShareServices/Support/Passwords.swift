import ShareSecret

/// Where a service keeps one configuration item's password.
protocol PasswordKeeper {
  /// The stored password, or `nil` when there is none or the keyring cannot be asked (the
  /// reason goes to the request's log).
  func lookUp() -> String?
  /// Stores `password`, replacing the one stored before.
  func store(_ password: String) throws(KeyringError)
}

/// A configuration item's password in the desktop's keyring, under the schema the host uses for
/// the items it asks for (`org.xdgshare.Configuration`, `service` and `item`), so that either finds
/// what the other stored.
struct KeyringPassword: PasswordKeeper {
  /// The service's identifier (`org.xdgshare.webdav`).
  var service: String
  /// The configuration item's `Identifier` (`password`).
  var item: String
  /// What a keyring manager shows.
  var label: String
  var keyring = Keyring(schema: .configuration)

  private var attributes: [String: String] { ["service": service, "item": item] }

  func lookUp() -> String? {
    do {
      return try keyring.password(for: attributes)
    } catch {
      Log.write("note: no password from the keyring: \(error)")
      return nil
    }
  }

  func store(_ password: String) throws(KeyringError) {
    try keyring.store(password, label: label, for: attributes)
  }
}
