import ShareCore

/// Turns argv into a ``Command``. Hand-written: no argument-parsing package can be fetched here,
/// and the rules are few: options before `--`, `--name=value` or `--name value`, and every
/// argument after `--` is a path taken as raw bytes.
public enum Parser {
  /// Parses the arguments after the program name.
  public static func parse(_ arguments: [[UInt8]]) throws(UsageError) -> Command {
    guard let first = arguments.first else { return .help(nil) }
    let word = String(decoding: first, as: UTF8.self)
    let rest = Array(arguments.dropFirst())
    switch word {
    case "--help", "-h", "help":
      if let topic = rest.first.map({ String(decoding: $0, as: UTF8.self) }) {
        guard let name = CommandName(rawValue: topic) else {
          throw .unknownCommand(
            topic, suggestion: Suggestion.nearest(to: topic, in: CommandName.allCases.map(\.rawValue)))
        }
        return .help(name)
      }
      return .help(nil)
    case "--version", "-V":
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
          suggestion: Suggestion.nearest(to: word, in: ["--help", "--version"] + ShareOption.names))
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
      return .history(json: try onlyJSONFlag(&cursor, positional: nil).json)
    case .retry:
      let (json, id) = try onlyJSONFlag(&cursor, positional: "ID")
      // An empty ID would match every request.
      guard let id, !id.isEmpty else { throw .missingArgument("ID", command: .retry) }
      return .retry(id: id, json: json)
    case .group:
      guard let action = try cursor.next() else { throw .missingArgument("ACTION (path)", command: .group) }
      guard case .positional(let bytes) = action, bytes == Array("path".utf8) else {
        throw .unexpectedArgument(Self.describe(action), command: .group)
      }
      return .groupPath(group: String(decoding: try single(&cursor, "GROUP"), as: UTF8.self))
    case .daemon:
      var idleTimeout: Double?
      while let argument = try cursor.next() {
        guard case .option("--idle-timeout", let inline) = argument else {
          if case .option(let option, _) = argument {
            throw .unknownOption(
              option, command: .daemon, suggestion: Suggestion.nearest(to: option, in: ["--idle-timeout"]))
          }
          throw .unexpectedArgument(describe(argument), command: .daemon)
        }
        let text = String(decoding: try cursor.value(for: "--idle-timeout", inline: inline), as: UTF8.self)
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
          throw .invalidValue(
            option: "--idle-timeout", value: text, expected: "a number of seconds (0: never)")
        }
        idleTimeout = seconds
      }
      return .daemon(idleTimeout: idleTimeout)
    case .register, .unregister:
      var system = false
      while let argument = try cursor.next() {
        guard case .option("--system", let inline) = argument else {
          if case .option(let option, _) = argument {
            throw .unknownOption(
              option, command: name, suggestion: Suggestion.nearest(to: option, in: ["--system"]))
          }
          throw .unexpectedArgument(describe(argument), command: name)
        }
        try cursor.refuseValue(inline, of: "--system")
        system = true
      }
      return name == .register ? .register(system: system) : .unregister(system: system)
    }
  }

  private static func parseShare(_ cursor: inout ArgumentCursor) throws(UsageError) -> ShareOptions {
    var options = ShareOptions()
    while let argument = try cursor.next() {
      switch argument {
      case .option("--json", let value):
        try cursor.refuseValue(value, of: "--json")
        options.json = true
      case .option("--service", let value):
        options.service = String(decoding: try cursor.value(for: "--service", inline: value), as: UTF8.self)
      case .option(let option, let value) where SelectionOption(rawValue: option) != nil:
        options.selection.items.append(
          try SelectionOption(rawValue: option)!.item(try cursor.value(for: option, inline: value)))
      case .option(let option, _):
        throw .unknownOption(
          option, command: .share, suggestion: Suggestion.nearest(to: option, in: ShareOption.names))
      case .positional(let bytes):
        options.selection.items.append(.file(FilePath(bytes: bytes)))
      }
    }
    guard !options.selection.isEmpty else {
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

  /// `--json` and, when `positional` names one, exactly one positional argument.
  private static func onlyJSONFlag(
    _ cursor: inout ArgumentCursor, positional: String?
  ) throws(UsageError) -> (json: Bool, value: String?) {
    var json = false
    var value: String?
    while let argument = try cursor.next() {
      switch argument {
      case .option("--json", let inline):
        try cursor.refuseValue(inline, of: "--json")
        json = true
      case .option(let option, _):
        throw .unknownOption(
          option, command: cursor.command, suggestion: Suggestion.nearest(to: option, in: ["--json"]))
      case .positional(let bytes) where positional != nil && value == nil:
        value = String(decoding: bytes, as: UTF8.self)
      case .positional(let bytes):
        throw .unexpectedArgument(String(decoding: bytes, as: UTF8.self), command: cursor.command)
      }
    }
    if let positional, value == nil { throw .missingArgument(positional, command: cursor.command) }
    return (json, value)
  }

  private static func describe(_ argument: ArgumentCursor.Argument) -> String {
    switch argument {
    case .option(let name, _): name
    case .positional(let bytes): String(decoding: bytes, as: UTF8.self)
    }
  }

  private static func parseList(_ cursor: inout ArgumentCursor) throws(UsageError) -> ListOptions {
    var options = ListOptions()
    while let argument = try cursor.next() {
      switch argument {
      case .option("--json", let value):
        try cursor.refuseValue(value, of: "--json")
        options.json = true
      case .option(let option, let value) where SelectionOption(rawValue: option) != nil:
        options.selection.items.append(
          try SelectionOption(rawValue: option)!.item(try cursor.value(for: option, inline: value)))
      case .option(let option, _):
        throw .unknownOption(
          option, command: .list,
          suggestion: Suggestion.nearest(to: option, in: ["--json"] + SelectionOption.names))
      case .positional(let bytes):
        options.selection.items.append(.file(FilePath(bytes: bytes)))
      }
    }
    return options
  }

  private static func parseValidate(_ cursor: inout ArgumentCursor) throws(UsageError) -> Command {
    var paths: [FilePath] = []
    while let argument = try cursor.next() {
      switch argument {
      case .option(let option, _):
        throw .unknownOption(option, command: .validate, suggestion: nil)
      case .positional(let bytes):
        paths.append(FilePath(bytes: bytes))
      }
    }
    guard !paths.isEmpty else { throw .missingArgument("PATH", command: .validate) }
    return .validate(paths: paths)
  }
}

/// The options of `share`, also accepted first in the short form.
enum ShareOption {
  static let names = ["--service", "--json"] + SelectionOption.names

  static func startsShortForm(_ word: String) -> Bool {
    names.contains { word == $0 || word.hasPrefix($0 + "=") }
  }
}

/// The options that add to a selection, shared by every command that takes one.
enum SelectionOption: String {
  case text = "--text"
  case url = "--url"

  static let names = ["--text", "--url"]

  func item(_ value: [UInt8]) throws(UsageError) -> ShareItem {
    let string = String(decoding: value, as: UTF8.self)
    switch self {
    case .text:
      return .text(string)
    case .url:
      if let path = FilePath(fileURL: string) { return .file(path) }
      guard ShareItem.isAbsoluteURL(string) else {
        throw .invalidValue(
          option: rawValue, value: string, expected: "an absolute URL such as https://example.org/")
      }
      return .webURL(string)
    }
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
    var skipValue = false
    for argument in arguments {
      // `--text -h` shares the text "-h".
      if skipValue {
        skipValue = false
        continue
      }
      if argument == Array("--".utf8) { return false }
      if argument == Array("--help".utf8) || argument == Array("-h".utf8) { return true }
      skipValue = Self.optionsWithValues.contains(String(decoding: argument, as: UTF8.self))
    }
    return false
  }

  /// The options whose value is the next argument (unless given as `--name=value`).
  static let optionsWithValues: Set<String> = ["--text", "--url", "--service", "--idle-timeout"]

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
