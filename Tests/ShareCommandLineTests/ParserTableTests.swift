import ShareCore
import Testing

@testable import ShareCommandLine

/// The parser against ``CommandTable``, in process: every option of every row is given to its
/// command and must change what the command line means, so that an option added to the table
/// and not parsed fails here rather than in a user's hands.
@Suite struct ParserTableTests {
  /// A value each option accepts: a switch over every key, so a new key does not build until it
  /// has one.
  static func sampleValue(for key: OptionSpec.Key) -> String? {
    switch key {
    case .json, .picker, .system, .again, .swift, .shell, .python, .allowUnconfined: nil
    case .text: "hello"
    case .url: "https://example.org/page"
    case .service: "org.example.service"
    case .target: "pixel-7"
    case .idleTimeout: "12.5"
    case .fromXcode: "Info.plist"
    case .identifier: "org.example.bundle"
    case .define: "APP_GROUP=group.org.example"
    case .shareKitURL: "https://example.org/sharekit.git"
    case .entitlements: "Demo.entitlements"
    case .set: "title=Hello"
    }
  }

  /// Operands that make each command's line complete, by placeholder.
  static let sampleOperands: [String: [String]] = [
    "FILE": ["photo.png"], "PATH": ["a.shareext"], "BUNDLE": ["a.shareext"], "ID": ["org.example.service"],
    "ACTION": ["path"], "GROUP": ["group.org.example"], "SHELL": ["bash"], "NAME": ["Demo"],
  ]

  /// What a command needs besides the option under test: its operands, and for `new` a template
  /// unless the option is one.
  static func baseArguments(for spec: CommandSpec, besides key: OptionSpec.Key?) -> [String]? {
    var arguments: [String] = []
    if spec.name == .new, ![.swift, .shell, .python, .fromXcode].contains(key) {
      arguments.append([.define, .entitlements].contains(key) ? "--from-xcode=Info.plist" : "--swift")
    }
    for operand in spec.operands {
      guard let sample = sampleOperands[operand.placeholder] else { return nil }
      arguments += sample
    }
    return arguments
  }

  static func parse(_ words: [String]) throws(UsageError) -> Command {
    try Parser.parse(words.map { Array($0.utf8) })
  }

  static let rows: [(CommandName, OptionSpec)] = CommandTable.commands.flatMap { spec in
    spec.options.map { (spec.name, $0) }
  }

  @Test(arguments: CommandTable.commands.map(\.name))
  func everyOperandPlaceholderHasASample(_ name: CommandName) {
    let spec = CommandTable.spec(for: name)
    #expect(Self.baseArguments(for: spec, besides: nil) != nil, "a placeholder of \(name) has no sample")
  }

  @Test(arguments: rows.map { "\($0.0.rawValue) \($0.1.name)" })
  func everyOptionOfEveryRowIsParsed(_ row: String) throws {
    let (name, option) = try #require(Self.rows.first { "\($0.0.rawValue) \($0.1.name)" == row })
    let spec = CommandTable.spec(for: name)
    let base = try #require(Self.baseArguments(for: spec, besides: option.key))
    var given = [option.name]
    if let value = Self.sampleValue(for: option.key) {
      #expect(option.takesValue, "\(option.name) has a sample value but takes none")
      given.append(value)
    } else {
      #expect(!option.takesValue, "\(option.name) takes a value but has no sample")
    }
    let with = try Self.parse([name.rawValue] + given + base)
    // `--name=value` means the same as `--name value`.
    if given.count == 2 {
      #expect(try Self.parse([name.rawValue, "\(given[0])=\(given[1])"] + base) == with)
    }
    // Without the option the line means something else, or is incomplete (`share --picker`
    // alone, `new` without a template): either way the option was read.
    let without: Command?
    do { without = try Self.parse([name.rawValue] + base) } catch { without = nil }
    #expect(with != without, "\(name.rawValue) \(option.name) was accepted and ignored")
  }

  @Test(arguments: rows.filter { $0.1.takesValue }.map { "\($0.0.rawValue) \($0.1.name)" })
  func anOptionThatTakesAValueWithoutOneIsAnError(_ row: String) throws {
    let (name, option) = try #require(Self.rows.first { "\($0.0.rawValue) \($0.1.name)" == row })
    #expect(throws: UsageError.missingValue(option: option.name)) {
      try Self.parse([name.rawValue, option.name])
    }
    #expect(throws: UsageError.missingValue(option: option.name)) {
      try Self.parse([name.rawValue, option.name, "--", "x"])
    }
  }

  @Test(arguments: rows.filter { !$0.1.takesValue }.map { "\($0.0.rawValue) \($0.1.name)" })
  func aFlagGivenAValueIsAnError(_ row: String) throws {
    let (name, option) = try #require(Self.rows.first { "\($0.0.rawValue) \($0.1.name)" == row })
    #expect(throws: UsageError.flagTakesNoValue(option: option.name)) {
      try Self.parse([name.rawValue, "\(option.name)=yes"])
    }
  }

  /// An option of no row, given to each command: refused with the nearest of its own options.
  @Test(arguments: CommandTable.commands.map(\.name))
  func anOptionOutsideTheRowIsRefused(_ name: CommandName) throws {
    let spec = CommandTable.spec(for: name)
    let base = try #require(Self.baseArguments(for: spec, besides: nil))
    do {
      _ = try Self.parse([name.rawValue, "--no-such-option"] + base)
      Issue.record("\(name.rawValue) accepted --no-such-option")
    } catch {
      switch error {
      case .unknownOption("--no-such-option", name, _), .unexpectedArgument("--no-such-option", name): break
      default: Issue.record("\(name.rawValue): \(error)")
      }
    }
  }

  @Test func optionNamesAreUniqueInEachRow() {
    for spec in CommandTable.commands {
      #expect(Set(spec.optionNames).count == spec.optionNames.count, "\(spec.name.rawValue)")
    }
  }
}
