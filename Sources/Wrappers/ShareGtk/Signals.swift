internal import CGtk

// Signal connections. `g_signal_connect` is a macro, so every connection goes through
// `g_signal_connect_data`: the Swift closure lives in a box the GClosure owns (passed retained),
// and the GClosure's destroy notify releases it when the handler is disconnected or its object
// finalized. Each trampoline matches its signal's C signature exactly and enters the main actor
// through `MainActor.assumeIsolated`, which traps if GTK ever called from another thread (a
// `@convention(c)` closure written in a `@MainActor` context would otherwise run unchecked).

/// The Swift side of a handler without arguments.
@MainActor final class ActionBox {
  let body: @MainActor () -> Void
  init(_ body: @escaping @MainActor () -> Void) { self.body = body }
}

/// The Swift side of a handler that answers whether it handled the event.
@MainActor final class PredicateBox {
  let body: @MainActor () -> Bool
  init(_ body: @escaping @MainActor () -> Bool) { self.body = body }
}

/// The Swift side of a key handler.
@MainActor final class KeyBox {
  let body: @MainActor (Key, KeyModifiers) -> Bool
  init(_ body: @escaping @MainActor (Key, KeyModifiers) -> Bool) { self.body = body }
}

private func releaseAction(_ data: gpointer?, _: UnsafeMutablePointer<GClosure>?) {
  guard let data else { return }
  Unmanaged<ActionBox>.fromOpaque(data).release()
}

private func releasePredicate(_ data: gpointer?, _: UnsafeMutablePointer<GClosure>?) {
  guard let data else { return }
  Unmanaged<PredicateBox>.fromOpaque(data).release()
}

private func releaseKey(_ data: gpointer?, _: UnsafeMutablePointer<GClosure>?) {
  guard let data else { return }
  Unmanaged<KeyBox>.fromOpaque(data).release()
}

/// `void handler (GObject *instance, gpointer data)`: clicked, destroy, activate, realize.
private let actionTrampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
  guard let data else { return }
  let box = Unmanaged<ActionBox>.fromOpaque(data).takeUnretainedValue()
  MainActor.assumeIsolated { box.body() }
}

/// The Swift side of a handler told which object the signal is about.
@MainActor final class ObjectBox {
  let body: @MainActor (UInt) -> Void
  init(_ body: @escaping @MainActor (UInt) -> Void) { self.body = body }
}

private func releaseObject(_ data: gpointer?, _: UnsafeMutablePointer<GClosure>?) {
  guard let data else { return }
  Unmanaged<ObjectBox>.fromOpaque(data).release()
}

/// `void handler (GObject *instance, GObject *object, gpointer data)`: window-removed. The
/// object reaches Swift as its address, to compare with.
private let objectTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, object, data in
  guard let data else { return }
  let box = Unmanaged<ObjectBox>.fromOpaque(data).takeUnretainedValue()
  let address = UInt(bitPattern: object)
  MainActor.assumeIsolated { box.body(address) }
}

/// `gboolean handler (GObject *instance, gpointer data)`: close-request.
private let predicateTrampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
  guard let data else { return 0 }
  let box = Unmanaged<PredicateBox>.fromOpaque(data).takeUnretainedValue()
  return MainActor.assumeIsolated { box.body() }.gboolean
}

/// `gboolean key_pressed (GtkEventControllerKey *, guint keyval, guint keycode, GdkModifierType,
/// gpointer data)`.
private let keyTrampoline: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean =
  { _, keyval, _, state, data in
    guard let data else { return 0 }
    let box = Unmanaged<KeyBox>.fromOpaque(data).takeUnretainedValue()
    let key = Key(keyval: keyval)
    let modifiers = KeyModifiers(state: state)
    return MainActor.assumeIsolated { box.body(key, modifiers) }.gboolean
  }

/// Connects `body` to the argument-less signal `signal` of `instance`; returns the handler id.
@MainActor @discardableResult
func connect(
  _ instance: gpointer, _ signal: String, after: Bool = false, _ body: @escaping @MainActor () -> Void
)
  -> gulong
{
  g_signal_connect_data(
    instance, signal, unsafeBitCast(actionTrampoline, to: GCallback.self),
    Unmanaged.passRetained(ActionBox(body)).toOpaque(), releaseAction,
    after ? G_CONNECT_AFTER : G_CONNECT_DEFAULT)
}

/// Connects `body` to a signal whose handler takes one object (its address is passed on).
@MainActor @discardableResult
func connectObject(_ instance: gpointer, _ signal: String, _ body: @escaping @MainActor (UInt) -> Void)
  -> gulong
{
  g_signal_connect_data(
    instance, signal, unsafeBitCast(objectTrampoline, to: GCallback.self),
    Unmanaged.passRetained(ObjectBox(body)).toOpaque(), releaseObject, G_CONNECT_DEFAULT)
}

/// Connects `body` to a signal whose handler returns `gboolean` and takes no arguments.
@MainActor @discardableResult
func connectPredicate(_ instance: gpointer, _ signal: String, _ body: @escaping @MainActor () -> Bool)
  -> gulong
{
  g_signal_connect_data(
    instance, signal, unsafeBitCast(predicateTrampoline, to: GCallback.self),
    Unmanaged.passRetained(PredicateBox(body)).toOpaque(), releasePredicate, G_CONNECT_DEFAULT)
}

/// Connects `body` to `key-pressed` of a `GtkEventControllerKey`.
@MainActor @discardableResult
func connectKeyPressed(_ controller: gpointer, _ body: @escaping @MainActor (Key, KeyModifiers) -> Bool)
  -> gulong
{
  g_signal_connect_data(
    controller, "key-pressed", unsafeBitCast(keyTrampoline, to: GCallback.self),
    Unmanaged.passRetained(KeyBox(body)).toOpaque(), releaseKey, G_CONNECT_DEFAULT)
}

/// The Swift side of a handler given an integer (a dialog's response).
@MainActor final class IntegerBox {
  let body: @MainActor (Int32) -> Void
  init(_ body: @escaping @MainActor (Int32) -> Void) { self.body = body }
}

private func releaseInteger(_ data: gpointer?, _: UnsafeMutablePointer<GClosure>?) {
  guard let data else { return }
  Unmanaged<IntegerBox>.fromOpaque(data).release()
}

/// `void handler (GObject *instance, int value, gpointer data)`: GtkNativeDialog's response.
private let integerTrampoline: @convention(c) (gpointer?, gint, gpointer?) -> Void = { _, value, data in
  guard let data else { return }
  let box = Unmanaged<IntegerBox>.fromOpaque(data).takeUnretainedValue()
  MainActor.assumeIsolated { box.body(value) }
}

/// Connects `body` to a signal whose handler takes one `int`.
@MainActor @discardableResult
func connectInteger(_ instance: gpointer, _ signal: String, _ body: @escaping @MainActor (Int32) -> Void)
  -> gulong
{
  g_signal_connect_data(
    instance, signal, unsafeBitCast(integerTrampoline, to: GCallback.self),
    Unmanaged.passRetained(IntegerBox(body)).toOpaque(), releaseInteger, G_CONNECT_DEFAULT)
}
