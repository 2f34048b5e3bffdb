/// What a shell offers when completing an argument.
enum ArgumentCompletion: Equatable, Sendable {
  /// Free text: nothing to offer.
  case nothing
  case files
  case directories
  /// The installed services' identifiers, from `xdg-share list` at completion time.
  case serviceIDs
  /// The IDs of the requests `retry` can run again, from `xdg-share history` at completion time.
  case requestIDs
  /// One of these words.
  case words([String])
}

/// One option of a command: what the parser accepts, and what help, the manual page and the
/// completions say about it.
struct OptionSpec: Sendable {
  /// What the option means to the parser; one name may mean different things to two commands
  /// (`--system`), but always takes or refuses a value alike.
  enum Key: Sendable {
    case json, text, url, service, target, picker, idleTimeout, system, again
    case swift, shell, python, fromXcode, identifier, define, shareKitURL, entitlements
    case allowUnconfined
    case set
  }

  let key: Key
  /// `--name`.
  let name: String
  /// The value's placeholder (`ID`, `TEXT`); `nil` for a flag.
  let placeholder: String?
  let isRepeatable: Bool
  /// As `--help` prints it, broken into lines where `--help` breaks it.
  let help: String
  /// One short line, for the menus of zsh and fish.
  let brief: String
  let completion: ArgumentCompletion

  init(
    _ key: Key, _ name: String, _ placeholder: String? = nil, repeatable: Bool = false,
    completes completion: ArgumentCompletion = .nothing, help: String, brief: String
  ) {
    self.key = key
    self.name = name
    self.placeholder = placeholder
    self.isRepeatable = repeatable
    self.help = help
    self.brief = brief
    self.completion = completion
  }

  var takesValue: Bool { placeholder != nil }
  /// `--name PLACEHOLDER`, as help's option list shows it.
  var synopsis: String { placeholder.map { "\(name) \($0)" } ?? name }
}

/// A positional argument of a command.
struct OperandSpec: Sendable {
  let placeholder: String
  /// Whether it may be given again and again (the last operand only).
  let isRepeatable: Bool
  let completion: ArgumentCompletion

  init(_ placeholder: String, repeatable: Bool = false, completes completion: ArgumentCompletion) {
    self.placeholder = placeholder
    self.isRepeatable = repeatable
    self.completion = completion
  }
}

/// How a help page ends: its own line, or the whole exit-status table.
enum ExitStatusText: Sendable {
  /// `Exit status: ` and this.
  case summary(String)
  /// The table of every exit code.
  case table
}

/// One command: the row of ``CommandTable`` the parser, `--help`, the manual page and the shell
/// completions are all made from, so none of them can say something the others do not.
struct CommandSpec: Sendable {
  let name: CommandName
  /// The line in the overview's list of commands.
  let summary: String
  /// The synopsis after `xdg-share `, as the overview and the command's help show it.
  let usage: String
  /// The paragraphs after the usage line, broken into lines where `--help` breaks them.
  let description: String
  /// In the order help lists them; also the order suggestions are looked for in.
  let options: [OptionSpec]
  let operands: [OperandSpec]
  /// Whether `--help` shows an `Options:` list; otherwise the description tells of the options.
  let listsOptions: Bool
  /// Whether the options list `--` (files follow).
  let listsSeparator: Bool
  /// A paragraph after the options.
  let notes: String?
  let exitStatus: ExitStatusText
  /// Left out of the overview (documented in its own help and the manual page).
  let isHidden: Bool

  init(
    _ name: CommandName, summary: String, usage: String, description: String, options: [OptionSpec] = [],
    operands: [OperandSpec] = [], listsOptions: Bool = false, listsSeparator: Bool = false,
    notes: String? = nil, exitStatus: ExitStatusText, hidden: Bool = false
  ) {
    self.name = name
    self.summary = summary
    self.usage = usage
    self.description = description
    self.options = options
    self.operands = operands
    self.listsOptions = listsOptions
    self.listsSeparator = listsSeparator
    self.notes = notes
    self.exitStatus = exitStatus
    self.isHidden = hidden
  }

  func option(named name: String) -> OptionSpec? {
    options.first { $0.name == name }
  }

  var optionNames: [String] { options.map(\.name) }

  /// What the operand at `index` (counted from 0) completes as.
  func operandCompletion(at index: Int) -> ArgumentCompletion {
    if index < operands.count { return operands[index].completion }
    guard let last = operands.last, last.isRepeatable else { return .nothing }
    return last.completion
  }
}
