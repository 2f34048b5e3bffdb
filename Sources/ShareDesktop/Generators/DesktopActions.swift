import ShareCore

/// DES-EMA actions for Caja (caja-actions), PCManFM (libfm-modules) and PCManFM-Qt:
/// `file-manager/actions/xdg-share-<id>.desktop` per service, "Share…" for every selection,
/// `file-manager/actions/xdg-share.picker.desktop`, and one "Share" menu,
/// `file-manager/actions/xdg-share.desktop`, that lists them, "Share…" first.
///
/// libfm compares types exactly or by `type/*`, and each listed type must fit every selected file,
/// so wildcards are used wherever a whole media type is accepted. `all/allfiles` means regular
/// files, `*` everything. PCManFM labels items with `Tooltip`, so it repeats `Name`. There is no
/// `TryExec`: libfm 1.3.2 hides the action even when the absolute path it names is there.
enum DesktopActions {
  static let folder = "file-manager/actions"
  /// The menu's id (its file's base name); a service id never makes `xdg-share` alone.
  static let menuID = "xdg-share"
  /// The id of the "Share…" action.
  static let pickerID = Picker.baseName

  /// Whether `id` is the menu or an action xdg-share writes.
  static func isOurs(_ id: String) -> Bool {
    id == menuID || id == pickerID || id.hasPrefix(FileManagerIntegration.filePrefix)
  }

  static func files(for entries: [MenuEntry], executable: String, catalog: MIMECatalog) -> [GeneratedFile] {
    let picker = [
      "[Desktop Entry]",
      "Type=Action",
      "Name=" + Picker.label,
      "Tooltip=" + Picker.label,
      "Icon=" + ShareService.defaultIcon,
      "Profiles=main;",
      "",
      "[X-Action-Profile main]",
      "MimeTypes=*;",
      "SelectionCount=>0",
      "Exec=" + DesktopEntry.pickerExec(executable: executable),
    ]
    var files = [
      GeneratedFile(
        path: "\(folder)/\(pickerID).desktop", lines: picker,
        family: .desktopActions, opensPicker: true)
    ]
    files += entries.map { entry in
      let service = entry.service
      let coverage = entry.coverage
      let mimeTypes: [String] =
        switch (coverage.allFiles, coverage.folders) {
        case (true, true): ["*"]
        case (true, false): ["all/allfiles"]
        case (false, let folders):
          catalog.wildcardPatterns(for: coverage) + (folders ? [MIMECatalog.folderType] : [])
        }
      var lines = [
        "[Desktop Entry]",
        "Type=Action",
        "Name=" + DesktopEntry.escape(service.name),
        "Tooltip=" + DesktopEntry.escape(service.name),
      ]
      if let description = service.description, !description.isEmpty {
        lines.append("Description=" + DesktopEntry.escape(description))
      }
      lines += [
        "Icon=" + DesktopEntry.escape(service.icon),
        "Profiles=main;",
        "",
        "[X-Action-Profile main]",
        "MimeTypes=" + DesktopEntry.list(mimeTypes),
        "SelectionCount=" + selectionCount(coverage),
        "Exec=" + DesktopEntry.exec(executable: executable, serviceID: service.id),
      ]
      return GeneratedFile(
        path: "\(folder)/\(entry.baseName).desktop",
        lines: lines,
        family: .desktopActions)
    }
    let menu = [
      "[Desktop Entry]",
      "Type=Menu",
      "Name=Share",
      "Tooltip=Share",
      "Icon=" + ShareService.defaultIcon,
      "ItemsList=" + DesktopEntry.list([pickerID] + entries.map(\.baseName)),
    ]
    files.append(
      GeneratedFile(
        path: "\(folder)/\(menuID).desktop", lines: menu,
        family: .desktopActions))
    return files
  }

  /// `=N`, `<N` or `>N`: DES-EMA takes one comparison, so an upper limit wins over a lower one.
  static func selectionCount(_ coverage: FileCoverage) -> String {
    switch (coverage.minimumCount, coverage.maximumCount) {
    case (let minimum, let maximum?) where minimum == maximum: "=\(minimum)"
    case (_, let maximum?): "<\(maximum + 1)"
    case (let minimum, nil): ">\(minimum - 1)"
    }
  }
}
