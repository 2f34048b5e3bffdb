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
    case .list:
      let given = try OptionValues.read(&cursor)
      return .list(ListOptions(json: given.json, selection: given.selection))
    case .validate:
      let given = try OptionValues.read(&cursor)
      guard !given.operands.isEmpty else { throw .missingArgument(.operand("PATH"), command: .validate) }
      return .validate(paths: given.operands.map(FilePath.init(bytes:)))
    case .share: return .share(try parseShare(&cursor))
    case .install:
      return try parseInstall(&cursor)
    case .uninstall:
      return .uninstall(id: String(decoding: try single(&cursor, "ID"), as: UTF8.self))
    case .history:
      return .history(json: try OptionValues.read(&cursor, operands: 0).json)
    case .retry:
      let given = try OptionValues.read(&cursor, operands: 1)
      // An empty ID would match every request.
      let id = try given.singleText("ID", of: .retry)
      guard !id.isEmpty else { throw .missingArgument(.operand("ID"), command: .retry) }
      return .retry(id: id, json: given.json, again: given.again)
    case .group:
      guard let action = try cursor.next() else { throw .missingArgument(.groupAction, command: .group) }
      guard case .positional(let bytes) = action, bytes == Array("path".utf8) else {
        throw .unexpectedArgument(Self.describe(action), command: .group)
      }
      return .groupPath(group: String(decoding: try single(&cursor, "GROUP"), as: UTF8.self))
    case .daemon:
      return .daemon(idleTimeout: try OptionValues.read(&cursor, operands: 0).idleTimeout)
    case .register:
      return .register(system: try OptionValues.read(&cursor, operands: 0).system)
    case .unregister:
      return .unregister(system: try OptionValues.read(&cursor, operands: 0).system)
    case .completion:
      let word = String(decoding: try single(&cursor, "SHELL"), as: UTF8.self)
      guard let shell = Shell(rawValue: word) else {
        throw .invalidArgument(
          "SHELL", value: word, expected: .oneOf(Shell.allCases.map(\.rawValue)), command: .completion)
      }
      return .completion(shell)
    case .man:
      // man takes nothing: an option is as unexpected as an operand.
      if let extra = try cursor.next() { throw .unexpectedArgument(describe(extra), command: .man) }
      return .manual
    case .new:
      return .new(try parseNew(&cursor))
    case .configure:
      let given = try OptionValues.read(&cursor, operands: 1)
      let id = try given.singleText("ID", of: .configure)
      guard !id.isEmpty else { throw .missingArgument(.operand("ID"), command: .configure) }
      return .configure(id: id, settings: given.settings)
    case .why:
      return .why(try parseWhy(&cursor))
    case .doctor:
      return .doctor(json: try OptionValues.read(&cursor, operands: 0).json)
    }
  }

  /// `why`: the first operand names the service (or, with a slash in it, a bundle); the others
  /// are files, shared in order among the texts and links.
  private static func parseWhy(_ cursor: inout ArgumentCursor) throws(UsageError) -> WhyOptions {
    var given = try OptionValues.read(&cursor)
    guard let first = given.operands.first, !first.isEmpty else {
      throw .missingArgument(.operand("ID"), command: .why)
    }
    // The first operand was read as the first file; it is the subject.
    if let index = given.selection.items.firstIndex(where: { if case .file = $0 { true } else { false } }) {
      given.selection.items.remove(at: index)
    }
    guard !given.selection.isEmpty else { throw .missingArgument(.somethingToShare, command: .why) }
    let subject: WhyOptions.Subject =
      first.contains(UInt8(ascii: "/")) || first.reversed().starts(with: ".shareext".utf8.reversed())
      ? .bundle(FilePath(bytes: first)) : .service(String(decoding: first, as: UTF8.self))
    return WhyOptions(subject: subject, json: given.json, selection: given.selection)
  }

  /// `install [--allow-unconfined] BUNDLE`: any other option is as unexpected as a second
  /// bundle, as it was before the command took an option.
  private static func parseInstall(_ cursor: inout ArgumentCursor) throws(UsageError) -> Command {
    var bundle: [UInt8]?
    var allowUnconfined = false
    while let argument = try cursor.next() {
      switch argument {
      case .option(let name, let inline)
      where CommandTable.install.option(named: name)?.key == .allowUnconfined:
        try cursor.refuseValue(inline, of: name)
        allowUnconfined = true
      case .positional(let bytes) where bundle == nil:
        bundle = bytes
      default:
        throw .unexpectedArgument(describe(argument), command: .install)
      }
    }
    guard let bundle else { throw .missingArgument(.operand("BUNDLE"), command: .install) }
    return .install(path: FilePath(bytes: bundle), allowUnconfined: allowUnconfined)
  }

  private static func parseShare(_ cursor: inout ArgumentCursor) throws(UsageError) -> ShareOptions {
    let given = try OptionValues.read(&cursor)
    var options = ShareOptions(
      service: given.service, target: given.target, picker: given.picker, json: given.json)
    options.selection = given.selection
    // The share sheet asks for files itself when given none (the launcher's "Share").
    guard !options.selection.isEmpty || options.picker else {
      throw .missingArgument(.somethingToShare, command: .share)
    }
    return options
  }

  /// Exactly one operand, for the commands whose row lists no option: an option there is an
  /// unexpected argument like any other.
  private static func single(_ cursor: inout ArgumentCursor, _ placeholder: String) throws(UsageError)
    -> [UInt8]
  {
    var value: [UInt8]?
    while let argument = try cursor.next() {
      guard case .positional(let bytes) = argument, value == nil else {
        throw .unexpectedArgument(describe(argument), command: cursor.command)
      }
      value = bytes
    }
    guard let value else { throw .missingArgument(.operand(placeholder), command: cursor.command) }
    return value
  }

  static func describe(_ argument: ArgumentCursor.Argument) -> String {
    switch argument {
    case .option(let name, _): name
    case .positional(let bytes): String(decoding: bytes, as: UTF8.self)
    }
  }
}

/// Every option a command was given, read through one exhaustive switch over the option keys
/// of ``CommandTable``: a key added to the table does not build until it is read here, and an
/// option a command's row does not list never gets this far (``ArgumentCursor/nextInTable()``).
/// Each command then takes what its row offers.
struct OptionValues {
  var json = false
  var picker = false
  var system = false
  var again = false
  var service: String?
  var target: String?
  var idleTimeout: Double?
  /// `--text`, `--url` and the files, in the order given.
  var selection = SelectionArguments()
  /// The operands before and after `--`, as bytes.
  var operands: [[UInt8]] = []
  var settings: [ConfigurationSetting] = []
  /// `new`'s template and the option that chose it.
  var template: (template: NewOptions.Template, option: String)?
  var identifier: String?
  var definitions: [NewOptions.Definition] = []
  var shareKitURL: String?
  /// `new --entitlements FILE`.
  var entitlements: FilePath?

  /// Reads every argument left; with `operands`, no more operands than that.
  static func read(_ cursor: inout ArgumentCursor, operands limit: Int? = nil) throws(UsageError)
    -> OptionValues
  {
    var values = OptionValues()
    while let argument = try cursor.nextInTable() {
      switch argument {
      case .option(let option, let value):
        try values.take(option, value)
      case .positional(let bytes):
        if let limit, values.operands.count >= limit {
          throw .unexpectedArgument(String(decoding: bytes, as: UTF8.self), command: cursor.command)
        }
        values.operands.append(bytes)
        // Files are shared and listed in the order given among texts and links.
        values.selection.items.append(.file(FilePath(bytes: bytes)))
      }
    }
    return values
  }

  /// Exactly one operand, named `placeholder` in usage errors.
  func single(_ placeholder: String, of command: CommandName) throws(UsageError) -> [UInt8] {
    guard let first = operands.first else { throw .missingArgument(.operand(placeholder), command: command) }
    if operands.count > 1 {
      throw .unexpectedArgument(String(decoding: operands[1], as: UTF8.self), command: command)
    }
    return first
  }

  func singleText(_ placeholder: String, of command: CommandName) throws(UsageError) -> String {
    String(decoding: try single(placeholder, of: command), as: UTF8.self)
  }

  private mutating func take(_ option: OptionSpec, _ value: [UInt8]?) throws(UsageError) {
    // The table says which options take a value, and the cursor read one for each of them.
    func text() throws(UsageError) -> String {
      guard let value else { throw .missingValue(option: option.name) }
      return String(decoding: value, as: UTF8.self)
    }
    switch option.key {
    case .json: json = true
    case .picker: picker = true
    case .system: system = true
    case .again: again = true
    case .service: service = try text()
    case .target:
      let text = try text()
      guard !text.isEmpty else { throw .invalidValue(option: option.name, value: text, expected: .targetID) }
      target = text
    case .text:
      // An empty text is nothing to share: not an empty `Text.txt`.
      let text = try text()
      guard !text.isEmpty else { throw .invalidValue(option: option.name, value: text, expected: .someText) }
      selection.items.append(.text(text))
    case .url:
      let string = try text()
      if let path = FilePath(fileURL: string) {
        selection.items.append(.file(path))
      } else {
        guard ShareItem.isAbsoluteURL(string) else {
          throw .invalidValue(option: option.name, value: string, expected: .absoluteURL)
        }
        selection.items.append(.webURL(string))
      }
    case .idleTimeout:
      let text = try text()
      guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
        throw .invalidValue(option: option.name, value: text, expected: .secondsOrNever)
      }
      idleTimeout = seconds
    case .set:
      let text = try text()
      guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
        throw .invalidValue(option: option.name, value: text, expected: .setting)
      }
      settings.append(
        ConfigurationSetting(
          identifier: String(text[..<equals]), value: String(text[text.index(after: equals)...])))
    case .swift: try choose(.swift, by: option)
    case .shell: try choose(.shell, by: option)
    case .python: try choose(.python, by: option)
    case .fromXcode:
      guard let value else { throw .missingValue(option: option.name) }
      try choose(.fromXcode(FilePath(bytes: value)), by: option)
    case .identifier:
      let text = try text()
      guard InfoPlistForm.isBundleIdentifier(text) else {
        throw .invalidValue(option: option.name, value: text, expected: .bundleIdentifier)
      }
      identifier = text
    case .define:
      let text = try text()
      guard let equals = text.firstIndex(of: "="), NewNames.isVariableName(text[..<equals]) else {
        throw .invalidValue(option: option.name, value: text, expected: .definition)
      }
      definitions.append(
        NewOptions.Definition(
          variable: String(text[..<equals]), value: String(text[text.index(after: equals)...])))
    case .allowUnconfined:
      // Read by `parseInstall`, the one command that takes it.
      break
    case .entitlements:
      guard let value else { throw .missingValue(option: option.name) }
      entitlements = FilePath(bytes: value)
    case .shareKitURL:
      let text = try text()
      guard !text.isEmpty else {
        throw .invalidValue(option: option.name, value: text, expected: .repository)
      }
      shareKitURL = text
    }
  }

  private mutating func choose(_ chosen: NewOptions.Template, by option: OptionSpec) throws(UsageError) {
    if let template { throw .conflictingOptions(template.option, option.name, command: .new) }
    template = (chosen, option.name)
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
