import ShareDesktop

/// `_xdg-share`, the zsh completion function, made from ``CommandTable``.
enum ZshCompletion {
  static func render() -> String {
    let commands = CommandTable.commands
    var lines =
      CompletionScript.header(.zsh) + [
        "",
        "# The identifiers of the installed services.",
        "_xdg-share_services() {",
        "  local -a ids",
        "  ids=(${(f)\"$(\(CompletionScript.servicesPipeline))\"})",
        "  _wanted services expl 'share service' compadd -a ids",
        "}",
        "",
        "# The requests retry can run again: neither completed nor running.",
        "_xdg-share_requests() {",
        "  local -a ids",
        "  ids=(${(f)\"$(\(CompletionScript.requestsPipeline))\"})",
        "  _wanted requests expl 'share request' compadd -a ids",
        "}",
        "",
        "_xdg-share_commands() {",
        "  local -a commands",
        "  commands=(",
      ]
    lines += commands.map { "    " + shellQuoted("\($0.name.rawValue):\($0.summary)") }
    lines += [
      "  )",
      "  _describe -t commands command commands",
      "}",
    ]
    for spec in commands {
      lines += ["", "_xdg-share_\(spec.name.rawValue)() {", "  _arguments -S \\"]
      var arguments = [help] + spec.options.map(option)
      for (index, operand) in spec.operands.enumerated() {
        let position = operand.isRepeatable && index == spec.operands.count - 1 ? "*" : "\(index + 1)"
        arguments.append(shellQuoted("\(position):\(operand.placeholder):\(action(operand.completion))"))
      }
      lines += arguments.map { "    " + $0 }.joinedAsContinuation()
      lines += ["}"]
    }
    lines += [
      "",
      "_xdg-share_help() {",
      "  _arguments \(shellQuoted("1:COMMAND:_xdg-share_commands"))",
      "}",
      "",
      "_xdg-share() {",
      "  local curcontext=$curcontext context state state_descr line",
      "  local -A opt_args",
      "  _arguments -C -S \\",
    ]
    let version = CommandTable.versionFlag
    var first = [
      help,
      "'(- *)'{\(version.short),\(version.long)}" + shellQuoted("[\(describe(version.brief))]"),
    ]
    first += CommandTable.share.options.map(option)
    first += ["'(-)1: :->first'", "'(-)*:: :->rest' && return 0"]
    lines += first.map { "    " + $0 }.joinedAsContinuation()
    lines += [
      "  case $state in",
      "    (first)",
      "      # After an option or --, the short form of share: files only.",
      "      if (( $#opt_args || ${words[(I)--]} )); then",
      "        _files",
      "      else",
      "        _alternative 'commands:command:_xdg-share_commands' 'files:file:_files'",
      "      fi",
      "      ;;",
      "    (rest)",
      "      if (( $#opt_args )); then",
      "        _xdg-share_share",
      "        return",
      "      fi",
      "      curcontext=${curcontext%:*:*}:xdg-share-$words[1]:",
      "      case $words[1] in",
    ]
    lines += commands.map { "        (\($0.name.rawValue)) _xdg-share_\($0.name.rawValue) ;;" }
    lines += [
      "        (help) _xdg-share_help ;;",
      "        (*) _xdg-share_share ;;",
      "      esac",
      "      ;;",
      "  esac",
      "}",
      "",
      "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then",
      "  _xdg-share \"$@\"",
      "else",
      "  compdef _xdg-share xdg-share",
      "fi",
    ]
    return (["#compdef xdg-share"] + lines).joined(separator: "\n")
  }

  private static var help: String {
    let help = CommandTable.helpFlag
    return "'(- *)'{\(help.short),\(help.long)}" + shellQuoted("[\(describe(help.brief))]")
  }

  /// An `_arguments` option spec: `--name[brief]`, or `--name=[brief]:PLACEHOLDER:action`.
  private static func option(_ option: OptionSpec) -> String {
    let repeated = option.isRepeatable ? "*" : ""
    guard let placeholder = option.placeholder else {
      return shellQuoted("\(repeated)\(option.name)[\(describe(option.brief))]")
    }
    return shellQuoted(
      "\(repeated)\(option.name)=[\(describe(option.brief))]:\(placeholder):\(action(option.completion))")
  }

  private static func action(_ completion: ArgumentCompletion) -> String {
    switch completion {
    case .nothing: " "
    case .files: "_files"
    case .directories: "_files -/"
    case .serviceIDs: "_xdg-share_services"
    case .requestIDs: "_xdg-share_requests"
    case .words(let words): "(\(words.joined(separator: " ")))"
    }
  }

  /// A description inside `[...]` of an `_arguments` spec.
  private static func describe(_ text: String) -> String {
    CompletionScript.backslashed(text, ["\\", "[", "]", ":"])
  }
}

extension Array where Element == String {
  /// The lines of one shell command: each but the last ends with ` \`.
  fileprivate func joinedAsContinuation() -> [String] {
    enumerated().map { $0.offset == count - 1 ? $0.element : $0.element + " \\" }
  }
}
