import ShareCore

/// Dolphin (KIO) service menus: `kio/servicemenus/xdg-share-<id>.desktop`, one per service, all
/// in one "Share" submenu, and `xdg-share.picker.desktop`, "Share…" in the same submenu.
///
/// KIO matches exact types, subclasses and `type/*`; `all/allfiles` means every file and
/// `all/all` files and folders. A user's service menu must be executable (mode 0755), or a click
/// only says "You are not authorized to execute this file".
enum DolphinServiceMenus {
  static let folder = "kio/servicemenus"
  /// KIO 5 sorts the actions of a submenu by their identifiers, whatever their labels: `picker`
  /// comes before every service's `share`, so "Share…" is first.
  static let pickerAction = "picker"
  static let serviceAction = "share"

  /// - Parameter foldersOnly: whether the menus are for folders alone: where Purpose's Dolphin
  ///   plugin shows the services of files in its own Share menu.
  static func files(
    for entries: [MenuEntry], executable: String, catalog: MIMECatalog, foldersOnly: Bool = false
  ) -> [GeneratedFile] {
    let services = entries.map { entry in
      let coverage = entry.coverage
      let mimeTypes: [String] =
        switch (coverage.allFiles, coverage.folders) {
        case _ where foldersOnly: [MIMECatalog.folderType]
        case (true, true): ["all/all"]
        case (true, false): ["all/allfiles"]
        case (false, let folders):
          catalog.inheritancePatterns(for: coverage) + (folders ? [MIMECatalog.folderType] : [])
        }
      var lines = menuHeader(mimeTypes: mimeTypes, action: serviceAction)
      if coverage.minimumCount > 1 { lines.append("X-KDE-MinNumberOfUrls=\(coverage.minimumCount)") }
      if let maximum = coverage.maximumCount { lines.append("X-KDE-MaxNumberOfUrls=\(maximum)") }
      lines += DesktopEntry.actionGroup(
        serviceAction, name: entry.service.name, icon: entry.service.icon,
        exec: DesktopEntry.exec(executable: executable, serviceID: entry.service.id))
      return GeneratedFile(
        path: "\(folder)/\(entry.baseName).desktop",
        lines: lines,
        isExecutable: true, family: .dolphin)
    }
    let picker =
      menuHeader(mimeTypes: foldersOnly ? [MIMECatalog.folderType] : ["all/all"], action: pickerAction)
      + DesktopEntry.actionGroup(
        pickerAction, name: Picker.label, icon: ShareService.defaultIcon,
        exec: DesktopEntry.pickerExec(executable: executable))
    let pickerFile = GeneratedFile(
      path: "\(folder)/\(Picker.baseName).desktop",
      lines: picker,
      isExecutable: true, family: .dolphin, opensPicker: true)
    return [pickerFile] + services
  }

  /// The `[Desktop Entry]` group of a service menu in the Share submenu, offered for `mimeTypes`.
  private static func menuHeader(mimeTypes: [String], action: String) -> [String] {
    [
      "[Desktop Entry]",
      "Type=Service",
      "MimeType=" + DesktopEntry.list(mimeTypes),
      "Actions=\(action);",
      "X-KDE-Submenu=Share",
      // More than three top-level entries would push the submenu into "Actions".
      "X-KDE-Priority=TopLevel",
    ]
  }
}
