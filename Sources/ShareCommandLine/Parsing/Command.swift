public import ShareCore

/// What the user asked for, parsed from argv.
public enum Command: Equatable, Sendable {
  /// `--help`, or `COMMAND --help`.
  case help(CommandName?)
  case version
  case list(ListOptions)
  case validate(paths: [FilePath])
}

/// The subcommands, by the word that names them.
public enum CommandName: String, CaseIterable, Sendable {
  case list
  case validate
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
