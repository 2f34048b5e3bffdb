internal import CGLib

/// A GLib error, copied out of its `GError` before that is freed.
public struct GLibError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The error domain's name, e.g. `g-io-error-quark`.
  public var domain: String
  public var code: Int32
  public var message: String

  public var description: String { message }

  /// Whether this is `G_IO_ERROR` with `code`.
  func isIOError(_ code: GIOErrorEnum) -> Bool {
    domain == "g-io-error-quark" && self.code == Int32(code.rawValue)
  }
}

/// Runs `body` with a `GError**` and turns a set error into a thrown ``GLibError``.
///
/// The corresponding C pattern is `GError *error = NULL; f(..., &error); if (error) ...`.
func withGError<T>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T) throws(GLibError) -> T
{
  var error: UnsafeMutablePointer<GError>? = nil
  let result = body(&error)
  if let error {
    let copied = GLibError(
      domain: String(cString: g_quark_to_string(error.pointee.domain)), code: error.pointee.code,
      message: error.pointee.message.map { String(cString: $0) } ?? "unknown error")
    g_error_free(error)
    throw copied
  }
  return result
}

/// Takes ownership of a `gchar*` GLib returned, copying it into a `String`.
func takeString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
  guard let pointer else { return nil }
  defer { g_free(pointer) }
  return String(cString: pointer)
}
