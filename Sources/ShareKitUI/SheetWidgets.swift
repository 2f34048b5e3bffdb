import ShareGtk

// Small building blocks for a sheet's content or a configuration page, in the style of GNOME's
// preferences: a heading, a boxed list of labelled fields, a boxed list of check rows. Each is a
// ShareGtk `Box`, so it goes wherever a widget does; extensions need no GTK of their own.

extension Label {
  /// A heading over a group of rows (GNOME's preferences group title).
  public static func heading(_ text: String) -> Label {
    let label = Label(text)
    label.addStyleClass("heading")
    label.horizontalPosition = 0
    label.setMargins(top: 6, bottom: 6)
    return label
  }
}

/// A boxed list of one-line fields, each with its label: "To", "Subject", … Each field's
/// accessible name is its label.
@MainActor
public final class FieldList {
  /// The widget to put in the sheet.
  public let view = ListBox()
  private var fields: [String: Entry] = [:]

  public init() {
    view.addStyleClass("boxed-list")
    view.align(vertical: .start)
  }

  /// Adds a field; returns its entry (to read ``Entry/text`` or watch it).
  @discardableResult
  public func addField(_ label: String, text: String = "", placeholder: String? = nil) -> Entry {
    let line = Box(.horizontal, spacing: 12)
    line.setMargins(top: 6, bottom: 6, start: 12, end: 12)
    let title = Label(label)
    title.horizontalPosition = 0
    title.setWidthInCharacters(8)
    let entry = Entry(text: text, placeholder: placeholder)
    entry.setAccessibleLabel(label)
    entry.expand(horizontally: true)
    line.append(title)
    line.append(entry)
    view.append(ListRow(child: line))
    fields[label] = entry
    return entry
  }

  /// The text of the field labelled `label`; `nil` when there is none.
  public subscript(label: String) -> String? {
    fields[label]?.text
  }
}

/// A boxed list of check rows, one per name (Hoi's friends): the user ticks any number of them,
/// or exactly one with `single`. Each row is a toggle button named by its title, whose state is
/// "checked" and which assistive technologies can activate (GTK 4.8's check buttons cannot be).
@MainActor
public final class CheckList {
  /// The widget to put in the sheet.
  public let view = ListBox()
  private var rows: [(title: String, button: ToggleButton, mark: CheckButton)] = []
  /// Called after every change of the selection.
  public var onChange: (@MainActor (CheckList) -> Void)?

  /// - Parameters:
  ///   - titles: one row each, in order.
  ///   - selected: the rows ticked at first.
  ///   - single: radio buttons: at most one row ticked.
  public init(_ titles: [String], selected: Set<String> = [], single: Bool = false) {
    view.addStyleClass("boxed-list")
    view.align(vertical: .start)
    for title in titles {
      let line = Box(.horizontal, spacing: 10)
      line.setMargins(top: 6, bottom: 6, start: 4, end: 4)
      // The box drawn is a check button that only shows the row's state.
      let mark = CheckButton(label: "", isActive: selected.contains(title))
      mark.receivesPointer = false
      mark.canFocus = false
      mark.setAccessibilityHidden(true)
      let label = Label(title)
      label.horizontalPosition = 0
      label.expand(horizontally: true)
      line.append(mark)
      line.append(label)
      let button = ToggleButton(content: line, isActive: selected.contains(title))
      button.addStyleClass("flat")
      button.addStyleClass("share-sheet-row")
      button.setAccessibleLabel(title)
      if single, let first = rows.first { button.join(first.button) }
      button.onToggled { [weak self] in
        guard let self else { return }
        for row in rows { row.mark.isActive = row.button.isActive }
        onChange?(self)
      }
      rows.append((title, button, mark))
      view.append(ListRow(child: button))
    }
  }

  /// The titles of the rows ticked, in the list's order.
  public var selection: [String] {
    get { rows.filter { $0.button.isActive }.map(\.title) }
    set {
      let chosen = Set(newValue)
      for row in rows { row.button.isActive = chosen.contains(row.title) }
    }
  }
}
