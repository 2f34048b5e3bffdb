internal import CGtk

// Signal connections. `g_signal_connect` is a macro, so every connection goes through
// `g_signal_connect_data`: the Swift closure lives in a box the GClosure owns (passed retained),
// and the GClosure's destroy notify releases it when the handler is disconnected or its object
// finalized. Each trampoline matches its signal's C signature exactly and enters the main actor
// through `MainActor.assumeIsolated`, which traps if GTK ever called from another thread (a
// `@convention(c)` closure written in a `@MainActor` context would otherwise run unchecked).

/// The Swift side of a handler: its closure, `body`, of the signal's Swift signature.
@MainActor final class HandlerBox<Body> {
  let body: Body
  init(_ body: Body) { self.body = body }
}

/// The GClosure's destroy notify: releases the box, whatever handler it holds.
private func releaseHandler(_ data: gpointer?, _: UnsafeMutablePointer<GClosure>?) {
  guard let data else { return }
  Unmanaged<AnyObject>.fromOpaque(data).release()
}

/// The box behind a trampoline's `data`; its `body` is read on the main actor.
private func handler<Body>(_ data: gpointer, _: Body.Type) -> HandlerBox<Body> {
  Unmanaged<HandlerBox<Body>>.fromOpaque(data).takeUnretainedValue()
}

/// Connects `body` to `signal` of `instance` through `trampoline`, which must take `body`'s box
/// (``HandlerBox``); returns the handler id.
@MainActor
private func connect<Body>(
  _ instance: gpointer, _ signal: String, _ trampoline: GCallback, _ body: Body,
  flags: GConnectFlags = G_CONNECT_DEFAULT
) -> gulong {
  g_signal_connect_data(
    instance, signal, trampoline, Unmanaged.passRetained(HandlerBox(body)).toOpaque(), releaseHandler, flags)
}

private typealias Action = @MainActor () -> Void
private typealias ObjectAction = @MainActor (UInt) -> Void
private typealias Predicate = @MainActor () -> Bool
private typealias KeyAction = @MainActor (Key, KeyModifiers) -> Bool
private typealias IntegerAction = @MainActor (Int32) -> Void

/// `void handler (GObject *instance, gpointer data)`: clicked, destroy, activate, realize.
private let actionTrampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
  guard let data else { return }
  let box = handler(data, Action.self)
  MainActor.assumeIsolated { box.body() }
}

/// `void handler (GObject *instance, GObject *object, gpointer data)`: window-removed. The
/// object reaches Swift as its address, to compare with.
private let objectTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, object, data in
  guard let data else { return }
  let box = handler(data, ObjectAction.self)
  let address = UInt(bitPattern: object)
  MainActor.assumeIsolated { box.body(address) }
}

/// `gboolean handler (GObject *instance, gpointer data)`: close-request.
private let predicateTrampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
  guard let data else { return 0 }
  let box = handler(data, Predicate.self)
  return MainActor.assumeIsolated { box.body() }.gboolean
}

/// `gboolean key_pressed (GtkEventControllerKey *, guint keyval, guint keycode, GdkModifierType,
/// gpointer data)`.
private let keyTrampoline: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean =
  { _, keyval, _, state, data in
    guard let data else { return 0 }
    let box = handler(data, KeyAction.self)
    let key = Key(keyval: keyval)
    let modifiers = KeyModifiers(state: state)
    return MainActor.assumeIsolated { box.body(key, modifiers) }.gboolean
  }

/// `void handler (GObject *instance, int value, gpointer data)`: GtkNativeDialog's response.
private let integerTrampoline: @convention(c) (gpointer?, gint, gpointer?) -> Void = { _, value, data in
  guard let data else { return }
  let box = handler(data, IntegerAction.self)
  MainActor.assumeIsolated { box.body(value) }
}

/// Connects `body` to the argument-less signal `signal` of `instance`; returns the handler id.
@MainActor @discardableResult
func connect(
  _ instance: gpointer, _ signal: String, after: Bool = false, _ body: @escaping @MainActor () -> Void
)
  -> gulong
{
  connect(
    instance, signal, unsafeBitCast(actionTrampoline, to: GCallback.self), body as Action,
    flags: after ? G_CONNECT_AFTER : G_CONNECT_DEFAULT)
}

/// Connects `body` to a signal whose handler takes one object (its address is passed on).
@MainActor @discardableResult
func connectObject(_ instance: gpointer, _ signal: String, _ body: @escaping @MainActor (UInt) -> Void)
  -> gulong
{
  connect(instance, signal, unsafeBitCast(objectTrampoline, to: GCallback.self), body as ObjectAction)
}

/// Connects `body` to a signal whose handler returns `gboolean` and takes no arguments.
@MainActor @discardableResult
func connectPredicate(_ instance: gpointer, _ signal: String, _ body: @escaping @MainActor () -> Bool)
  -> gulong
{
  connect(instance, signal, unsafeBitCast(predicateTrampoline, to: GCallback.self), body as Predicate)
}

/// Connects `body` to `key-pressed` of a `GtkEventControllerKey`.
@MainActor @discardableResult
func connectKeyPressed(_ controller: gpointer, _ body: @escaping @MainActor (Key, KeyModifiers) -> Bool)
  -> gulong
{
  connect(controller, "key-pressed", unsafeBitCast(keyTrampoline, to: GCallback.self), body as KeyAction)
}

/// Connects `body` to a signal whose handler takes one `int`.
@MainActor @discardableResult
func connectInteger(_ instance: gpointer, _ signal: String, _ body: @escaping @MainActor (Int32) -> Void)
  -> gulong
{
  connect(instance, signal, unsafeBitCast(integerTrampoline, to: GCallback.self), body as IntegerAction)
}
