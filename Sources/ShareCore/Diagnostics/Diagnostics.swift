/// All wording of bundle problems, in one place: `path:line:column: key: message`, the position
/// as compilers print it when it is known.
public enum Diagnostics {
  /// One line for a terminal: `x.shareext/Info.plist:12:5: KEY: expected …, found …`.
  public static func line(for problem: BundleProblem) -> String {
    var parts = [problem.file]
    if let position = problem.position {
      parts[0] += ":\(position.line):\(position.column)"
    }
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
    case .predicateSyntax(let error, placed: false):
      "invalid predicate: \(error.message)"
    case .predicateSyntax(let error, placed: true):
      "invalid predicate: \(error.problem)"
    case .missingFile(let expected, let name, .nothing):
      "expected \(describe(expected)), found no such file \(quoted(name))"
    case .missingFile(let expected, let name, .directory):
      "expected \(describe(expected)), found a directory \(quoted(name))"
    case .missingFile(let expected, let name, .danglingLink(let target)):
      "expected \(describe(expected)), found \(quoted(name)), a symbolic link to nothing (\(quoted(target)))"
    case .missingFile(let expected, let name, .notExecutable):
      "expected \(describe(expected)), found \(quoted(name)) without permission to run it (chmod +x)"
    case .unreadable(.notARegularFile(let maximumSize)):
      "cannot be read: expected a regular file of at most \(maximumSize / (1 << 20)) MiB"
    case .unreadable(.permissionDenied): "cannot be read: permission denied"
    case .unreadable(.notADictionary): "cannot be read: the top level is not a dictionary"
    case .malformedPropertyList(let error):
      "cannot be read: not a property list: \(message(for: error))"
    case .notABundle(exists: true):
      "expected a directory named *.shareext"
    case .notABundle(exists: false):
      "no such file or directory"
    case .acceptsNothing:
      "this rule accepts nothing, so the service is never offered (name what it takes, e.g. NSExtensionActivationSupportsImageWithMaxCount)"
    case .ruleNeverHolds(let clause, let reason):
      "this rule accepts nothing, so the service is never offered: \(clause) " + neverHolds(reason)
    case .acceptsEverything(let clause):
      "\(clause) accepts everything, so the service is offered for every file, link and text shared; name what it takes (e.g. NSExtensionActivationSupportsImageWithMaxCount)"
    case .unknownTypeIdentifier(let type, let clause):
      "no MIME type of this system is \(quoted(type)) or conforms to it, so \(clause) matches only what a caller shares under that name (a UTI of Apple's that Linux lacks? see docs/activation-rules.md)"
    case .shadowed(let first):
      "skipped: \(first) has the same identifier and comes first"
    case .ignoredNestedRule(let found):
      "ignored: an undocumented key Xcode adds (here \(describe(found))); the keys beside it decide what the service accepts"
    case .offeredForEverything:
      "missing, so the service is offered for everything, as with TRUEPREDICATE; to restrict it, add NSExtensionAttributes with an NSExtensionActivationRule (e.g. NSExtensionActivationSupportsImageWithMaxCount)"
    case .duplicateIdentifier(let identifier, let first):
      "expected an identifier of its own, found \(quoted(identifier)), which configuration item \(first) already has"
    case .declaredTwice:
      "given both here and at the top level of Info.plist; keep one (the top level is where XDGShare keys go)"
    case .noMeaningHere(alwaysSo: false):
      "has no meaning here, so it grants nothing (docs/sandbox.md lists the entitlements that do)"
    case .noMeaningHere(alwaysSo: true):
      "has no meaning here: every service is sandboxed and reads the items it is handed (org.xdgshare.unconfined asks for no sandbox)"
    case .unexpandedBuildVariable(let variable):
      "expected the value itself, found the Xcode build variable \(variable), which only Xcode expands (write the value, or make the bundle with xdg-share new --from-xcode)"
    }
  }

  /// Why a property list cannot be read; a binary one's byte offset is part of the message, a
  /// text one's line and column are the problem's position.
  public static func message(for error: PropertyListError) -> String {
    let reason = message(for: error.reason)
    guard case .byte(let offset) = error.location else { return reason }
    return "\(reason) (at byte \(offset))"
  }

  static func message(for reason: PropertyListError.Reason) -> String {
    switch reason {
    case .empty: "the file holds no value"
    case .unsupportedEncoding(let name): "unsupported encoding \(quoted(name)) (expected UTF-8 or UTF-16)"
    case .invalidText(let encoding): "bytes that are not valid \(encoding)"
    case .tooDeep(let limit): "arrays and dictionaries nested more than \(limit) deep"
    case .unexpectedEnd(.value): "the file ends where a value was expected"
    case .unexpectedEnd(let construct): "the file ends inside \(describe(construct))"
    case .integerOutOfRange(let text): "the integer \(text) does not fit in 64 bits"
    case .unexpectedText(let text): "expected a tag, found \(quoted(text))"
    case .unknownElement(let name): "unknown element <\(name)>"
    case .mismatchedCloseTag(let expected, let found?): "expected </\(expected)>, found </\(found)>"
    case .mismatchedCloseTag(let expected, nil): "expected </\(expected)>"
    case .contentAfterRoot: "content after the root element"
    case .missingValue(let key): "the key \(quoted(key)) has no value"
    case .expectedKey(let found): "expected <key>, found <\(found)>"
    case .emptyPlist: "<plist> holds no value"
    case .extraValueInPlist: "<plist> holds more than one value"
    case .malformedTag: "malformed tag"
    case .emptyElement(let name): "<\(name)> is empty"
    case .unknownEntity(let name): "unknown entity &\(name); (expected &lt; &gt; &amp; &apos; &quot; or &#…;)"
    case .invalidCharacterReference(let reference): "\(reference) names no Unicode character"
    case .invalidContent(let element, let text):
      "invalid <\(element)> \(quoted(text)) (expected \(contentForm(element)))"
    case .expected(let token): "expected \(describe(token))"
    case .invalidHexData: "invalid hex data (expected pairs of hex digits)"
    case .damagedTrailer: "the binary property list's header or trailer is damaged"
    case .offsetOutOfRange(let offset): "offset \(offset) lies outside the object table"
    case .referenceOutOfRange(let reference): "object \(reference) is referred to but does not exist"
    case .cycle: "an array or dictionary contains itself"
    case .countTooLarge(let count): "a count of \(count) is larger than the file"
    case .unsupportedObject(let marker):
      "unsupported object type 0x\(marker < 0x10 ? "0" : "")\(String(marker, radix: 16, uppercase: true))"
    case .nonStringKey: "a dictionary key is not a string"
    case .tooManyValues(let limit): "more than \(limit) values once shared objects are counted"
    }
  }

  private static func describe(_ construct: PropertyListError.Construct) -> String {
    switch construct {
    case .comment: "a comment"
    case .cdata: "a CDATA section"
    case .processingInstruction: "a processing instruction"
    case .doctype: "the DOCTYPE"
    case .tag: "a tag"
    case .entity: "an entity reference"
    case .element(let name): "<\(name)>"
    case .quotedString: "a quoted string"
    case .hexData: "hex data"
    case .value: "a value"
    }
  }

  private static func describe(_ token: PropertyListError.Token) -> String {
    switch token {
    case .value: "a value"
    case .key: "a key"
    case .equalsOrSemicolon: "'=' or ';' after the key"
    case .semicolon: "';' after the value"
    case .commaOrClosingParenthesis: "',' or ')' after the array element"
    }
  }

  private static func contentForm(_ element: String) -> String {
    switch element {
    case "integer": "a decimal or 0x-hexadecimal integer"
    case "real": "a decimal number"
    case "date": "YYYY-MM-DDTHH:MM:SSZ"
    default: "base64"
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
    case .nonEmptyArrayOfStrings: "a non-empty array of strings"
    case .arrayOfDictionaries: "an array of dictionaries"
    case .configurationIdentifier: "an identifier of letters, digits, '.', '_' and '-'"
    case .ruleDictionaryOrPredicate: "a dictionary or a predicate string"
    case .bundleIdentifier: "a reverse-DNS identifier of letters, digits, '.' and '-'"
    case .busName: "a well-known D-Bus name such as org.kde.kdeconnect"
    case .busNameOrPrefix:
      "a well-known D-Bus name such as org.kde.kdeconnect, or one ending in .* for the names below it (org.kde.*)"
    case .applicationGroup: "an App Group name, group. and a reverse-DNS name (group.ch.example.hoi)"
    case .signalMatchRule:
      "a D-Bus match rule of signals, such as type='signal',interface='org.kde.kdeconnect.daemon'"
    case .programName: "a program name without '/' (alternatives separated by '|')"
    case .value(let value): quoted(value)
    case .oneOf(let values): values.map(quoted).joined(separator: " or ")
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
    let escaped = text.replacingScalars { scalar in
      switch scalar {
      case "\"": "\\\""
      case "\\": "\\\\"
      case "\n": "\\n"
      case "\t": "\\t"
      default: escapedControl(scalar)
      }
    }
    return "\"" + escaped + "\""
  }

  /// A control character as messages write it, `\u{1b}`, so that it never reaches a terminal;
  /// nil for any other.
  static func escapedControl(_ scalar: Unicode.Scalar) -> String? {
    scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : nil
  }

  /// A file that cannot be looked at, for people: "notes.txt: no such file or directory".
  public static func line(for problem: FileProblem) -> String {
    "\(problem.path.displayString): \(reason(problem.reason))"
  }

  /// Why a file cannot be looked at, for people: "no such file or directory".
  public static func reason(_ reason: FileProblem.Reason) -> String {
    switch reason {
    case .notFound: "no such file or directory"
    case .permissionDenied: "permission denied"
    case .other(let message): message
    }
  }

  /// Why a clause never holds, after the clause.
  static func neverHolds(_ reason: RuleLint.Reason) -> String {
    switch reason {
    case .falsePredicate: return "is always false"
    case .unmeetableCount(let thing, let minimum, let maximum):
      let noun =
        switch thing {
        case .items: "extension items"
        case .attachments: "attachments"
        case .typeIdentifiers: "type identifiers"
        }
      let range =
        switch maximum {
        case let maximum? where maximum == minimum: "always \(minimum)"
        case let maximum?: "from \(minimum) to \(maximum)"
        case nil: "\(minimum) or more"
        }
      let why = thing == .items ? " (xdg-share shares everything as one extension item)" : ""
      return "can never hold: the number of \(noun) it counts is \(range)\(why)"
    case .minimumAboveMaximum(let minimum, let maximum):
      return "can never be met: the rest of the rule takes at most \(maximum), fewer than \(minimum)"
    }
  }

  /// "image", "images": what a dictionary rule counts, for people.
  static func noun(_ category: DictionaryRule.Category, plural: Bool = false) -> String {
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
}
