/// Every word of help and command-line error text.
public enum Usage {
  public static let version = "0.1.0"

  static let overview = """
    xdg-share: share files, links and text with the services installed on this desktop.

    Usage:
      xdg-share list [--json] [--text TEXT] [--url URL]... [--] [FILE...]
      xdg-share validate PATH...
      xdg-share COMMAND --help
      xdg-share --version

    Commands:
      list       Show the installed share services, or those that accept the given items.
      validate   Check share-extension bundles and report every problem.

    Exit status:
      0  success
      1  failure (an invalid bundle, a file that cannot be read)
      2  the command line cannot be understood

    Share services are *.shareext bundles in $XDG_DATA_HOME/xdg-share/extensions and in
    each $XDG_DATA_DIRS/xdg-share/extensions; the first bundle with an identifier wins.
    """

  static func help(for command: CommandName?) -> String {
    switch command {
    case nil: overview
    case .list:
      """
      Usage: xdg-share list [--json] [--text TEXT] [--url URL]... [--] [FILE...]

      Without items, show every installed share service. With items, show the services
      whose activation rules accept them all together, as one selection.

      Options:
        --text TEXT   Share a piece of text (repeatable).
        --url URL     Share a link (repeatable); a file:// URL is taken as the file.
        --json        Print a JSON array of {"id", "name", "icon", "description", "version",
                      "bundle"} objects.
        --            Every argument after this is a file path, taken byte for byte.

      Exit status: 0 listed (even when nothing matches); 1 a file cannot be read; 2 usage.
      """
    case .validate:
      """
      Usage: xdg-share validate PATH...

      Check each share-extension bundle (a *.shareext directory, or its Info.plist) and print
      one line per problem: FILE: KEY: expected ..., found ...

      Exit status: 0 every bundle is valid (warnings allowed); 1 a bundle has an error; 2 usage.
      """
    }
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
    case .missingArgument(let name, let command):
      "missing \(name). See '\(helpCommand(command))'."
    case .invalidValue(let option, let value, let expected):
      "option '\(option)': expected \(expected), found '\(value)'"
    case .flagTakesNoValue(let option):
      "option '\(option)' takes no value"
    }
  }

  private static func didYouMean(_ suggestion: String?) -> String {
    suggestion.map { " Did you mean '\($0)'?" } ?? ""
  }

  private static func helpCommand(_ command: CommandName?) -> String {
    command.map { "xdg-share \($0.rawValue) --help" } ?? "xdg-share --help"
  }
}
