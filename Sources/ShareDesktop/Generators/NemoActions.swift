import ShareCore

/// Nemo actions: `nemo/actions/xdg-share-<id>.nemo_action`, and `xdg-share.picker.nemo_action`,
/// "Share…", for every selection.
///
/// Nemo 5 has no submenus for actions, so each is named "Share: <name>". It expands `%` tokens in
/// `Name` and `Comment`, so a literal `%` is written `%%`. `Mimetypes` match subclasses and
/// `type/*`; `Extensions=any;` stands for everything and `nodirs;` for every file.
enum NemoActions {
  static let folder = "nemo/actions"

  static func files(for entries: [MenuEntry], executable: String, catalog: MIMECatalog) -> [GeneratedFile] {
    let services = entries.map { entry in
      let service = entry.service
      let coverage = entry.coverage
      func label(_ text: String) -> String {
        DesktopEntry.escape(replacingScalar("%", with: "%%", in: text))
      }
      var lines = [
        "[Nemo Action]",
        "Name=" + label("Share: " + service.name),
      ]
      if let description = service.description, !description.isEmpty {
        lines.append("Comment=" + label(description))
      }
      // A theme icon name only: Nemo does not load icons from a path.
      let icon = service.icon.contains("/") ? ShareService.defaultIcon : service.icon
      lines += [
        "Exec=" + DesktopEntry.exec(executable: executable, serviceID: service.id),
        "Icon-Name=" + DesktopEntry.escape(icon),
        "Selection=" + selection(coverage),
      ]
      switch (coverage.allFiles, coverage.folders) {
      case (true, true): lines.append("Extensions=any;")
      case (true, false): lines.append("Extensions=nodirs;")
      case (false, let folders):
        lines.append(
          "Mimetypes="
            + DesktopEntry.list(
              catalog.inheritancePatterns(for: coverage) + (folders ? [MIMECatalog.folderType] : [])))
      }
      return GeneratedFile(
        path: "\(folder)/\(entry.baseName).nemo_action",
        lines: lines, family: .nemo)
    }
    let picker = [
      "[Nemo Action]",
      "Name=" + Picker.label,
      "Exec=" + DesktopEntry.pickerExec(executable: executable),
      "Icon-Name=" + ShareService.defaultIcon,
      "Selection=notnone",
      "Extensions=any;",
    ]
    let pickerFile = GeneratedFile(
      path: "\(folder)/\(Picker.baseName).nemo_action",
      lines: picker, family: .nemo, opensPicker: true)
    return [pickerFile] + services
  }

  /// `s` one, `m` more than one, `N` exactly N, `notnone` at least one: the closest Nemo has.
  static func selection(_ coverage: FileCoverage) -> String {
    switch (coverage.minimumCount, coverage.maximumCount) {
    case (_, 1?): "s"
    case (let minimum, let maximum?) where minimum == maximum: String(minimum)
    case (let minimum, _) where minimum >= 2: "m"
    default: "notnone"
    }
  }
}
