internal import CSecret

/// Why the Secret Service did not do what was asked. Each case carries what libsecret said, copied
/// out of its `GError` before that is freed; ``description`` is the wording, in one place.
public enum KeyringError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No Secret Service answers on the session bus (none is running, or there is no bus).
  case unavailable(message: String)
  /// The keyring is locked and was not unlocked (the prompt was dismissed).
  case locked(message: String)
  /// An attribute the schema does not declare; libsecret would refuse it with a warning only.
  case unknownAttribute(name: String, schema: String)
  /// A password, label or attribute holding a NUL character, which cannot cross into C.
  case containsNUL(field: String)
  /// Any other failure, as libsecret reported it.
  case failed(domain: String, code: Int32, message: String)

  public var description: String {
    switch self {
    case .unavailable(let message):
      "No keyring (Secret Service) is reachable on the session bus: \(message)"
    case .locked(let message):
      "The keyring is locked: \(message)"
    case .unknownAttribute(let name, let schema):
      "The schema \(schema) has no attribute '\(name)'"
    case .containsNUL(let field):
      "The \(field) holds a NUL character, which the keyring cannot store"
    case .failed(_, _, let message):
      "The keyring failed: \(message)"
    }
  }

  /// The error a set `GError` stands for, told apart by its domain's quark.
  static func from(_ error: UnsafeMutablePointer<GError>) -> KeyringError {
    let domain = error.pointee.domain
    let code = error.pointee.code
    let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    if domain == g_io_error_quark(), code == Int32(G_IO_ERROR_CANCELLED.rawValue) {
      // A dismissed unlock prompt, not a missing service.
      return .locked(message: message)
    }
    if domain == g_dbus_error_quark() || domain == g_io_error_quark() {
      return .unavailable(message: message)
    }
    if domain == secret_error_get_quark(), code == Int32(SECRET_ERROR_IS_LOCKED.rawValue) {
      return .locked(message: message)
    }
    let name = g_quark_to_string(domain).map { String(cString: $0) } ?? "unknown"
    return .failed(domain: name, code: code, message: message)
  }
}

/// Runs `body` with a `GError**`; a set error is freed and thrown as a ``KeyringError``.
func withGError<T>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T) throws(KeyringError)
  -> T
{
  var error: UnsafeMutablePointer<GError>? = nil
  let result = body(&error)
  if let error {
    let copied = KeyringError.from(error)
    g_error_free(error)
    throw copied
  }
  return result
}
