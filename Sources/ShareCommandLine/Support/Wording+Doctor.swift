import ShareCore
import ShareDesktop

/// The words of `doctor`: a line per bundle and per front end, marked ✓ (fine), · (worth
/// knowing) or ✗ (needs you, with what to do).
extension Wording {
  static func lines(for checkup: Checkup) -> [String] {
    var lines = ["Share services, in the order their folders are read:"]
    for folder in checkup.report.folders {
      let bundles = checkup.report.bundles.filter { $0.entry.folder == folder.location }
      guard folder.exists else {
        lines.append("  \(folder.location.displayString): no such folder")
        continue
      }
      lines.append("  \(folder.location.displayString):" + (bundles.isEmpty ? " none" : ""))
      for bundle in bundles { lines += self.lines(for: bundle, settingsFile: checkup.report.settingsFile) }
    }
    if !checkup.report.targets.isEmpty || !checkup.publishingLogs.isEmpty {
      lines.append("")
      lines.append("Direct targets the services published, in \(checkup.report.targetsFolder):")
      var logs = Dictionary(checkup.publishingLogs.map { ($0.serviceID, $0.log) }) { first, _ in first }
      for entry in checkup.report.targets {
        let count = entry.file.targets.count
        let mark = entry.file.problems.isEmpty && entry.installed ? "✓" : "·"
        lines.append(
          "  \(mark) \(entry.service): \(count) \(count == 1 ? "target" : "targets")"
            + (entry.installed ? "" : " (no such service is installed: the file is left over)"))
        lines += entry.file.problems.map { "      \($0.message)" }
        if let log = logs.removeValue(forKey: entry.service) {
          lines.append("      its program's last run to publish them wrote to \(log.displayString)")
        }
      }
      for (service, log) in checkup.publishingLogs where logs[service] != nil {
        lines.append(
          "  · \(service): nothing published; its program's last run wrote to \(log.displayString)")
      }
    }
    for registration in checkup.registrations { lines += self.lines(for: registration) }
    lines.append("")
    // Each bundle to fix, each package to install, and one `register` however many front ends
    // it brings up to date.
    let count =
      checkup.report.bundles.count(where: \.needsAttention)
      + checkup.registrations.reduce(0) { total, registration in
        let stale =
          registration.unreadableManifest != nil || registration.executableGone
          || registration.frontEnds.contains(where: \.needsRegister)
        return total + registration.advice.count + (stale ? 1 : 0)
      }
    lines.append(
      count == 0
        ? "Nothing needs you."
        : "\(count == 1 ? "1 thing needs" : "\(count) things need") you: the lines marked ✗ say what to do.")
    return lines
  }

  private static func lines(for bundle: DoctorReport.Bundle, settingsFile: String) -> [String] {
    let entry = bundle.entry
    let folderName = FilePath(bytes: entry.location.lastComponent).displayString
    let name = entry.outcome.service?.name ?? entry.outcome.name
    let title =
      (name.map { "\($0) (\(entry.identifier ?? "no identifier"))" } ?? entry.identifier ?? "no identifier")
      + ", \(folderName)"
    var lines: [String] = []
    switch bundle.state {
    case .loaded: lines.append("    ✓ \(title): loaded")
    case .pinned: lines.append("    ✓ \(title): loaded, pinned by you to the top of the share sheet")
    case .hidden:
      lines.append(
        "    · \(title): hidden by you (the share sheet's Edit mode shows it again; or Hidden= in \(settingsFile))"
      )
    case .shadowed:
      lines.append(
        "    · \(title): not used: \(entry.shadowedBy?.displayString ?? "another bundle") has the same identifier and is read first"
      )
    case .invalid:
      lines.append("    ✗ \(title): invalid, so not loaded; fix these, then check with xdg-share validate:")
      lines += entry.errors.map { "        " + Diagnostics.line(for: $0) }
    case .requirementsMissing:
      var needs = bundle.missing.programs.map {
        "the program " + $0.split(separator: "|").joined(separator: " or ")
      }
      needs += bundle.missing.busNames.map { "the bus name \($0)" }
      lines.append(
        "    · \(title): not offered: it needs \(Diagnostics.listed(needs, "and")), not found on this desktop; install "
          + (needs.count == 1 ? "it" : "them"))
    }
    if let permissions = entry.outcome.service.flatMap({ permissionsLine($0.entitlements) }) {
      lines.append("        " + permissions)
    }
    if bundle.state != .invalid {
      lines += entry.outcome.problems.filter { $0.severity == .warning }.map {
        "        " + Diagnostics.line(for: $0)
      }
    }
    return lines
  }

  private static func lines(for registration: RegistrationCheck) -> [String] {
    let whose = registration.scope == .user ? "your account" : "every user"
    let register = registration.scope == .user ? "xdg-share register" : "sudo xdg-share register --system"
    var lines = [""]
    if let reason = registration.unreadableManifest {
      lines.append(
        "✗ Entries for \(whose) in \(registration.dataFolder): the record of what register wrote \(reason); remove \(registration.dataFolder)/xdg-share/registered.json, then run \(register)"
      )
      return lines
    }
    guard let executable = registration.executable else {
      lines.append(
        "· Entries for \(whose) in \(registration.dataFolder): none (\(register) adds Share to the file managers, KDE applications and browsers)"
      )
      return lines
    }
    lines.append("Entries for \(whose) in \(registration.dataFolder), running \(executable):")
    if registration.executableGone {
      lines.append(
        "  ✗ \(executable) is gone, so every entry fails: run \(register) with the xdg-share you use now")
    }
    for status in registration.frontEnds {
      let label = Wording.label(status.family)
      switch status.state {
      case .upToDate:
        lines.append(
          "  ✓ \(label): up to date"
            + (status.upToDate == 0
              ? " (none needed)" : " (\(status.upToDate) \(status.upToDate == 1 ? "file" : "files"))"))
      case .notRegistered:
        lines.append("  · \(label): none")
      case .stale:
        var parts: [String] = []
        if !status.missing.isEmpty { parts.append("\(status.missing.count) missing") }
        if !status.outdated.isEmpty { parts.append("\(status.outdated.count) out of date") }
        if !status.leftOver.isEmpty {
          parts.append("\(status.leftOver.count) left over for services no longer offered")
        }
        lines.append(
          "  ✗ \(label): stale" + (parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")")
            + ": run \(register)")
        for path in status.missing { lines.append("      missing: \(path)") }
        for path in status.outdated { lines.append("      out of date: \(path)") }
        for path in status.leftOver { lines.append("      left over: \(path)") }
      }
      for path in status.usersOwn {
        lines.append(
          "    · \(path) is yours (edited, or not written by xdg-share): register leaves it as it is")
      }
    }
    for advice in registration.advice { lines.append("  ✗ " + describe(advice)) }
    return lines
  }
}
