/// The user's choices about services, from `$XDG_CONFIG_HOME/xdg-share/settings.ini`:
///
/// ```ini
/// [Services]
/// Hidden=org.xdgshare.qr-code;com.example.other;
/// Pinned=org.xdgshare.mail;org.xdgshare.save-to-folder;
/// Suggestions=false
/// ```
public struct UserSettings: Sendable, Equatable {
  /// Services the user does not want offered.
  public var hiddenServices: Set<String>
  /// Services the user pinned to the top of the picker, in the order they were pinned.
  public var pinnedServices: [String]
  /// Whether the sheet offers the services' direct targets (`Suggestions=false` turns them off).
  public var suggestions: Bool

  /// The group holding both keys.
  public static let group = "Services"

  public init(hiddenServices: Set<String> = [], pinnedServices: [String] = [], suggestions: Bool = true) {
    self.hiddenServices = hiddenServices
    self.pinnedServices = pinnedServices
    self.suggestions = suggestions
  }

  public init(parsing text: String) {
    let file = KeyFile(parsing: text)
    hiddenServices = Set(file.list("Hidden", in: Self.group))
    var seen = Set<String>()
    pinnedServices = file.list("Pinned", in: Self.group).filter { seen.insert($0).inserted }
    suggestions = file.value("Suggestions", in: Self.group)?.lowercased() != "false"
  }

  /// `text`, a settings file as it is on disk, with `Hidden=` and `Pinned=` of `[Services]` saying
  /// what these settings say. Every other line (comments, other keys and groups, blank lines) is
  /// kept as written, and so is a key whose value does not change; an emptied list loses its key.
  public func written(over text: String) -> String {
    let current = UserSettings(parsing: text)
    var text = text
    if current.hiddenServices != hiddenServices {
      // The services hidden before keep their place; newly hidden ones follow, sorted.
      let kept = KeyFile(parsing: text).list("Hidden", in: Self.group).filter(hiddenServices.contains)
      let added = hiddenServices.subtracting(kept).sorted()
      text = KeyFile.setting("Hidden", in: Self.group, to: Self.listValue(uniqued(kept) + added), in: text)
    }
    if current.pinnedServices != pinnedServices {
      text = KeyFile.setting("Pinned", in: Self.group, to: Self.listValue(uniqued(pinnedServices)), in: text)
    }
    if current.suggestions != suggestions {
      text = KeyFile.setting("Suggestions", in: Self.group, to: suggestions ? nil : "false", in: text)
    }
    return text
  }

  /// `a;b;` as desktop entries write lists; `nil` (no key) for an empty one.
  private static func listValue(_ items: [String]) -> String? {
    items.isEmpty ? nil : items.map { $0 + ";" }.joined()
  }

  private func uniqued(_ items: [String]) -> [String] {
    var seen = Set<String>()
    return items.filter { seen.insert($0).inserted }
  }
}
