/// A D-Bus match rule for signals, as a bundle's `XDGShareTargetSignals` gives it:
/// `key='value'` pairs separated by commas, `type='signal'` among them. The bus does the matching
/// it is added for; ``matches(interface:member:path:firstArgument:)`` tells, of the signals that
/// arrive, which rule (and so which service) one is for. The sender is left to the bus, which
/// knows who owns a well-known name.
public struct SignalMatchRule: Hashable, Sendable {
  /// The rule as written.
  public let text: String
  public let sender: String?
  public let interface: String?
  public let member: String?
  public let path: String?
  public let pathNamespace: String?
  public let firstArgument: String?

  /// The keys a rule may use here.
  static let keys: Set = ["type", "sender", "interface", "member", "path", "path_namespace", "arg0"]

  /// Reads `text`; nil when it is no rule for signals (another type, an unknown key, a quote
  /// inside a value, a control character, more than 1 KiB).
  public init?(parsing text: String) {
    guard text.utf8.count <= 1024, text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F })
    else { return nil }
    var values: [String: String] = [:]
    var rest = Substring(text)
    while !rest.isEmpty {
      guard let equals = rest.firstIndex(of: "="), rest[rest.index(after: equals)...].first == "'" else {
        return nil
      }
      let key = String(rest[..<equals])
      let valueStart = rest.index(equals, offsetBy: 2)
      guard let close = rest[valueStart...].firstIndex(of: "'"), Self.keys.contains(key), values[key] == nil
      else {
        return nil
      }
      values[key] = String(rest[valueStart..<close])
      rest = rest[rest.index(after: close)...]
      if rest.first == "," {
        rest = rest.dropFirst()
      } else if !rest.isEmpty {
        return nil
      }
    }
    guard values["type"] == "signal" else { return nil }
    self.text = text
    sender = values["sender"]
    interface = values["interface"]
    member = values["member"]
    path = values["path"]
    pathNamespace = values["path_namespace"]
    firstArgument = values["arg0"]
  }

  /// Whether a signal with these fields is one the rule asks for, its sender aside.
  public func matches(interface: String?, member: String?, path: String?, firstArgument: String?) -> Bool {
    if let wanted = self.interface, wanted != interface { return false }
    if let wanted = self.member, wanted != member { return false }
    if let wanted = self.path, wanted != path { return false }
    if let namespace = pathNamespace {
      guard let path, path == namespace || path.hasPrefix(namespace == "/" ? "/" : namespace + "/") else {
        return false
      }
    }
    if let wanted = self.firstArgument, wanted != firstArgument { return false }
    return true
  }
}
