import ShareCore
import ShareGtk

/// The row of direct targets above the services, as phones' share sheets open on the people and
/// devices one shares with: each target a service published (a paired phone, a folder saved to
/// lately) that takes the items, a button named by its title and subtitle. Ordered as services
/// are (the service's pin, then how much the target was used); they follow the search; edit mode
/// and the suggestions switch leave the row aside.
@MainActor
final class TargetsRow {
  /// The heading and the row; shown only when a target is offered.
  let container: Box
  /// The buttons, named "Suggestions" for assistive technologies.
  let row: Box
  private(set) var targets: [Target] = []

  /// The most targets shown: a row, not a second list.
  static let maximumShown = 6

  /// One target's button.
  struct Target {
    let service: ShareService
    let target: DirectTarget
    let button: Button
  }

  init(text: SheetText) {
    (container, row) = ServiceRowView.headedRow(text("Suggestions"), bottomMargin: 6)
  }

  /// Makes a button for each of `targets`, in order; `choose` runs the one activated.
  func set(
    _ targets: [(service: ShareService, target: DirectTarget)], iconTextures: [String: Texture],
    choose: @escaping @MainActor (String, DirectTarget) -> Void
  ) {
    for target in self.targets { row.remove(target.button) }
    self.targets = targets.prefix(Self.maximumShown).map { service, target in
      let content = Box(.vertical, spacing: 2)
      // The target's own icon, else its service's; the service's badge tells whose it is.
      let icon =
        target.icon.map {
          Image(iconNames: Self.fallbacks($0) + ServiceRowView.iconNames(for: service.icon), pixelSize: 32)
        }
        ?? ServiceRowView.icon(of: service, texture: iconTextures[service.id])
      content.append(icon)
      content.append(Label.tileCaption(target.title))
      // Every button the same height, with or without a subtitle: nothing moves once shown.
      let subtitle = Label.tileCaption(target.subtitle ?? service.name)
      subtitle.addStyleClass("dim-label")
      content.append(subtitle)
      let button = Button.tile(
        content, styleClass: "target", accessibleName: target.accessibleName,
        tooltip: "\(target.accessibleName) — \(service.name)"
      ) { choose(service.id, target) }
      row.append(button)
      return Target(service: service, target: target, button: button)
    }
  }

  /// `name` and the names it shortens to, as icon themes fall back (`computer-laptop`, then
  /// `computer`: Adwaita has no laptop), each symbolic first.
  ///
  /// Symbolic first, as GNOME draws devices, people and places in rows: and where a theme still
  /// has the full-colour icon, it may be one picture 512 pixels wide (Adwaita's `phone`), which
  /// would be decoded and scaled down before the sheet's first frame.
  static func fallbacks(_ name: String) -> [String] {
    var names = [name]
    var rest = Substring(name)
    while let dash = rest.lastIndex(of: "-") {
      rest = rest[..<dash]
      names.append(String(rest))
    }
    var seen: Set<String> = []
    return names.flatMap { $0.hasSuffix("-symbolic") ? [$0] : [$0 + "-symbolic", $0] }.filter {
      seen.insert($0).inserted
    }
  }

  /// Shows the targets `query` finds (by title, subtitle or service), none in edit mode or with
  /// suggestions off.
  func filter(query: String, editing: Bool, enabled: Bool) {
    let words = query.lowercased().split(whereSeparator: \.isWhitespace)
    for target in targets {
      let text = [target.target.title, target.target.subtitle ?? "", target.service.name].joined(
        separator: " "
      )
      .lowercased()
      let shown = enabled && !editing && words.allSatisfy { text.contains($0) }
      target.button.isVisible = shown
      target.button.setAccessibilityHidden(!shown)
    }
    container.isVisible = visible.first != nil
    container.setAccessibilityHidden(!container.isVisible)
  }

  /// The targets shown, in order.
  var visible: [Target] { targets.filter { $0.button.isVisible } }

  /// The row's style, over libadwaita's and the picker's.
  static let css = """
    button.target { padding: 6px 4px; }
    """
}
