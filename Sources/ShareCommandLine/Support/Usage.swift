import ShareCore
import ShareHost

/// The help pages, rendered from ``CommandTable``, and every word of command-line error text.
public enum Usage {
  public static let version = "0.1.0"
  /// Seconds the service waits without work before it exits.
  static let defaultIdleTimeout: Double = 120

  /// The overview, `xdg-share --help`: every visible command's usage and summary.
  static var overview: String {
    let commands = CommandTable.visible
    let width = (commands.map(\.name.rawValue.count).max() ?? 0) + 2
    let usages =
      commands.map { "  xdg-share \($0.usage)" } + ["  xdg-share COMMAND --help", "  xdg-share --version"]
    let summaries = commands.map { "  " + $0.name.rawValue.padded(to: width) + $0.summary }
    return """
      xdg-share: \(tagline).

      Usage:
      \(usages.joined(separator: "\n"))

      Commands:
      \(summaries.joined(separator: "\n"))

      \(exitStatus)

      \(servicesFolders)
      """
  }

  /// What xdg-share does, in one line (the overview's first, the manual page's NAME).
  static let tagline = "share files, links and text with the services installed on this desktop"

  static let servicesFolders = """
    Share services are *.shareext bundles in $XDG_DATA_HOME/xdg-share/extensions and in
    each $XDG_DATA_DIRS/xdg-share/extensions; the first bundle with an identifier wins.
    """

  static var exitStatus: String {
    (["Exit status:"] + CommandTable.exitCodes.map { "  \($0.code.rawValue)  \($0.meaning)" })
      .joined(separator: "\n")
  }

  static func help(for command: CommandName?) -> String {
    guard let command else { return overview }
    let spec = CommandTable.spec(for: command)
    var sections = ["Usage: xdg-share \(spec.usage)", spec.description]
    if spec.listsOptions {
      var rows = spec.options.map { ($0.synopsis, $0.help) }
      if spec.listsSeparator { rows.append(("--", CommandTable.separatorHelp)) }
      // The texts start in column 16, or two past the longest option.
      let width = max(14, (rows.map(\.0.count).max() ?? 0) + 2)
      let lines = rows.map { synopsis, help in
        "  " + synopsis.padded(to: width)
          + help.split(separator: "\n").joined(separator: "\n" + String(repeating: " ", count: width + 2))
      }
      sections.append((["Options:"] + lines).joined(separator: "\n"))
    }
    if let notes = spec.notes { sections.append(notes) }
    switch spec.exitStatus {
    case .summary(let text): sections.append("Exit status: " + text)
    case .table: sections.append(exitStatus)
    }
    return sections.joined(separator: "\n\n")
  }

  /// The message for a usage error, without the `xdg-share: ` prefix.
  static func message(for error: UsageError) -> String {
    switch error {
    case .unknownCommand(let word, let suggestion):
      "unknown command '\(word)'." + didYouMean(suggestion) + " See 'xdg-share --help'."
    case .unknownOption(let option, let command, let suggestion):
      "unknown option '\(option)'" + (command.map { " for '\($0.rawValue)'" } ?? "") + "."
        + didYouMean(suggestion) + " See '\(helpCommand(command))'."
    case .missingValue(let option):
      "option '\(option)' needs a value"
    case .unexpectedArgument(let argument, let command):
      "unexpected argument '\(argument)'. See '\(helpCommand(command))'."
    case .missingArgument(let missing, let command):
      "missing \(describe(missing)). See '\(helpCommand(command))'."
    case .invalidValue(let option, let value, let expected):
      "option '\(option)': expected \(describe(expected)), found '\(value)'"
    case .invalidEnvironmentValue(let variable, let value, let expected):
      "environment variable \(variable): expected \(describe(expected)), found '\(value)'"
    case .flagTakesNoValue(let option):
      "option '\(option)' takes no value"
    case .conflictingOptions(let first, let second, let command):
      "options '\(first)' and '\(second)' cannot be given together. See '\(helpCommand(command))'."
    case .invalidArgument(let name, let value, let expected, let command):
      "\(name): expected \(describe(expected)), found '\(value)'. See '\(helpCommand(command))'."
    }
  }

  static func describe(_ missing: MissingArgument) -> String {
    switch missing {
    case .operand(let placeholder): placeholder
    case .groupAction: "ACTION (path)"
    case .somethingToShare: "something to share (FILE, --text or --url)"
    case .template: "what to write: --swift, --shell, --python or --from-xcode INFO_PLIST"
    }
  }

  static func describe(_ expected: ExpectedValue) -> String {
    switch expected {
    case .secondsOrNever: "a number of seconds (0: never)"
    case .setting: "IDENT=VALUE"
    case .definition: "VAR=VALUE, VAR a build variable's name such as APP_GROUP_IDENTIFIER"
    case .absoluteURL: "an absolute URL such as https://example.org/"
    case .targetID: "a direct target's identifier, as list --json shows it"
    case .someText: "a text that is not empty"
    case .bundleIdentifier: "a reverse-DNS identifier of letters, digits, '.' and '-', such as ch.example.hoi"
    case .repository: "a git URL or an absolute path"
    case .bundleName: "letters, digits, '.', '_' and '-', starting with a letter or digit"
    case .oneOf(let words): alternatives(words)
    }
  }

  /// `a, b or c`.
  static func alternatives(_ words: [String]) -> String {
    guard let last = words.last, words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " or " + last
  }

  private static func didYouMean(_ suggestion: String?) -> String {
    suggestion.map { " Did you mean '\($0)'?" } ?? ""
  }

  private static func helpCommand(_ command: CommandName?) -> String {
    command.map { "xdg-share \($0.rawValue) --help" } ?? "xdg-share --help"
  }
}
