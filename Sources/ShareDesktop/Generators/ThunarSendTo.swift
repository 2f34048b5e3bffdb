import ShareCore

/// Thunar's Send To menu: `Thunar/sendto/xdg-share-<id>.desktop`, application entries, and
/// `xdg-share.picker.desktop`, "Share…".
///
/// Thunar compares MIME types exactly (`g_content_type_equals`): no wildcards, no subclasses. So
/// every accepted type is spelled out; a service for every file lists none, which Thunar takes as
/// everything (folders included), and so does "Share…". `TryExec` hides the entries once
/// xdg-share is gone.
enum ThunarSendTo {
  static let folder = "Thunar/sendto"

  static func files(for entries: [MenuEntry], executable: String) -> [GeneratedFile] {
    let services = entries.map { entry in
      let service = entry.service
      var lines = [
        "[Desktop Entry]",
        "Type=Application",
        "Name=" + DesktopEntry.escape(service.name),
      ]
      if let description = service.description, !description.isEmpty, description != service.name {
        lines.append("Comment=" + DesktopEntry.escape(description))
      }
      lines += [
        "Icon=" + DesktopEntry.escape(service.icon),
        "TryExec=" + DesktopEntry.escape(executable),
        "Exec=" + DesktopEntry.exec(executable: executable, serviceID: service.id),
      ]
      if !entry.coverage.allFiles {
        let types = entry.coverage.fileTypes + (entry.coverage.folders ? [MIMECatalog.folderType] : [])
        lines.append("MimeType=" + DesktopEntry.list(types))
      }
      // Keeps the entry out of application menus, should anything ever look here; Thunar lists it.
      lines.append("NoDisplay=true")
      return GeneratedFile(
        path: "\(folder)/\(entry.baseName).desktop",
        lines: lines,
        family: .thunar)
    }
    let picker = [
      "[Desktop Entry]",
      "Type=Application",
      "Name=" + Picker.label,
      "Icon=" + ShareService.defaultIcon,
      "TryExec=" + DesktopEntry.escape(executable),
      "Exec=" + DesktopEntry.pickerExec(executable: executable),
      "NoDisplay=true",
    ]
    let pickerFile = GeneratedFile(
      path: "\(folder)/\(Picker.baseName).desktop",
      lines: picker,
      family: .thunar, opensPicker: true)
    return [pickerFile] + services
  }
}
