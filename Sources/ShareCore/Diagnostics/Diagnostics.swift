/// All wording of bundle problems, in one place: `path: key: message`.
public enum Diagnostics {
  /// One line for a terminal: `x.shareext/Info.plist: KEY: expected …, found …`.
  public static func line(for problem: BundleProblem) -> String {
    var parts = [problem.file]
    if let key = problem.key { parts.append(key) }
    let message = self.message(for: problem.kind)
    parts.append(problem.severity == .warning ? "warning: " + message : message)
    return parts.joined(separator: ": ")
  }

  /// The message alone, without file and key.
  public static func message(for kind: BundleProblem.Kind) -> String {
    switch kind {
    case .unexpectedValue(let expected, let found):
      "expected \(describe(expected)), found \(describe(found))"
    case .missingKey(let expected):
      "expected \(describe(expected)), found nothing (the key is missing)"
    case .unknownKey(let suggestion?):
      "unknown key; did you mean \(suggestion)?"
    case .unknownKey(nil):
      "unknown key"
    case .predicateSyntax(let error):
      "invalid predicate: \(error.message)"
    case .missingFile(let expected, let name):
      "expected \(describe(expected)), found no such file \(quoted(name))"
    case .unreadable(let reason):
      "cannot be read: \(reason)"
    case .notABundle:
      "expected a directory named *.shareext"
    case .shadowed(let first):
      "skipped: \(first) has the same identifier and comes first"
    }
  }

  static func describe(_ expectation: BundleProblem.Expectation) -> String {
    switch expectation {
    case .string: "a string"
    case .nonNegativeInteger: "a non-negative integer"
    case .positiveNumber: "a positive number"
    case .boolean: "a boolean"
    case .dictionary: "a dictionary"
    case .arrayOfStrings: "an array of strings"
    case .ruleDictionaryOrPredicate: "a dictionary or a predicate string"
    case .bundleIdentifier: "a reverse-DNS identifier of letters, digits, '.' and '-'"
    case .busName: "a well-known D-Bus name such as org.kde.kdeconnect"
    case .programName: "a program name without '/' (alternatives separated by '|')"
    case .value(let value): quoted(value)
    case .fileInBundle: "a file in the bundle"
    case .executableFileInBundle: "an executable file in the bundle"
    }
  }

  static func describe(_ value: PropertyListValue) -> String {
    switch value {
    case .string(let string): "the string \(quoted(string))"
    case .integer(let integer): "the integer \(integer)"
    case .real(let real): "the number \(real)"
    case .boolean(let boolean): "the boolean \(boolean)"
    case .date: "a date"
    case .data: "data"
    case .array: "an array"
    case .dictionary: "a dictionary"
    }
  }

  /// Double-quoted with control characters escaped, so a value can never break the line.
  public static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        out += "\\u{\(String(scalar.value, radix: 16))}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
