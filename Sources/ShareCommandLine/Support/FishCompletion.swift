/// The fish completions of `xdg-share`, made from ``CommandTable``.
enum FishCompletion {
  static func render() -> String {
    let commands = CommandTable.commands
    let names = commands.map(\.name.rawValue).joined(separator: " ")
    let help = CommandTable.helpFlag
    let version = CommandTable.versionFlag
    let helpWords = "help \(help.long) \(help.short)"
    let valueOptions = Set(commands.flatMap { $0.options.filter(\.takesValue).map(\.name) }).sorted()
    var lines =
      CompletionScript.header(.fish) + [
        "",
        "# The command being completed: its name; share for the short form (a file or an option",
        "# first); help after help or --help; - before the first word.",
        "function __xdg_share_command",
        "    set -l tokens (commandline -opc)",
        "    if not set -q tokens[2]",
        "        echo -",
        "    else if contains -- $tokens[2] \(names)",
        "        echo $tokens[2]",
        "    else if contains -- $tokens[2] \(helpWords)",
        "        echo help",
        "    else if contains -- $tokens[2] \(version.long) \(version.short)",
        "        echo version",
        "    else",
        "        echo share",
        "    end",
        "end",
        "",
        "# Whether the command being completed is one of the arguments.",
        "function __xdg_share_using",
        "    contains -- (__xdg_share_command) $argv",
        "end",
        "",
        "# Whether an option of one of these commands may come here: not after --.",
        "function __xdg_share_option_of",
        "    __xdg_share_using $argv",
        "    and not contains -- -- (commandline -opc)",
        "end",
        "",
        "# How many operands come before the cursor; options and their values do not count.",
        "function __xdg_share_operands",
        "    set -l tokens (commandline -opc)",
        "    set -e tokens[1]",
        "    # A command's name is not an operand; a file first is (the short form).",
        "    if set -q tokens[1]; and contains -- $tokens[1] \(names) \(helpWords)",
        "        set -e tokens[1]",
        "    end",
        "    set -l count 0",
        "    set -l skip 0",
        "    set -l separator 0",
        "    for token in $tokens",
        "        if test $skip = 1; and test \"x$token\" != x--",
        "            set skip 0",
        "        else if test $separator = 1",
        "            set count (math $count + 1)",
        "        else if test \"x$token\" = x--",
        "            # `--option --` lacks its value: -- still ends the options.",
        "            set separator 1",
        "            set skip 0",
        "        else if string match -q -- '-?*' $token",
        "            if contains -- $token \(valueOptions.joined(separator: " "))",
        "                set skip 1",
        "            end",
        "        else",
        "            set count (math $count + 1)",
        "        end",
        "    end",
        "    echo $count",
        "end",
        "",
        "# The identifiers of the installed services.",
        "function __xdg_share_services",
        "    \(CompletionScript.servicesPipeline)",
        "end",
        "",
        "# The requests retry can run again: neither completed nor running.",
        "function __xdg_share_requests",
        "    \(CompletionScript.requestsPipeline)",
        "end",
        "",
        "complete -c xdg-share -f",
        "",
        "# The first word: a command, or the start of the short form of share (an option or a file).",
      ]
    for spec in commands {
      lines.append(
        "complete -c xdg-share -n '__xdg_share_using -' -a \(spec.name.rawValue) -d \(quote(spec.summary))")
    }
    lines += [
      "complete -c xdg-share -n '__xdg_share_using -' -F",
      "complete -c xdg-share -n '__xdg_share_option_of -' -s \(version.short.dropFirst()) -l \(version.long.dropFirst(2))"
        + " -d \(quote(version.brief))",
      "complete -c xdg-share -n '__xdg_share_option_of - \(names)' -s \(help.short.dropFirst())"
        + " -l \(help.long.dropFirst(2)) -d \(quote(help.brief))",
    ]
    for spec in commands {
      let name = spec.name.rawValue
      // share's options also start the short form.
      let using = spec.name == .share ? "- share" : name
      var entries: [String] = []
      for option in spec.options {
        var line = "complete -c xdg-share -n '__xdg_share_option_of \(using)' -l \(option.name.dropFirst(2))"
        if option.takesValue { line += " " + argument(option.completion, requiresValue: true) }
        entries.append(line + " -d \(quote(option.brief))")
      }
      for (index, operand) in spec.operands.enumerated() where operand.completion != .nothing {
        var condition = "__xdg_share_using \(name)"
        if !(operand.isRepeatable && index == spec.operands.count - 1) {
          condition += "; and test (__xdg_share_operands) -eq \(index)"
        }
        entries.append(
          "complete -c xdg-share -n '\(condition)' \(argument(operand.completion, requiresValue: false))")
      }
      if !entries.isEmpty { lines += ["", "# \(name)"] + entries }
    }
    lines += [
      "",
      "# help",
      "complete -c xdg-share -n '__xdg_share_using help; and test (__xdg_share_operands) -eq 0'"
        + " \(argument(CompletionScript.helpOperand, requiresValue: false))",
    ]
    return lines.joined(separator: "\n")
  }

  /// The flags of `complete` that offer what completes an option's value or an operand.
  private static func argument(_ completion: ArgumentCompletion, requiresValue: Bool) -> String {
    let value = requiresValue ? "-x" : "-f"
    return switch completion {
    case .nothing: requiresValue ? "-x" : "-f"
    case .files: requiresValue ? "-r -F" : "-F"
    case .directories: "\(value) -a '(__fish_complete_directories (commandline -ct))'"
    case .serviceIDs: "\(value) -a '(__xdg_share_services)'"
    case .requestIDs: "\(value) -a '(__xdg_share_requests)'"
    case .words(let words): "\(value) -a \(quote(words.joined(separator: " ")))"
    }
  }

  /// `text` in fish's single quotes.
  private static func quote(_ text: String) -> String {
    "'" + CompletionScript.backslashed(text, ["\\", "'"]) + "'"
  }
}
