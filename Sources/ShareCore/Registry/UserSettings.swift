/// The user's choices about services, from `$XDG_CONFIG_HOME/xdg-share/settings.ini`:
///
/// ```ini
/// [Services]
/// Hidden=org.xdgshare.qr-code;com.example.other;
/// ```
public struct UserSettings: Sendable, Equatable {
  /// Services the user does not want offered.
  public var hiddenServices: Set<String>

  public init(hiddenServices: Set<String> = []) {
    self.hiddenServices = hiddenServices
  }

  public init(parsing text: String) {
    hiddenServices = Set(KeyFile(parsing: text).list("Hidden", in: "Services"))
  }
}
