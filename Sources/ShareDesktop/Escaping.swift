import ShareCore

/// Value encodings of the formats the generators write. Each one is the inverse of what the
/// reading program does, so that no name can change a key, a group or an argument.
package enum DesktopEntry {
  /// A `string` or `localestring` value of a desktop entry or GLib key file, escaped as
  /// ``KeyFile/escape(_:)`` escapes it, without the control characters that have no escape: no
  /// reader needs them in a label. A leading space is the first after them.
  package static func escape(_ value: String) -> String {
    var kept = String.UnicodeScalarView()
    kept.append(
      contentsOf: value.unicodeScalars.lazy.filter {
        !($0.value < 0x20 || $0.value == 0x7F) || $0 == "\n" || $0 == "\r" || $0 == "\t"
      })
    return KeyFile.escape(String(kept))
  }

  /// A `[Desktop Action <id>]` group after a blank line: its name and icon, escaped, and `exec`,
  /// an Exec line made by ``exec(executable:serviceID:)`` and its kind.
  package static func actionGroup(_ id: String, name: String, icon: String, exec: String) -> [String] {
    ["", "[Desktop Action \(id)]", "Name=" + escape(name), "Icon=" + escape(icon), "Exec=" + exec]
  }

  /// A `;`-separated list: each element escaped, a `;` inside an element as `\;`, and the list
  /// ending with `;` as the specification recommends.
  package static func list(_ elements: [String]) -> String {
    elements.map { replacingScalar(";", with: "\\;", in: escape($0)) + ";" }.joined()
  }

  /// Characters that make an Exec argument need quotes (Desktop Entry Specification,
  /// "The Exec key").
  private static let reserved: Set<Unicode.Scalar> = [
    " ", "\t", "\n", "\"", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`",
  ]

  /// One argument of an Exec line, before string escaping: double-quoted when it holds a reserved
  /// character, with `"`, `` ` ``, `$` and `\` escaped inside the quotes; `%` doubled everywhere.
  /// The same text is read correctly by `g_shell_parse_argv` and `KShell::splitArgs`, which the
  /// file managers that do not follow the specification to the letter use instead.
  package static func execArgument(_ argument: String) -> String {
    let percentEscaped = replacingScalar("%", with: "%%", in: argument)
    guard argument.isEmpty || argument.unicodeScalars.contains(where: reserved.contains) else {
      return percentEscaped
    }
    var quoted = "\""
    for scalar in percentEscaped.unicodeScalars {
      if scalar == "\"" || scalar == "`" || scalar == "$" || scalar == "\\" {
        quoted.append("\\")
      }
      quoted.unicodeScalars.append(scalar)
    }
    return quoted + "\""
  }

  /// The Exec line of a service's entry: `<xdg-share> --service <id> -- %F`, string-escaped. The
  /// files come last, after `--`, so that a file named `--service` stays a file.
  package static func exec(executable: String, serviceID: String) -> String {
    exec(executable: executable, options: ["--service", serviceID])
  }

  /// The Exec line of a "Share…" entry: `<xdg-share> --picker -- %F`, which opens the share sheet
  /// with the selection; the files come last, as in ``exec(executable:serviceID:)``.
  package static func pickerExec(executable: String) -> String {
    exec(executable: executable, options: ["--picker"])
  }

  /// The Exec line of a launcher's action for one service: `<xdg-share> --picker --service ID
  /// -- %F`. A launcher starts an action without files: the share sheet then asks for them and
  /// shows the share's progress and outcome.
  package static func launcherExec(executable: String, serviceID: String) -> String {
    exec(executable: executable, options: ["--picker", "--service", serviceID])
  }

  /// `<executable> <options> -- %F`, each word an Exec argument, the line string-escaped.
  private static func exec(executable: String, options: [String]) -> String {
    escape(([executable] + options).map(execArgument).joined(separator: " ") + " -- %F")
  }
}

/// A Python string literal that means exactly `value`: printable ASCII as it is, everything else
/// as `\x`, `\u` or `\U` escapes, so the generated source is plain ASCII whatever the value holds.
package func pythonStringLiteral(_ value: String) -> String {
  let escaped = value.replacingScalars { scalar in
    switch scalar {
    case "\\": return "\\\\"
    case "\"": return "\\\""
    case " "..."~": return nil
    default:
      let hex = String(scalar.value, radix: 16)
      return switch scalar.value {
      case ..<0x100: "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
      case ..<0x10000: "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
      }
    }
  }
  return "\"" + escaped + "\""
}

/// A word for `dbus-daemon`'s Exec line, which is split like a shell command line without
/// running a shell: single-quoted unless it is plainly safe.
package func dbusExecWord(_ word: String) -> String {
  let plain = word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._+-,:@=".contains($0)) }
  guard !plain || word.isEmpty else { return word }
  return shellQuoted(word)
}

/// `word` in a POSIX shell's single quotes, each quote inside as `'\''`: one word, taken
/// literally, by a shell and by whatever splits a line as one does.
package func shellQuoted(_ word: String) -> String {
  "'" + replacingScalar("'", with: "'\\''", in: word) + "'"
}

/// `text` with every `scalar` replaced. Scalar by scalar, as the readers read: a quote or a
/// semicolon followed by a combining mark is one `Character`, which `replacing` would pass over.
func replacingScalar(_ scalar: Unicode.Scalar, with replacement: String, in text: String) -> String {
  text.replacingScalars { $0 == scalar ? replacement : nil }
}
