import ShareHost

/// Every command and option of `xdg-share`, with every word of its help: the parser reads which
/// options a command takes and whether they take a value here, and `--help`, the manual page and
/// the shell completions are rendered from it, so they cannot drift apart.
enum CommandTable {
  /// Every command, in the overview's order; one missing from `overviewOrder` comes last, never
  /// not at all.
  static let commands: [CommandSpec] = CommandName.allCases.sorted { rank($0) < rank($1) }.map(spec(for:))

  private static let overviewOrder: [CommandName] = [
    .share, .list, .new, .validate, .why, .doctor, .install, .uninstall, .configure, .history, .retry, .group,
    .daemon,
    .register, .unregister, .completion, .man,
  ]

  private static func rank(_ name: CommandName) -> Int {
    overviewOrder.firstIndex(of: name) ?? overviewOrder.count
      + (CommandName.allCases.firstIndex(of: name) ?? 0)
  }

  static func spec(for name: CommandName) -> CommandSpec {
    switch name {
    case .share: share
    case .list: list
    case .validate: validate
    case .install: install
    case .uninstall: uninstall
    case .history: history
    case .retry: retry
    case .group: group
    case .daemon: daemon
    case .register: register
    case .unregister: unregister
    case .completion: completion
    case .man: manual
    case .new: new
    case .configure: configure
    case .why: why
    case .doctor: doctor
    }
  }

  /// The commands the overview lists.
  static var visible: [CommandSpec] { commands.filter { !$0.isHidden } }

  static let separatorHelp = "Every argument after this is a file path, taken byte for byte."

  /// `--help`, `-h`: every command takes it (the parser looks for it before the rest).
  static let helpFlag = (long: "--help", short: "-h", brief: "Show help")
  /// `--version`, `-V`: only first.
  static let versionFlag = (long: "--version", short: "-V", brief: "Print the version")

  /// The exit codes, as the overview and `share --help` list them.
  static let exitCodes: [(code: ExitCode, meaning: String)] = [
    (.success, "success"),
    (.failure, "failure (an invalid bundle, a file that cannot be read)"),
    (.usage, "the command line cannot be understood"),
    (.cancelled, "cancelled: by you, or by the service, which says why"),
    (.pluginFailed, "the service failed (it crashed, exited non-zero, or said nothing)"),
    (.timedOut, "the service ran past its time limit and was stopped"),
    (.noSuchService, "no service has that identifier"),
    (.notAccepted, "the service does not accept these items (or none does)"),
    (.noServiceChosen, "no service was chosen (no terminal to ask on)"),
  ]

  // MARK: Options

  static let text = OptionSpec(
    .text, "--text", "TEXT", repeatable: true, help: "Share a piece of text (repeatable).",
    brief: "Share a piece of text")
  static let url = OptionSpec(
    .url, "--url", "URL", repeatable: true,
    help: "Share a link (repeatable); a file:// URL is taken as the file.", brief: "Share a link")
  static let service = OptionSpec(
    .service, "--service", "ID", completes: .serviceIDs,
    help: "The service to share with (see `xdg-share list`).", brief: "The service to share with")

  // MARK: Commands

  static let share = CommandSpec(
    .share, summary: "Share with a service (the default: `xdg-share photo.png`).",
    usage:
      "[share] [--service ID] [--target ID] [--picker] [--text TEXT] [--url URL]... [--json] [--] FILE...",
    description: """
      Share files, links and text with a service. Without --service, you choose among the
      services that accept the items: in the share sheet (a window) with --picker, or when
      there is a display and no terminal; on a terminal from a numbered list; otherwise they
      are printed and xdg-share exits with status 8. The service's rule is checked again
      before it runs.
      """,
    options: [
      service,
      OptionSpec(
        .target, "--target", "ID",
        help: """
          Share with one of the service's direct targets (a device, a person, a folder),
          as `list --json` lists them; without --service, the service that has it.
          """, brief: "Share with a direct target of the service"),
      OptionSpec(
        .picker, "--picker",
        help: """
          Choose in the share sheet, even on a terminal; with --service, share with that
          service in the sheet; without items, the sheet first asks for files.
          """, brief: "Choose in the share sheet"),
      text, url,
      OptionSpec(
        .json, "--json",
        help: """
          Print the outcome as JSON: {"requestId", "status", "returningItems",
          "message"}.
          """, brief: "Print the outcome as JSON"),
    ],
    operands: [OperandSpec("FILE", repeatable: true, completes: .files)], listsOptions: true,
    listsSeparator: true,
    notes: """
      What the service returns (an uploaded file's link, a saved file's path) is printed, one
      per line. On a terminal progress is drawn on standard error; without one, outcomes and
      progress go to desktop notifications.
      """, exitStatus: .table)

  static let list = CommandSpec(
    .list, summary: "Show the installed share services, or those that accept the given items.",
    usage: "list [--json] [--text TEXT] [--url URL]... [--] [FILE...]",
    description: """
      Without items, show every installed share service. With items, show the services
      whose activation rules accept them all together, as one selection.
      """,
    options: [
      text, url,
      OptionSpec(
        .json, "--json",
        help: """
          Print a JSON array of {"id", "name", "icon", "description", "version",
          "bundle", "entitlements"} objects.
          """, brief: "Print the services as JSON"),
    ],
    operands: [OperandSpec("FILE", repeatable: true, completes: .files)], listsOptions: true,
    listsSeparator: true,
    exitStatus: .summary("0 listed (even when nothing matches); 1 a file cannot be read; 2 usage."))

  static let validate = CommandSpec(
    .validate, summary: "Check share-extension bundles and report every problem.", usage: "validate PATH...",
    description: """
      Check each share-extension bundle (a *.shareext directory, or its Info.plist) and print
      one line per problem: FILE: KEY: expected ..., found ...
      """, operands: [OperandSpec("PATH", repeatable: true, completes: .files)],
    exitStatus: .summary("0 every bundle is valid (warnings allowed); 1 a bundle has an error; 2 usage."))

  static let why = CommandSpec(
    .why, summary: "Say why a service is offered for the given items, or why not.",
    usage: "why ID [--json] [--text TEXT] [--url URL]... [--] FILE...",
    description: """
      Show what service ID is offered: each item's kind and type identifiers as its rule sees
      them (the UTI, the MIME type and its parents) and how the type was found (by the file's
      name, its content, or the caller); then the activation rule clause by clause, each with
      whether it holds and what it compared; then the verdict, the first clause that refused,
      and what the service takes. What keeps the service out of every sheet (hidden by you,
      an invalid bundle, a program or bus name it needs) comes first. ID may also be the path
      of a bundle, installed or not.
      """,
    options: [
      text, url,
      OptionSpec(
        .json, "--json",
        help: """
          Print the same as JSON: {"service", "accepted", "obstacles", "items", "rule",
          "clauses", "refusedBy", "message"} (docs/why.md).
          """, brief: "Print the explanation as JSON"),
    ],
    operands: [
      OperandSpec("ID", completes: .serviceIDs), OperandSpec("FILE", repeatable: true, completes: .files),
    ], listsOptions: true, listsSeparator: true,
    exitStatus: .summary(
      "0 the service is offered for the items; 7 it is not; 6 no such service; 1 a file cannot be read; 2 usage."
    ))

  static let doctor = CommandSpec(
    .doctor, summary: "Check every share service and every file manager's entries.",
    usage: "doctor [--json]",
    description: """
      List every bundle of every extensions folder, in the order they are read: loaded,
      shadowed by one with the same identifier read before it, hidden or pinned by you,
      invalid (with validate's lines), or missing a program or bus name it needs. Then, for
      each front end (each file manager, KDE's Purpose, the browsers' Web Share host, the
      D-Bus activation file, the application entry), whether its entries are up to date with
      the services or stale. Each line that needs you says what to do.
      """,
    options: [
      OptionSpec(
        .json, "--json",
        help: """
          Print the same as JSON: {"folders", "bundles", "frontEnds", "registrations",
          "targets", "needsAttention"} (docs/why.md).
          """, brief: "Print the findings as JSON")
    ], listsOptions: true,
    exitStatus: .summary("0 nothing needs you; 1 something does (each such line says what to do); 2 usage."))

  static let install = CommandSpec(
    .install, summary: "Validate a bundle and install it for this user.",
    usage: "install [--allow-unconfined] BUNDLE",
    description: """
      Validate a *.shareext bundle and copy it into $XDG_DATA_HOME/xdg-share/extensions,
      replacing an earlier copy of the same service. First print what its Entitlements.plist
      lets it reach beyond the items it is handed (the network, names on the session bus,
      folders...), or, replacing a copy, only what is new. A bundle that asks for no sandbox
      (org.xdgshare.unconfined) is refused without --allow-unconfined.
      """,
    options: [
      OptionSpec(
        .allowUnconfined, "--allow-unconfined",
        help: """
          Install a bundle that asks to run without a sandbox,
          with everything your account can reach.
          """, brief: "Install a bundle that asks for no sandbox")
    ],
    operands: [OperandSpec("BUNDLE", completes: .directories)], listsOptions: true,
    exitStatus: .summary(
      "0 installed; 1 the bundle is invalid, asks for no sandbox (see --allow-unconfined) or cannot be copied; 2 usage."
    ))

  static let uninstall = CommandSpec(
    .uninstall, summary: "Remove a service this user installed.", usage: "uninstall ID",
    description: """
      Remove the service ID from $XDG_DATA_HOME/xdg-share/extensions. Services installed for
      every user cannot be removed here; hide them in ~/.config/xdg-share/settings.ini.
      """, operands: [OperandSpec("ID", completes: .serviceIDs)],
    exitStatus: .summary("0 removed; 1 it is installed system-wide; 6 no such service; 2 usage."))

  static let configure = CommandSpec(
    .configure, summary: "Set a service's configuration items (its server, its user...).",
    usage: "configure [--set IDENT=VALUE]... ID",
    description: """
      Ask the configuration items the service ID declares in its compose sheet one by one on
      the terminal: its title, the choices numbered, and the current value in brackets (Enter
      keeps it); a password is read without echo. The values are the defaults of its next
      shares, remembered in $XDG_CONFIG_HOME/xdg-share/configuration/ID.json; passwords are
      kept in the Secret Service, never in a file. Without a terminal, give the values with
      --set.
      """,
    options: [
      OptionSpec(
        .set, "--set", "IDENT=VALUE", repeatable: true,
        help: """
          Give the item IDENT the value VALUE, without asking
          (repeatable).
          """, brief: "Give a configuration item a value")
    ],
    operands: [OperandSpec("ID", completes: .serviceIDs)], listsOptions: true,
    exitStatus: .summary(
      "0 saved; 1 a value is missing or cannot be kept; 3 cancelled; 6 no such service; 2 usage."))

  static let history = CommandSpec(
    .history, summary: "Show past share requests and how they ended.", usage: "history [--json]",
    description: """
      Show every share request recorded in $XDG_STATE_HOME/xdg-share/history, oldest first:
      its id, when it started, how it ended, the service and what was shared.
      """,
    options: [
      OptionSpec(
        .json, "--json", help: "Print the records as they are stored, as a JSON array.",
        brief: "Print the records as JSON")
    ], exitStatus: .summary("0; 2 usage."))

  static let retry = CommandSpec(
    .retry, summary: "Run a request that did not complete again.", usage: "retry [--again] [--json] ID",
    description: """
      Share the items of request ID (or a unique prefix of it) with its service again, as a
      new request that names ID as the one it retries. A request that completed, itself or
      by an earlier retry of it, is not repeated unless --again is given; one still running
      is not repeated at all. An interrupted request (the xdg-share or D-Bus service that ran
      it was killed) can be retried.
      """,
    options: [
      OptionSpec(
        .again, "--again", help: "Share again even though the request completed.",
        brief: "Share again even though it completed"),
      OptionSpec(
        .json, "--json", help: "Print the outcome as JSON, as share --json does.",
        brief: "Print the outcome as JSON"),
    ], operands: [OperandSpec("ID", completes: .requestIDs)],
    exitStatus: .summary("as for share; 1 no such request, it completed (see --again) or it is running."))

  static let group = CommandSpec(
    .group, summary: "Print an App Group's shared folder.", usage: "group path GROUP",
    description: """
      Print the shared folder of the App Group GROUP (group.<reverse-DNS>), creating it. A
      containing application and its share extension both keep data there; defaults.json in
      it is their shared key-value store (a JSON object).
      """,
    operands: [
      OperandSpec("ACTION", completes: .words(["path"])), OperandSpec("GROUP", completes: .nothing),
    ],
    exitStatus: .summary("0; 1 the folder cannot be made; 2 usage or a malformed group name."))

  static let daemon = CommandSpec(
    .daemon, summary: "Serve org.xdgshare.Share on the session bus (started by D-Bus activation).",
    usage: "daemon [--idle-timeout SECONDS]",
    description: """
      Own org.xdgshare.Share on the session bus and serve /org/xdgshare/Share (interface
      org.xdgshare.Share1, documented in org.xdgshare.Share1.xml): list and query services,
      and share as request objects. Bundles are watched and reloaded as they change. D-Bus
      starts the service on demand; it exits after SECONDS without calls or requests in
      flight (default \(Int(Usage.defaultIdleTimeout)); XDG_SHARE_IDLE_TIMEOUT; 0 never).
      """,
    options: [
      OptionSpec(
        .idleTimeout, "--idle-timeout", "SECONDS",
        help: "Exit after SECONDS without calls or requests in flight (0: never).",
        brief: "Seconds without work before the service exits")
    ], exitStatus: .summary("0 after idling out; 1 no session bus, or the name is taken; 2 usage."))

  static let register = CommandSpec(
    .register, summary: "Add Share to the right-click menu of every file manager.",
    usage: "register [--system]",
    description: """
      Write a Share entry for the installed services into each file manager's own place
      (Dolphin, Nautilus, Thunar, Nemo, Caja, PCManFM, PCManFM-Qt), a KDE Purpose plugin per
      service for the Share menus of KDE applications (kpackage/Purpose) and the D-Bus
      activation file, for this user (under $XDG_DATA_HOME) or, with --system, for every user
      (under the first $XDG_DATA_DIRS folder). Prints what it wrote per file manager and
      anything left to do. install, uninstall and the D-Bus service keep the entries up to
      date.
      """,
    options: [
      OptionSpec(
        .system, "--system", help: "Write for every user, under the first $XDG_DATA_DIRS folder.",
        brief: "Write for every user")
    ], exitStatus: .summary("0; 1 a file cannot be written; 2 usage."))

  static let unregister = CommandSpec(
    .unregister, summary: "Remove what register wrote.", usage: "unregister [--system]",
    description: "Remove exactly the files register wrote, and nothing else.",
    options: [
      OptionSpec(
        .system, "--system", help: "Remove what register --system wrote for every user.",
        brief: "Remove what was written for every user")
    ], exitStatus: .summary("0; 1 a file cannot be removed; 2 usage."))

  static let completion = CommandSpec(
    .completion, summary: "Print the completion script for a shell.", usage: "completion SHELL",
    description: """
      Print the completion script of xdg-share for SHELL (bash, zsh or fish), made from the
      same tables as the command line and this help. install.sh installs them. To try one:
        source <(xdg-share completion bash)
      """, operands: [OperandSpec("SHELL", completes: .words(Shell.allCases.map(\.rawValue)))],
    exitStatus: .summary("0; 2 usage or an unknown shell."), hidden: true)

  static let manual = CommandSpec(
    .man, summary: "Print the manual page xdg-share(1).", usage: "man",
    description: """
      Print the manual page xdg-share(1) in roff, made from the same tables as the command line
      and this help. Read it with `xdg-share man | man -l -`.
      """, exitStatus: .summary("0; 2 usage."), hidden: true)

  static let new = CommandSpec(
    .new, summary: "Write a share-extension bundle to start from, or port an Xcode one.",
    usage: """
      new (--swift | --shell | --python | --from-xcode INFO_PLIST) [--identifier ID] \
      [--define VAR=VALUE]... [--entitlements FILE] [--sharekit-url URL] NAME
      """,
    description: """
      Write NAME.shareext in the current folder: a bundle that validates and installs as it
      is. With --swift, --shell or --python its program is an example in that language that
      speaks the plugin protocol; it accepts files, links and text, and completes with a
      summary of what it was given. Its identifier is local.NAME, lowercased, unless
      --identifier gives one. Nothing is written over an existing file.
      """,
    options: [
      OptionSpec(
        .swift, "--swift",
        help: """
          A program in Swift with ShareKit: the Swift package NAME
          beside the bundle, depending on ShareKit by version; new
          prints the command that builds it into the bundle.
          """, brief: "A program in Swift, with ShareKit"),
      OptionSpec(
        .shell, "--shell",
        help: """
          A program in POSIX sh and awk (no jq): it decodes each
          file's URL to the bytes of its path.
          """, brief: "A program in POSIX sh"),
      OptionSpec(
        .python, "--python", help: "A program in Python 3, with the standard library alone.",
        brief: "A program in Python 3"),
      OptionSpec(
        .fromXcode, "--from-xcode", "INFO_PLIST", completes: .files,
        help: """
          Port an Xcode project's share extension from its source
          Info.plist (XML or binary): build variables such as
          $(PRODUCT_BUNDLE_IDENTIFIER) are substituted as Xcode
          does, the keys Xcode adds are added, every other key is
          kept, and the program is a stub that cancels every
          request until you replace it.
          """, brief: "Port a share extension from an Xcode project's Info.plist"),
      OptionSpec(
        .identifier, "--identifier", "ID",
        help: """
          The bundle identifier (PRODUCT_BUNDLE_IDENTIFIER); by
          default local.NAME.
          """, brief: "The bundle identifier"),
      OptionSpec(
        .define, "--define", "VAR=VALUE", repeatable: true,
        help: """
          Give the build variable VAR the value VALUE, for
          --from-xcode (repeatable).
          """, brief: "Give a build variable a value"),
      OptionSpec(
        .entitlements, "--entitlements", "FILE", completes: .files,
        help: """
          The target's .entitlements file, for --from-xcode; by
          default the one beside INFO_PLIST, if there is one.
          """, brief: "The Xcode target's .entitlements file"),
      OptionSpec(
        .shareKitURL, "--sharekit-url", "URL",
        help: """
          ShareKit's git repository, for --swift; by default the
          repository this xdg-share was built from (file://).
          """, brief: "ShareKit's git repository"),
    ],
    operands: [OperandSpec("NAME", completes: .nothing)], listsOptions: true,
    notes: """
      --from-xcode knows PRODUCT_NAME and TARGET_NAME (NAME), EXECUTABLE_NAME
      (PRODUCT_NAME), PRODUCT_MODULE_NAME (PRODUCT_NAME as a C identifier),
      PRODUCT_BUNDLE_IDENTIFIER (--identifier), DEVELOPMENT_LANGUAGE (en),
      MARKETING_VERSION (1.0) and CURRENT_PROJECT_VERSION (1); --define gives others or
      changes these. Modifiers: $(VAR:rfc1034identifier), :c99extidentifier, :identifier,
      :lower, :upper, :default=VALUE. A variable left undefined in a key xdg-share reads
      (identifier, names, program, version, icon, NSExtension, XDGShare...) is an error,
      and nothing is written; in any other key, a warning, and it is left as written. The
      entitlements that carry over (the network, App Groups, folders...) are written into
      Entitlements.plist; each key that has no meaning here is named and left out.
      """,
    exitStatus: .summary("0 written; 1 nothing written: something is in the way or invalid; 2 usage."))
}
