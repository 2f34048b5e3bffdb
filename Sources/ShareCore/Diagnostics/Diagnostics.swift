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
    case .missingFile(let expected, let name, .nothing):
      "expected \(describe(expected)), found no such file \(quoted(name))"
    case .missingFile(let expected, let name, .directory):
      "expected \(describe(expected)), found a directory \(quoted(name))"
    case .missingFile(let expected, let name, .danglingLink(let target)):
      "expected \(describe(expected)), found \(quoted(name)), a symbolic link to nothing (\(quoted(target)))"
    case .missingFile(let expected, let name, .notExecutable):
      "expected \(describe(expected)), found \(quoted(name)) without permission to run it (chmod +x)"
    case .unreadable(let reason):
      "cannot be read: \(reason)"
    case .notABundle(exists: true):
      "expected a directory named *.shareext"
    case .notABundle(exists: false):
      "no such file or directory"
    case .acceptsNothing:
      "this rule accepts nothing, so the service is never offered (name what it takes, e.g. NSExtensionActivationSupportsImageWithMaxCount)"
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

  /// Why a file cannot be looked at, for people: "no such file or directory".
  public static func reason(_ reason: FileProblem.Reason) -> String {
    switch reason {
    case .notFound: "no such file or directory"
    case .permissionDenied: "permission denied"
    case .other(let message): message
    }
  }

  /// Why a rule refuses a selection, e.g. "it takes at most 1 image, not 2".
  public static func message(for rejection: RuleRejection) -> String {
    switch rejection {
    case .empty: "there is nothing to share"
    case .tooManyAttachments(let maximum, let found):
      "it takes at most \(count(maximum, "item")), not \(found)"
    case .tooFewAttachments(let minimum, let found):
      "it needs at least \(count(minimum, "item")), not \(found)"
    case .tooMany(let category, let maximum, let found):
      "it takes at most \(count(maximum, noun(category))), not \(found)"
    case .unsupported(let category): "it does not take \(noun(category, plural: true))"
    case .predicateFalse: "its activation rule refuses these items"
    case .refusesItems(let names): "it does not take \(names.joined(separator: ", "))"
    }
  }

  private static func noun(_ category: DictionaryRule.Category, plural: Bool = false) -> String {
    let singular =
      switch category {
      case .text: "text"
      case .webURL: "link"
      case .image: "image"
      case .movie: "movie"
      case .file: "file"
      }
    return plural && category != .text ? singular + "s" : singular
  }

  private static func count(_ number: Int, _ noun: String) -> String {
    number == 1 || noun == "text" ? "\(number) \(noun)" : "\(number) \(noun)s"
  }
}
