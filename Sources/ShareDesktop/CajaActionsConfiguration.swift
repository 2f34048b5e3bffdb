import FoundationEssentials
import ShareCore

/// caja-actions' own settings, `$HOME/.config/caja-actions/caja-actions.conf` (caja-actions 1.27
/// ignores `$XDG_CONFIG_HOME`), a file that belongs to the user and to caja-actions, which rewrites it.
///
/// Left to itself, caja-actions nests every action under a "Caja-Actions actions" root menu, on
/// its first run records our actions at the top level, emptying the Share menu, and sorts every
/// menu by label, which would put "Share…" after the services. So four keys of `[runtime]` are
/// merged in, line by line, keeping everything else as it is; the previous values are recorded
/// and put back by `unregister` unless the user has changed them.
enum CajaActionsConfiguration {
  static let relativePath = "caja-actions/caja-actions.conf"
  static let group = "runtime"
  static let orderKey = "items-level-zero-order"
  static let settings = [
    ("items-create-root-menu", "false"), ("items-add-about-item", "false"),
    // The order of the menu's `ItemsList` (and of the top level's order above), "Share…" first.
    ("items-list-order-mode", "ManualOrder"),
  ]

  /// What the merge changed, kept in the manifest.
  struct Record: Codable, Equatable {
    /// The file, as ``recorded(_:)`` writes it in the manifest: the path itself, or a `file://`
    /// URL when it is not UTF-8 (a `HOME` in Latin-1), whose percent escapes keep every byte.
    var path: String
    /// The file did not exist before: `unregister` removes it once nothing else is in it.
    var created: Bool
    /// Each key's value before the first merge; `nil` when the key was absent.
    var previous: [String: String?]

    /// The file's path, its bytes as they were.
    var location: FilePath {
      path.hasPrefix("file://") ? FilePath(fileURL: path) ?? FilePath(path) : FilePath(path)
    }

    /// `path` as the manifest holds it: JSON carries text only.
    static func recorded(_ path: FilePath) -> String {
      path.string ?? path.fileURL
    }
  }

  /// `text` (the file, or `nil` when there is none) with the menu first in the top-level order,
  /// none of our actions (those `isOurs` tells) at the top level, no root or About item, and
  /// menus in the order they list. Values recorded by an earlier merge stay the "previous" ones;
  /// a key it did not merge yet (an older xdg-share's) gets its value recorded now.
  static func merge(
    _ text: String?, path: String, menuID: String, isOurs: (String) -> Bool, earlier: Record?
  ) -> (text: String, record: Record) {
    var file = Lines(text ?? "")
    var previous = earlier?.previous ?? [:]
    let order = file.value(orderKey, in: group)
    if previous.index(forKey: orderKey) == nil { previous[orderKey] = .some(order) }
    var items = (order ?? "").split(separator: ";").map(String.init).filter { !$0.isEmpty && !isOurs($0) }
    items.insert(menuID, at: 0)
    file.set(orderKey, to: items.map { $0 + ";" }.joined(), in: group)
    for (key, value) in settings {
      if previous.index(forKey: key) == nil { previous[key] = .some(file.value(key, in: group)) }
      file.set(key, to: value, in: group)
    }
    let record = Record(path: path, created: earlier?.created ?? (text == nil), previous: previous)
    return (file.text, record)
  }

  /// `text` with the merge undone as far as the user has not changed the keys since; `nil` when
  /// the file should go (it was created by the merge and holds nothing else).
  static func unmerge(_ text: String, record: Record, isOurs: (String) -> Bool) -> String? {
    var file = Lines(text)
    if let order = file.value(orderKey, in: group) {
      let items = order.split(separator: ";").map(String.init).filter { !$0.isEmpty && !isOurs($0) }
      if items.isEmpty, case nil? = record.previous[orderKey] {
        file.remove(orderKey, in: group)
      } else {
        file.set(orderKey, to: items.map { $0 + ";" }.joined(), in: group)
      }
    }
    for (key, value) in settings where file.value(key, in: group) == value {
      if case let old?? = record.previous[key] {
        file.set(key, to: old, in: group)
      } else {
        file.remove(key, in: group)
      }
    }
    let meaningful = file.lines.contains { line in
      let trimmed = line.trimmingSpaces()
      return !trimmed.isEmpty && trimmed != "[\(group)]"
    }
    return record.created && !meaningful ? nil : file.text
  }

  /// A key file as lines, edited in place so that comments, order and other groups survive.
  struct Lines {
    var lines: [String]

    init(_ text: String) {
      lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      if lines.last == "" { lines.removeLast() }
    }

    var text: String { lines.map { $0 + "\n" }.joined() }

    /// The range of lines after `[group]` up to the next group.
    private func body(of group: String) -> Range<Int>? {
      guard let header = lines.firstIndex(where: { $0.trimmingSpaces() == "[\(group)]" })
      else { return nil }
      let end = lines[(header + 1)...].firstIndex { $0.trimmingSpaces().hasPrefix("[") }
      return (header + 1)..<(end ?? lines.count)
    }

    private func index(of key: String, in group: String) -> Int? {
      body(of: group)?.last { index in
        let line = lines[index]
        guard let equals = line.firstIndex(of: "=") else { return false }
        return line[..<equals].trimmingSpaces() == key
      }
    }

    func value(_ key: String, in group: String) -> String? {
      index(of: key, in: group).map { index in
        let line = lines[index]
        return line[line.index(after: line.firstIndex(of: "=")!)...].trimmingSpaces()
      }
    }

    mutating func set(_ key: String, to value: String, in group: String) {
      if let index = index(of: key, in: group) {
        lines[index] = "\(key)=\(value)"
        return
      }
      guard let body = body(of: group) else {
        if let last = lines.last, !last.trimmingSpaces().isEmpty { lines.append("") }
        lines += ["[\(group)]", "\(key)=\(value)"]
        return
      }
      // After the group's last non-blank line.
      let end = body.last { !lines[$0].trimmingSpaces().isEmpty } ?? (body.lowerBound - 1)
      lines.insert("\(key)=\(value)", at: end + 1)
    }

    mutating func remove(_ key: String, in group: String) {
      if let index = index(of: key, in: group) { lines.remove(at: index) }
    }
  }
}
