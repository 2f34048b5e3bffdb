internal import CGtk

/// A key the picker reacts to; every other key is `.other` and left to GTK.
public enum Key: Equatable, Sendable {
  case escape
  /// Return, keypad Enter or ISO Enter.
  case enter
  case up
  case down
  case home
  case end
  case tab
  case other

  init(keyval: guint) {
    switch Int32(bitPattern: keyval) {
    case GDK_KEY_Escape: self = .escape
    case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter: self = .enter
    case GDK_KEY_Up, GDK_KEY_KP_Up: self = .up
    case GDK_KEY_Down, GDK_KEY_KP_Down: self = .down
    case GDK_KEY_Home, GDK_KEY_KP_Home: self = .home
    case GDK_KEY_End, GDK_KEY_KP_End: self = .end
    case GDK_KEY_Tab, GDK_KEY_ISO_Left_Tab, GDK_KEY_KP_Tab: self = .tab
    default: self = .other
    }
  }
}

/// The modifier keys held while a key was pressed.
public struct KeyModifiers: OptionSet, Sendable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  public static let shift = KeyModifiers(rawValue: 1 << 0)
  public static let control = KeyModifiers(rawValue: 1 << 1)
  public static let alt = KeyModifiers(rawValue: 1 << 2)

  init(state: GdkModifierType) {
    var modifiers: KeyModifiers = []
    if state.rawValue & GDK_SHIFT_MASK.rawValue != 0 { modifiers.insert(.shift) }
    if state.rawValue & GDK_CONTROL_MASK.rawValue != 0 { modifiers.insert(.control) }
    if state.rawValue & GDK_ALT_MASK.rawValue != 0 { modifiers.insert(.alt) }
    self = modifiers
  }
}
