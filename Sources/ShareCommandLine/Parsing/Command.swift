public import ShareCore

/// What the user asked for, parsed from argv.
public enum Command: Equatable, Sendable {
  /// `--help`, or `COMMAND --help`.
  case help(CommandName?)
  case version
  case list(ListOptions)
  case validate(paths: [FilePath])
  case share(ShareOptions)
  /// `install [--allow-unconfined] BUNDLE`; `allowUnconfined`: the user allows a bundle that
  /// asks for no sandbox.
  case install(path: FilePath, allowUnconfined: Bool = false)
  case uninstall(id: String)
  case history(json: Bool)
  case retry(id: String, json: Bool, again: Bool)
  case groupPath(group: String)
  case daemon(idleTimeout: Double?)
  case register(system: Bool)
  case unregister(system: Bool)
  /// `completion SHELL`: the completion script for `SHELL`, generated from ``CommandTable``.
  case completion(Shell)
  /// `man`: the manual page xdg-share(1), generated from ``CommandTable``.
  case manual
  /// `new`: a bundle to start from, or one ported from Xcode.
  case new(NewOptions)
  /// `configure [--set IDENT=VALUE]... ID`: a service's configuration items, asked on the
  /// terminal, or given.
  case configure(id: String, settings: [ConfigurationSetting])
  /// `why ID [--json] [--text TEXT] [--url URL]... [--] FILE...`: why a service is or is not
  /// offered for the items.
  case why(WhyOptions)
  /// `doctor [--json]`: every bundle and every front end's entries, and what needs the user.
  case doctor(json: Bool)
}

/// What `why` explains.
public struct WhyOptions: Equatable, Sendable {
  /// An installed service, or a bundle by its path (one not installed yet).
  public enum Subject: Equatable, Sendable {
    case service(String)
    case bundle(FilePath)
  }

  public var subject: Subject
  public var json = false
  public var selection = SelectionArguments()
}

/// `--set IDENT=VALUE` of `configure`.
public struct ConfigurationSetting: Equatable, Sendable {
  public var identifier: String
  public var value: String
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
  case new
  case configure
  case why
  case doctor
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
  /// One of the service's direct targets, by its identifier (`--target`).
  public var target: String?
  /// Choose in the share sheet, even on a terminal.
  public var picker = false
  public var json = false
  public var selection = SelectionArguments()
}

/// What `new` writes.
public struct NewOptions: Equatable, Sendable {
  public enum Template: Equatable, Sendable {
    case swift
    case shell
    case python
    /// A bundle ported from an Xcode project's source Info.plist.
    case fromXcode(FilePath)
  }

  /// `--define VAR=VALUE`.
  public struct Definition: Equatable, Sendable {
    public var variable: String
    public var value: String
  }

  public var template: Template
  /// The bundle is `NAME.shareext`; letters, digits, `.`, `_` and `-`.
  public var name: String
  /// `--identifier`; `nil`: `local.` and the name.
  public var identifier: String?
  /// In the order given: a later one wins.
  public var definitions: [Definition] = []
  /// `--sharekit-url`; `nil`: the repository this xdg-share was built from.
  public var shareKitURL: String?
  /// `--entitlements`, for `--from-xcode`: the target's `.entitlements` file; `nil`: the one
  /// beside the Info.plist, if there is one.
  public var entitlements: FilePath?
}
