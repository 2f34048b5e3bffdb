import ShareCore

/// What the user asked for, parsed from argv.
public enum Command: Equatable, Sendable {
  /// `--help`, or `COMMAND --help`.
  case help(CommandName?)
  case version
  case list(ListOptions)
  case validate(paths: [FilePath])
  case share(ShareOptions)
  case install(path: FilePath)
  case uninstall(id: String)
  case history(json: Bool)
  case retry(id: String, json: Bool)
  case groupPath(group: String)
  case daemon(idleTimeout: Double?)
  case register(system: Bool)
  case unregister(system: Bool)
  /// `completion SHELL`: the completion script for `SHELL`, generated from ``CommandTable``.
  case completion(Shell)
  /// `man`: the manual page xdg-share(1), generated from ``CommandTable``.
  case manual
}

/// The shells `xdg-share completion` writes a script for.
public enum Shell: String, CaseIterable, Sendable {
  case bash
  case zsh
  case fish
}

/// The subcommands, by the word that names them.
public enum CommandName: String, CaseIterable, Sendable {
  case list
  case validate
  case share
  case install
  case uninstall
  case history
  case retry
  case group
  case daemon
  case register
  case unregister
  case completion
  case man
}

/// What the user shares: texts, links and files, in the order given.
public struct SelectionArguments: Equatable, Sendable {
  public var items: [ShareItem] = []

  public var isEmpty: Bool { items.isEmpty }
}

public struct ListOptions: Equatable, Sendable {
  public var json = false
  public var selection = SelectionArguments()
}

public struct ShareOptions: Equatable, Sendable {
  /// The service to share with; `nil` asks the user.
  public var service: String?
  /// Choose in the share sheet, even on a terminal.
  public var picker = false
  public var json = false
  public var selection = SelectionArguments()
}
