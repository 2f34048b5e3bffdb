/// Every word of help and command-line error text.
public enum Usage {
  public static let version = "0.1.0"
  /// Seconds the service waits without work before it exits.
  static let defaultIdleTimeout: Double = 120

  static let overview = """
    xdg-share: share files, links and text with the services installed on this desktop.

    Usage:
      xdg-share [share] [--service ID] [--text TEXT] [--url URL]... [--json] [--] FILE...
      xdg-share list [--json] [--text TEXT] [--url URL]... [--] [FILE...]
      xdg-share validate PATH...
      xdg-share install BUNDLE
      xdg-share uninstall ID
      xdg-share history [--json]
      xdg-share retry [--json] ID
      xdg-share group path GROUP
      xdg-share daemon [--idle-timeout SECONDS]
      xdg-share register [--system]
      xdg-share unregister [--system]
      xdg-share COMMAND --help
      xdg-share --version

    Commands:
      share       Share with a service (the default: `xdg-share photo.png`).
      list        Show the installed share services, or those that accept the given items.
      validate    Check share-extension bundles and report every problem.
      install     Validate a bundle and install it for this user.
      uninstall   Remove a service this user installed.
      history     Show past share requests and how they ended.
      retry       Run a request that did not complete again.
      group       Print an App Group's shared folder.
      daemon      Serve org.xdgshare.Share on the session bus (started by D-Bus activation).
      register    Add Share to the right-click menu of every file manager.
      unregister  Remove what register wrote.

    \(exitStatus)

    Share services are *.shareext bundles in $XDG_DATA_HOME/xdg-share/extensions and in
    each $XDG_DATA_DIRS/xdg-share/extensions; the first bundle with an identifier wins.
    """

  static let exitStatus = """
    Exit status:
      0  success
      1  failure (an invalid bundle, a file that cannot be read)
      2  the command line cannot be understood
      3  cancelled: by you, or by the service, which says why
      4  the service failed (it crashed, exited non-zero, or said nothing)
      5  the service ran past its time limit and was stopped
      6  no service has that identifier
      7  the service does not accept these items (or none does)
      8  no service was chosen (no terminal to ask on)
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
    case .share:
      """
      Usage: xdg-share [share] [--service ID] [--text TEXT] [--url URL]... [--json] [--] FILE...

      Share files, links and text with a service. Without --service, the services that accept
      the items are listed; on a terminal you pick one, otherwise they are printed and
      xdg-share exits with status 8. The service's rule is checked again before it runs.

      Options:
        --service ID  The service to share with (see `xdg-share list`).
        --text TEXT   Share a piece of text (repeatable).
        --url URL     Share a link (repeatable); a file:// URL is taken as the file.
        --json        Print the outcome as JSON: {"requestId", "status", "returningItems",
                      "message"}.
        --            Every argument after this is a file path, taken byte for byte.

      What the service returns (an uploaded file's link, a saved file's path) is printed, one
      per line. On a terminal progress is drawn on standard error; without one, outcomes and
      progress go to desktop notifications.

      \(exitStatus)
      """
    case .install:
      """
      Usage: xdg-share install BUNDLE

      Validate a *.shareext bundle and copy it into $XDG_DATA_HOME/xdg-share/extensions,
      replacing an earlier copy of the same service.

      Exit status: 0 installed; 1 the bundle is invalid or cannot be copied; 2 usage.
      """
    case .uninstall:
      """
      Usage: xdg-share uninstall ID

      Remove the service ID from $XDG_DATA_HOME/xdg-share/extensions. Services installed for
      every user cannot be removed here; hide them in ~/.config/xdg-share/settings.ini.

      Exit status: 0 removed; 1 it is installed system-wide; 6 no such service; 2 usage.
      """
    case .history:
      """
      Usage: xdg-share history [--json]

      Show every share request recorded in $XDG_STATE_HOME/xdg-share/history, oldest first:
      its id, when it started, how it ended, the service and what was shared.

      Exit status: 0; 2 usage.
      """
    case .retry:
      """
      Usage: xdg-share retry [--json] ID

      Share the items of request ID (or a unique prefix of it) with its service again, as a
      new request. A request that completed is not repeated.

      Exit status: as for share; 1 no such request, or it completed.
      """
    case .group:
      """
      Usage: xdg-share group path GROUP

      Print the shared folder of the App Group GROUP (group.<reverse-DNS>), creating it. A
      containing application and its share extension both keep data there; defaults.json in
      it is their shared key-value store (a JSON object).

      Exit status: 0; 1 the folder cannot be made; 2 usage or a malformed group name.
      """
    case .daemon:
      """
      Usage: xdg-share daemon [--idle-timeout SECONDS]

      Own org.xdgshare.Share on the session bus and serve /org/xdgshare/Share (interface
      org.xdgshare.Share1, documented in org.xdgshare.Share1.xml): list and query services,
      and share as request objects. Bundles are watched and reloaded as they change. D-Bus
      starts the service on demand; it exits after SECONDS without calls or requests in
      flight (default \(Int(defaultIdleTimeout)); XDG_SHARE_IDLE_TIMEOUT; 0 never).

      Exit status: 0 after idling out; 1 no session bus, or the name is taken; 2 usage.
      """
    case .register:
      """
      Usage: xdg-share register [--system]

      Write a Share entry for the installed services into each file manager's own place
      (Dolphin, Nautilus, Thunar, Nemo, Caja, PCManFM, PCManFM-Qt) and the D-Bus activation
      file, for this user (under $XDG_DATA_HOME) or, with --system, for every user (under the
      first $XDG_DATA_DIRS folder). Prints what it wrote per file manager and anything left
      to do. install, uninstall and the D-Bus service keep the entries up to date.

      Exit status: 0; 1 a file cannot be written; 2 usage.
      """
    case .unregister:
      """
      Usage: xdg-share unregister [--system]

      Remove exactly the files register wrote, and nothing else.

      Exit status: 0; 1 a file cannot be removed; 2 usage.
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
    case .invalidEnvironmentValue(let variable, let value, let expected):
      "environment variable \(variable): expected \(expected), found '\(value)'"
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
