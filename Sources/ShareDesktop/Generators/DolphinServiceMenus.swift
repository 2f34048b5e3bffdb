/// Dolphin (KIO) service menus: `kio/servicemenus/xdg-share-<id>.desktop`, one per service, all
/// in one "Share" submenu.
///
/// KIO matches exact types, subclasses and `type/*`; `all/allfiles` means every file and
/// `all/all` files and folders. A user's service menu must be executable (mode 0755), or a click
/// only says "You are not authorized to execute this file".
enum DolphinServiceMenus {
  static let folder = "kio/servicemenus"

  static func files(for entries: [MenuEntry], executable: String, catalog: MIMECatalog) -> [GeneratedFile] {
    entries.map { entry in
      let coverage = entry.coverage
      let mimeTypes: [String] =
        switch (coverage.allFiles, coverage.folders) {
        case (true, true): ["all/all"]
        case (true, false): ["all/allfiles"]
        case (false, let folders):
          catalog.inheritancePatterns(for: coverage) + (folders ? [MIMECatalog.folderType] : [])
        }
      var lines = [
        "[Desktop Entry]",
        "Type=Service",
        "MimeType=" + DesktopEntry.list(mimeTypes),
        "Actions=share;",
        "X-KDE-Submenu=Share",
        // More than three top-level entries would push the submenu into "Actions".
        "X-KDE-Priority=TopLevel",
      ]
      if coverage.minimumCount > 1 { lines.append("X-KDE-MinNumberOfUrls=\(coverage.minimumCount)") }
      if let maximum = coverage.maximumCount { lines.append("X-KDE-MaxNumberOfUrls=\(maximum)") }
      lines += [
        "",
        "[Desktop Action share]",
        "Name=" + DesktopEntry.escape(entry.service.name),
        "Icon=" + DesktopEntry.escape(entry.service.icon),
        "Exec=" + DesktopEntry.exec(executable: executable, serviceID: entry.service.id),
      ]
      return GeneratedFile(
        path: "\(folder)/\(entry.baseName).desktop",
        contents: header() + lines.joined(separator: "\n") + "\n",
        isExecutable: true, family: .dolphin)
    }
  }
}
