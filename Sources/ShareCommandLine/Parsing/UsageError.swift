/// A command line that cannot be understood, as data; ``Usage`` words it. Exit code 2.
public enum UsageError: Error, Equatable, Sendable {
  case unknownCommand(String, suggestion: String?)
  case unknownOption(String, command: CommandName?, suggestion: String?)
  case missingValue(option: String)
  case unexpectedArgument(String, command: CommandName?)
  case missingArgument(MissingArgument, command: CommandName)
  case invalidValue(option: String, value: String, expected: ExpectedValue)
  /// An operand (`SHELL`, `NAME`) that is not of the form it must have.
  case invalidArgument(String, value: String, expected: ExpectedValue, command: CommandName)
  case flagTakesNoValue(option: String)
  /// Two options that cannot be given together.
  case conflictingOptions(String, String, command: CommandName)
  case invalidEnvironmentValue(variable: String, value: String, expected: ExpectedValue)
}

/// What a command line lacks.
public enum MissingArgument: Equatable, Sendable {
  /// An operand, by its placeholder in ``CommandTable`` (`ID`, `PATH`, `SHELL`).
  case operand(String)
  /// `group`'s first operand, which can only be `path`.
  case groupAction
  /// `share` without files, texts or links (and without `--picker`).
  case somethingToShare
  /// `new` without `--swift`, `--shell`, `--python` or `--from-xcode`.
  case template
}

/// The form a value should have had.
public enum ExpectedValue: Equatable, Sendable {
  /// A number of seconds, 0 meaning never (`--idle-timeout`, `XDG_SHARE_IDLE_TIMEOUT`).
  case secondsOrNever
  /// `IDENT=VALUE` (`configure --set`).
  case setting
  /// `VAR=VALUE`, `VAR` a build variable's name (`new --define`).
  case definition
  /// An absolute URL (`--url`).
  case absoluteURL
  /// A direct target's identifier: not empty.
  case targetID
  /// A text to share (`--text`): not empty.
  case someText
  /// A bundle identifier (`new --identifier`).
  case bundleIdentifier
  /// A git URL or an absolute path (`new --sharekit-url`).
  case repository
  /// A bundle's name (`new NAME`).
  case bundleName
  /// One of these words.
  case oneOf([String])
}
