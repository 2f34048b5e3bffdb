/// Something wrong with a share-extension bundle, as data: which file, which key, what was
/// expected and what was found. ``Diagnostics`` words it.
public struct BundleProblem: Error, Hashable, Sendable {
  public enum Severity: Hashable, Sendable, Comparable {
    /// The bundle still loads; `validate` shows it.
    case warning
    /// The bundle is skipped.
    case error
  }

  /// What a key's value should have been.
  public enum Expectation: Hashable, Sendable {
    case string
    case nonNegativeInteger
    case positiveNumber
    case boolean
    case dictionary
    case arrayOfStrings
    case nonEmptyArrayOfStrings
    case arrayOfDictionaries
    /// A configuration item's `Identifier`.
    case configurationIdentifier
    case ruleDictionaryOrPredicate
    case bundleIdentifier
    case busName
    /// A name of `org.xdgshare.session-bus.talk`: a bus name, or one ending in `.*`.
    case busNameOrPrefix
    /// An App Group name: `group.` and a reverse-DNS name.
    case applicationGroup
    case signalMatchRule
    case programName
    case value(String)
    /// One of these values (`NSExtensionPointIdentifier`'s extension points).
    case oneOf([String])
    case fileInBundle
    case executableFileInBundle
  }

  /// What is where a file was expected.
  public enum FileFinding: Hashable, Sendable {
    case nothing
    case directory
    /// A symbolic link to nothing (`target`: what it names).
    case danglingLink(target: String)
    /// A file without permission to run it.
    case notExecutable
  }

  /// Why a file cannot be read.
  public enum Unreadable: Hashable, Sendable {
    /// Not a regular file (a FIFO, a device), or larger than the limit, in bytes.
    case notARegularFile(maximumSize: Int)
    case permissionDenied
    /// A property list whose top level is not a dictionary.
    case notADictionary
  }

  public enum Kind: Hashable, Sendable {
    /// A key holds a value of the wrong type or form.
    case unexpectedValue(expected: Expectation, found: PropertyListValue)
    /// A required key is absent.
    case missingKey(expected: Expectation)
    /// A key this version does not know; `suggestion` is the nearest known key.
    case unknownKey(suggestion: String?)
    /// The predicate string does not parse. `placed`: the problem's position is the mistake's
    /// own place in the file (a predicate in an XML `<string>`), so the words need no column in
    /// the predicate; otherwise it is the string's, and they say the column.
    case predicateSyntax(PredicateSyntaxError, placed: Bool = false)
    /// A file named by a key does not exist or cannot be used as it is.
    case missingFile(expected: Expectation, name: String, found: FileFinding = .nothing)
    /// The file cannot be read, and why.
    case unreadable(Unreadable)
    /// The file is no property list: why, and where (a byte offset for binary property lists;
    /// a text position is also the problem's ``BundleProblem/position``).
    case malformedPropertyList(PropertyListError)
    /// The path is no `*.shareext` directory (`exists`: something else is there).
    case notABundle(exists: Bool = true)
    /// Another bundle earlier in the search path has the same identifier.
    case shadowed(by: String)
    /// The activation rule can accept no selection: the service would never be offered.
    case acceptsNothing
    /// A clause of the rule that no selection can make hold, so that the rule never accepts
    /// anything: the clause as format text (or `Key = value`), and why.
    case ruleNeverHolds(clause: String, reason: RuleLint.Reason)
    /// The rule accepts every selection (`TRUEPREDICATE`, or a predicate that cannot fail): the
    /// service is offered for everything shared.
    case acceptsEverything(clause: String)
    /// A type identifier the rule asks about that no MIME type of this system maps to or
    /// conforms to: the clause can only match a caller that names it.
    case unknownTypeIdentifier(String, clause: String)
    /// Xcode's undocumented `NSExtensionActivationRule` inside the rule's dictionary (holding
    /// `found`, usually `TRUEPREDICATE`): ignored, the dictionary's other keys decide.
    case ignoredNestedRule(found: PropertyListValue)
    /// `NSExtension` has no `NSExtensionAttributes`, as iOS 8 allowed: the service is offered for
    /// everything, as with `TRUEPREDICATE`.
    case offeredForEverything
    /// A string holding an Xcode build setting that only Xcode expands, such as
    /// `$(PRODUCT_BUNDLE_IDENTIFIER)` or `${EXECUTABLE_NAME}` (`variable`, as written). An error
    /// where xdg-share reads the value, a warning elsewhere.
    case unexpandedBuildVariable(String)
    /// A configuration item's `Identifier` that an earlier item (at `firstIndex`, from 0) has.
    case duplicateIdentifier(String, firstIndex: Int)
    /// `XDGShareComposeSheet` both at the top level and in `NSExtensionAttributes`.
    case declaredTwice
    /// An entitlement with no meaning here (Apple's `keychain-access-groups`,
    /// `com.apple.security.network.server`…): it grants nothing. `alwaysSo`: one of those that
    /// are always so here (`com.apple.security.app-sandbox`), given another value than true.
    case noMeaningHere(alwaysSo: Bool)
  }

  /// The file the problem is in (usually `…/Info.plist`).
  public var file: String
  /// The key, as written in the file; `nil` for problems with the whole file.
  public var key: String?
  public var kind: Kind
  public var severity: Severity
  /// Where in the file, when it is a text property list and the place is known: the value of
  /// `key`, the dictionary a missing key belongs in, or the syntax error.
  public var position: TextPosition?

  public init(
    file: String, key: String? = nil, kind: Kind, severity: Severity = .error, position: TextPosition? = nil
  ) {
    self.file = file
    self.key = key
    self.kind = kind
    self.severity = severity
    self.position = position
  }
}
