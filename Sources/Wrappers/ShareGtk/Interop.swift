internal import CGtk

// GTK's cast macros (GTK_WINDOW, G_OBJECT, …) do not import into Swift. Derivable types import as
// `UnsafeMutablePointer<T>`, final and private ones as `OpaquePointer`; these overloads convert
// between them, chosen by the parameter type of the function called. The C type checks those
// macros make in debug builds are GTK's business: every pointer here came from the matching
// constructor.

/// A pointer of one GObject type as another (what `GTK_WINDOW (p)` does in C).
func cast<T, U>(_ pointer: UnsafeMutablePointer<U>?) -> UnsafeMutablePointer<T>! {
  UnsafeMutablePointer<T>(OpaquePointer(pointer))
}

/// A pointer as an opaque one, for the final types that import as `OpaquePointer`.
func cast<U>(_ pointer: UnsafeMutablePointer<U>?) -> OpaquePointer! {
  OpaquePointer(pointer)
}

/// An opaque pointer as a typed one.
func cast<T>(_ pointer: OpaquePointer?) -> UnsafeMutablePointer<T>! {
  UnsafeMutablePointer<T>(pointer)
}

/// A `gpointer` as a typed object pointer.
func cast<T>(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<T>! {
  pointer?.assumingMemoryBound(to: T.self)
}

/// A `gpointer` as an opaque object pointer.
func cast(_ pointer: UnsafeMutableRawPointer?) -> OpaquePointer! {
  OpaquePointer(pointer)
}

/// Any object pointer as `gpointer`, for `g_object_ref`, `g_object_unref` and signals.
func raw<U>(_ pointer: UnsafeMutablePointer<U>?) -> gpointer! {
  UnsafeMutableRawPointer(pointer)
}

/// An opaque object pointer as `gpointer`.
func raw(_ pointer: OpaquePointer?) -> gpointer! {
  UnsafeMutableRawPointer(pointer)
}

/// GLib's fundamental types, which are macros in C (`G_TYPE_BOOLEAN`, `G_TYPE_STRING`).
enum FundamentalType {
  static let boolean = GType(5) << GType(G_TYPE_FUNDAMENTAL_SHIFT)
  static let int = GType(6) << GType(G_TYPE_FUNDAMENTAL_SHIFT)
  static let string = GType(16) << GType(G_TYPE_FUNDAMENTAL_SHIFT)
}

/// Sets the property `name` of `object` to a string (`g_object_set` is variadic, so unavailable).
func setProperty(_ object: gpointer, _ name: String, string: String) {
  var value = GValue()
  g_value_init(&value, FundamentalType.string)
  g_value_set_string(&value, string)
  g_object_set_property(cast(object), name, &value)
  g_value_unset(&value)
}

/// Sets the boolean property `name` of `object`.
func setProperty(_ object: gpointer, _ name: String, bool: Bool) {
  var value = GValue()
  g_value_init(&value, FundamentalType.boolean)
  g_value_set_boolean(&value, bool ? 1 : 0)
  g_object_set_property(cast(object), name, &value)
  g_value_unset(&value)
}

/// Copies a `GError` into a Swift error and frees it.
func takeError(_ error: UnsafeMutablePointer<GError>?) -> GtkFailure {
  guard let error else { return GtkFailure(message: "unknown error") }
  defer { g_error_free(error) }
  return GtkFailure(message: error.pointee.message.map { String(cString: $0) } ?? "unknown error")
}

/// A failure reported by GTK or one of its libraries (an image that does not decode).
public struct GtkFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// GLib's message, as it wrote it.
  public var message: String
  public var description: String { message }
}

extension Bool {
  /// The `gboolean` GLib wants.
  var gboolean: gboolean { self ? 1 : 0 }
}
