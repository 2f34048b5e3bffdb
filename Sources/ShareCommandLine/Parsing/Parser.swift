import ShareCore

/// Turns argv into a ``Command``. Hand-written: no argument-parsing package can be fetched here,
/// and the rules are few: options before `--`, `--name=value` or `--name value`, and every
/// argument after `--` is a path taken as raw bytes. Which options a command takes, and whether
/// they take a value, is read from ``CommandTable``, which help and the completions are made from.
public enum Parser {
  /// Parses the arguments after the program name.
  public static func parse(_ arguments: [[UInt8]]) throws(UsageError) -> Command {
    guard let first = arguments.first else { return .help(nil) }
    let word = String(decoding: first, as: UTF8.self)
    let rest = Array(arguments.dropFirst())
    switch word {
    case CommandTable.helpFlag.long, CommandTable.helpFlag.short, "help":
      if let topic = rest.first.map({ String(decoding: $0, as: UTF8.self) }) {
        guard let name = CommandName(rawValue: topic) else {
          throw .unknownCommand(
            topic, suggestion: Suggestion.nearest(to: topic, in: CommandName.allCases.map(\.rawValue)))
        }
        return .help(name)
      }
      return .help(nil)
    case CommandTable.versionFlag.long, CommandTable.versionFlag.short:
      if let extra = rest.first {
        throw .unexpectedArgument(String(decoding: extra, as: UTF8.self), command: nil)
      }
      return .version
    default: break
    }
    guard let name = CommandName(rawValue: word) else {
      // The short form: `xdg-share photo.png`, `xdg-share --service ID -- %F`.
      if word.hasPrefix("-") && word != "-" && word != "--" && !ShareOption.startsShortForm(word) {
        throw .unknownOption(
          word, command: nil,
          suggestion: Suggestion.nearest(
            to: word, in: [CommandTable.helpFlag.long, CommandTable.versionFlag.long] + ShareOption.names))
      }
      var cursor = ArgumentCursor(arguments, command: .share)
      if try cursor.wantsHelp() { return .help(.share) }
      return .share(try parseShare(&cursor))
    }
    var cursor = ArgumentCursor(rest, command: name)
    if try cursor.wantsHelp() { return .help(name) }
    switch name {
    case .list: return .list(try parseList(&cursor))
    case .validate: return try parseValidate(&cursor)
    case .share: return .share(try parseShare(&cursor))
    case .install:
      return .install(path: FilePath(bytes: try single(&cursor, "BUNDLE")))
    case .uninstall:
      return .uninstall(id: String(decoding: try single(&cursor, "ID"), as: UTF8.self))
    case .history:
      return .history(json: try flagsAndOneOperand(&cursor, operand: nil).flags.contains(.json))
    case .retry:
      let (flags, id) = try flagsAndOneOperand(&cursor, operand: "ID")
      // An empty ID would match every request.
      guard let id, !id.isEmpty else { throw .missingArgument("ID", command: .retry) }
      return .retry(id: id, json: flags.contains(.json), again: flags.contains(.again))
    case .group:
      guard let action = try cursor.next() else { throw .missingArgument("ACTION (path)", command: .group) }
      guard case .positional(let bytes) = action, bytes == Array("path".utf8) else {
        throw .unexpectedArgument(Self.describe(action), command: .group)
      }
      return .groupPath(group: String(decoding: try single(&cursor, "GROUP"), as: UTF8.self))
    case .daemon:
      var idleTimeout: Double?
      while let argument = try cursor.nextInTable() {
        guard case .option(let option, let value?) = argument, option.key == .idleTimeout else {
          throw .unexpectedArgument(describe(argument), command: .daemon)
        }
        let text = String(decoding: value, as: UTF8.self)
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
          throw .invalidValue(
            option: option.name, value: text, expected: "a number of seconds (0: never)")
        }
        idleTimeout = seconds
      }
      return .daemon(idleTimeout: idleTimeout)
    case .register, .unregister:
      let system = try flagsAndOneOperand(&cursor, operand: nil).flags.contains(.system)
      return name == .register ? .register(system: system) : .unregister(system: system)
    case .completion:
      let word = String(decoding: try single(&cursor, "SHELL"), as: UTF8.self)
      guard let shell = Shell(rawValue: word) else {
        throw .invalidArgument(
          "SHELL", value: word, expected: Usage.alternatives(Shell.allCases.map(\.rawValue)),
          command: .completion)
      }
      return .completion(shell)
    case .man:
      if let extra = try cursor.next() { throw .unexpectedArgument(describe(extra), command: .man) }
      return .manual
    case .new:
      return .new(try parseNew(&cursor))
    case .configure:
      return try parseConfigure(&cursor)
    }
  }

  private static func parseConfigure(_ cursor: inout ArgumentCursor) throws(UsageError) -> Command {
    var settings: [ConfigurationSetting] = []
    var id: String?
    while let argument = try cursor.nextInTable() {
      switch argument {
      case .option(let option, let value?):
        let text = String(decoding: value, as: UTF8.self)
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
          throw .invalidValue(option: option.name, value: text, expected: "IDENT=VALUE")
        }
        settings.append(
          ConfigurationSetting(
            identifier: String(text[..<equals]), value: String(text[text.index(after: equals)...])))
      case .option: break  // The table gives configure no flag.
      case .positional(let bytes) where id == nil:
        id = String(decoding: bytes, as: UTF8.self)
      case .positional(let bytes):
        throw .unexpectedArgument(String(decoding: bytes, as: UTF8.self), command: .configure)
      }
    }
    guard let id, !id.isEmpty else { throw .missingArgument("ID", command: .configure) }
    return .configure(id: id, settings: settings)
  }

  private static func parseShare(_ cursor: inout ArgumentCursor) throws(UsageError) -> ShareOptions {
    var options = ShareOptions()
    while let argument = try cursor.nextInTable() {
      switch argument {
      case .option(let option, let value):
        switch (option.key, value) {
        case (.service, let value?): options.service = String(decoding: value, as: UTF8.self)
        case (.text, let value?), (.url, let value?):
          options.selection.items.append(try selectionItem(option, value))
        case (.json, _): options.json = true
        case (.picker, _): options.picker = true
        default: break  // The table gives share no other option.
        }
      case .positional(let bytes):
        options.selection.items.append(.file(FilePath(bytes: bytes)))
      }
    }
    // The share sheet asks for files itself when given none (the launcher's "Share").
    guard !options.selection.isEmpty || options.picker else {
      throw .missingArgument("something to share (FILE, --text or --url)", command: .share)
    }
    return options
  }

  /// Exactly one positional argument.
  private static func single(_ cursor: inout ArgumentCursor, _ name: String) throws(UsageError) -> [UInt8] {
    var value: [UInt8]?
    while let argument = try cursor.next() {
      guard case .positional(let bytes) = argument, value == nil else {
        throw .unexpectedArgument(describe(argument), command: cursor.command)
      }
      value = bytes
    }
    guard let value else { throw .missingArgument(name, command: cursor.command) }
    return value
  }

  /// The command's flags and, when `operand` names one, exactly one operand.
  private static func flagsAndOneOperand(
    _ cursor: inout ArgumentCursor, operand: String?
  ) throws(UsageError) -> (flags: Set<OptionSpec.Key>, value: String?) {
    var flags: Set<OptionSpec.Key> = []
    var value: String?
    while let argument = try cursor.nextInTable() {
      switch argument {
      case .option(let option, _):
        flags.insert(option.key)
      case .positional(let bytes) where operand != nil && value == nil:
        value = String(decoding: bytes, as: UTF8.self)
      case .positional(let bytes):
        throw .unexpectedArgument(String(decoding: bytes, as: UTF8.self), command: cursor.command)
      }
    }
    if let operand, value == nil { throw .missingArgument(operand, command: cursor.command) }
    return (flags, value)
  }

  private static func describe(_ argument: ArgumentCursor.Argument) -> String {
    switch argument {
    case .option(let name, _): name
    case .positional(let bytes): String(decoding: bytes, as: UTF8.self)
    }
  }

  private static func describe(_ argument: ArgumentCursor.TableArgument) -> String {
    switch argument {
    case .option(let option, _): option.name
    case .positional(let bytes): String(decoding: bytes, as: UTF8.self)
    }
  }

  private static func parseList(_ cursor: inout ArgumentCursor) throws(UsageError) -> ListOptions {
    var options = ListOptions()
    while let argument = try cursor.nextInTable() {
      switch argument {
      case .option(let option, let value?):
        options.selection.items.append(try selectionItem(option, value))
      case .option:
        options.json = true
      case .positional(let bytes):
        options.selection.items.append(.file(FilePath(bytes: bytes)))
      }
    }
    return options
  }

  private static func parseValidate(_ cursor: inout ArgumentCursor) throws(UsageError) -> Command {
    var paths: [FilePath] = []
    while let argument = try cursor.nextInTable() {
      // validate takes no options: nextInTable refuses them all.
      if case .positional(let bytes) = argument { paths.append(FilePath(bytes: bytes)) }
    }
    guard !paths.isEmpty else { throw .missingArgument("PATH", command: .validate) }
    return .validate(paths: paths)
  }

  /// The item `--text` or `--url` adds to a selection.
  private static func selectionItem(_ option: OptionSpec, _ value: [UInt8]) throws(UsageError) -> ShareItem {
    let string = String(decoding: value, as: UTF8.self)
    guard option.key == .url else { return .text(string) }
    if let path = FilePath(fileURL: string) { return .file(path) }
    guard ShareItem.isAbsoluteURL(string) else {
      throw .invalidValue(
        option: option.name, value: string, expected: "an absolute URL such as https://example.org/")
    }
    return .webURL(string)
  }
}

/// The options of `share`, also accepted first in the short form.
enum ShareOption {
  static var names: [String] { CommandTable.share.optionNames }

  static func startsShortForm(_ word: String) -> Bool {
    names.contains { word == $0 || word.hasPrefix($0 + "=") }
  }
}

/// Walks the arguments of one subcommand.
struct ArgumentCursor {
  enum Argument: Equatable {
    /// `--name` or `--name=value` (`value` then holds what follows `=`).
    case option(String, inlineValue: [UInt8]?)
    case positional([UInt8])
  }

  private var arguments: ArraySlice<[UInt8]>
  private var afterSeparator = false
  let command: CommandName

  init(_ arguments: [[UInt8]], command: CommandName) {
    self.arguments = arguments[...]
    self.command = command
  }

  /// Whether `--help` or `-h` appears before `--`.
  func wantsHelp() throws(UsageError) -> Bool {
    let spec = CommandTable.spec(for: command)
    var skipValue = false
    for argument in arguments {
      // `--text -h` shares the text "-h".
      if skipValue {
        skipValue = false
        continue
      }
      if argument == Array("--".utf8) { return false }
      if argument == Array(CommandTable.helpFlag.long.utf8)
        || argument == Array(CommandTable.helpFlag.short.utf8)
      {
        return true
      }
      skipValue = spec.option(named: String(decoding: argument, as: UTF8.self))?.takesValue ?? false
    }
    return false
  }

  /// An argument with its option looked up in the command's row of ``CommandTable``.
  enum TableArgument {
    /// The option, with its value when it takes one.
    case option(OptionSpec, value: [UInt8]?)
    case positional([UInt8])
  }

  /// The next argument; an option the command does not take is an error, and an option's value
  /// is read when the table says it takes one.
  mutating func nextInTable() throws(UsageError) -> TableArgument? {
    guard let argument = try next() else { return nil }
    switch argument {
    case .positional(let bytes):
      return .positional(bytes)
    case .option(let name, let inline):
      let spec = CommandTable.spec(for: command)
      guard let option = spec.option(named: name) else {
        throw .unknownOption(
          name, command: command, suggestion: Suggestion.nearest(to: name, in: spec.optionNames))
      }
      guard option.takesValue else {
        try refuseValue(inline, of: name)
        return .option(option, value: nil)
      }
      return .option(option, value: try value(for: name, inline: inline))
    }
  }

  mutating func next() throws(UsageError) -> Argument? {
    guard let argument = arguments.popFirst() else { return nil }
    if afterSeparator { return .positional(argument) }
    if argument == Array("--".utf8) {
      afterSeparator = true
      return try next()
    }
    guard argument.first == UInt8(ascii: "-"), argument.count > 1 else { return .positional(argument) }
    if let equals = argument.firstIndex(of: UInt8(ascii: "=")), argument.starts(with: "--".utf8) {
      return .option(
        String(decoding: argument[..<equals], as: UTF8.self), inlineValue: Array(argument[(equals + 1)...]))
    }
    return .option(String(decoding: argument, as: UTF8.self), inlineValue: nil)
  }

  /// The value of an option: after `=`, or the next argument.
  mutating func value(for option: String, inline: [UInt8]?) throws(UsageError) -> [UInt8] {
    if let inline { return inline }
    // `--text -- a.txt` lacks its text: `--` still ends the options.
    guard let value = arguments.first, value != Array("--".utf8) else { throw .missingValue(option: option) }
    arguments.removeFirst()
    return value
  }

  func refuseValue(_ inline: [UInt8]?, of option: String) throws(UsageError) {
    if inline != nil { throw .flagTakesNoValue(option: option) }
  }
}
