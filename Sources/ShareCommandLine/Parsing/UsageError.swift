/// A command line that cannot be understood, as data; ``Usage`` words it. Exit code 2.
public enum UsageError: Error, Equatable, Sendable {
  case unknownCommand(String, suggestion: String?)
  case unknownOption(String, command: CommandName?, suggestion: String?)
  case missingValue(option: String)
  case unexpectedArgument(String, command: CommandName?)
  case missingArgument(String, command: CommandName)
  case invalidValue(option: String, value: String, expected: String)
  /// An operand (`SHELL`) that is not one of the words it can be.
  case invalidArgument(String, value: String, expected: String, command: CommandName)
  case flagTakesNoValue(option: String)
  /// Two options that cannot be given together.
  case conflictingOptions(String, String, command: CommandName)
  case invalidEnvironmentValue(variable: String, value: String, expected: String)
}
