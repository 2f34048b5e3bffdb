import ShareKit

/// Where a service keeps one configuration item's password.
protocol PasswordKeeper {
  /// The stored password, or `nil` when there is none here.
  func lookUp() -> String?
  /// Stores `password`, replacing the one stored before.
  func store(_ password: String) throws(ShareError)
}

/// A `Secure` configuration item's password, kept by the host in the desktop's keyring (schema
/// `org.xdgshare.Configuration`, `service` and `item`): a sandboxed service reaches no keyring.
/// The host puts the stored password in the request's composition, so there is nothing to look
/// up here; a password found elsewhere (an older `webdav.ini`) is handed to the host through the
/// broker (``ShareBroker/storeSecret(_:item:)``).
struct KeyringPassword: PasswordKeeper {
  /// The configuration item's `Identifier` (`password`).
  var item: String

  func lookUp() -> String? { nil }

  func store(_ password: String) throws(ShareError) {
    try ShareBroker.current().storeSecret(password, item: item)
  }
}
