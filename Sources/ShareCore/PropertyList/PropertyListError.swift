import Synchronization

/// A place in a text property list: 1-based line and column. Columns count characters (Unicode
/// scalars), so a tab or an accented letter is one column. CR LF, LF and a lone CR each end a line.
public struct TextPosition: Hashable, Sendable, Comparable {
  public var line: Int
  public var column: Int

  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  public static func < (a: TextPosition, b: TextPosition) -> Bool {
    (a.line, a.column) < (b.line, b.column)
  }
}

/// Why a property list cannot be read, and where, as data; ``Diagnostics`` words it.
public struct PropertyListError: Error, Hashable, Sendable {
  /// Where the problem is.
  public enum Location: Hashable, Sendable {
    /// In an XML or old-style (text) property list.
    case text(TextPosition)
    /// In a binary property list, which has no lines: the offset of the byte in the file.
    case byte(Int)
  }

  /// A construct the file ends inside of.
  public enum Construct: Hashable, Sendable {
    case comment
    case cdata
    case processingInstruction
    case doctype
    case tag
    case entity
    /// The content of an element such as `string` (its name).
    case element(String)
    /// An old-style quoted string.
    case quotedString
    /// An old-style `<hex data>`.
    case hexData
    /// An old-style value, key or punctuation that was still expected.
    case value
  }

  /// What an old-style property list needed next.
  public enum Token: Hashable, Sendable {
    case value
    case key
    case equalsOrSemicolon
    case semicolon
    case commaOrClosingParenthesis
  }

  public enum Reason: Hashable, Sendable {
    // Any format.
    /// The file holds no bytes, or (XML) nothing but comments and white space.
    case empty
    /// The declared or detected encoding is not one this reader knows (`name`).
    case unsupportedEncoding(String)
    /// Bytes that are not valid text in `encoding`.
    case invalidText(encoding: String)
    /// Arrays and dictionaries nested deeper than `limit`.
    case tooDeep(limit: Int)
    /// The file ends inside a construct.
    case unexpectedEnd(inside: Construct)
    /// An integer that does not fit in 64 bits (as written).
    case integerOutOfRange(String)

    // XML.
    /// Text or a character where markup was expected (the text, shortened).
    case unexpectedText(String)
    /// An element this format does not have.
    case unknownElement(String)
    /// A close tag other than the expected one; `found` is nil when no close tag is there.
    case mismatchedCloseTag(expected: String, found: String?)
    /// Something other than white space, a comment or a processing instruction after the root element.
    case contentAfterRoot
    /// A `<key>` with no value after it.
    case missingValue(key: String)
    /// An element where a dictionary needs a `<key>`.
    case expectedKey(found: String)
    /// `<plist>` with no value in it.
    case emptyPlist
    /// `<plist>` with more than one value in it.
    case extraValueInPlist
    /// A `<tag>` that is not properly formed.
    case malformedTag
    /// An element that cannot be empty (`<integer/>`).
    case emptyElement(String)
    /// An `&name;` other than the five XML predefines.
    case unknownEntity(String)
    /// A `&#…;` that names no Unicode character.
    case invalidCharacterReference(String)
    /// An element whose content is not of its form (`<integer>12a</integer>`).
    case invalidContent(element: String, text: String)

    // Old-style (OpenStep and .strings).
    /// Something else where this was expected.
    case expected(Token)
    /// Hex data with an odd number of digits or a character that is no hex digit.
    case invalidHexData

    // Binary.
    /// The header or the trailer (the last 32 bytes) is damaged.
    case damagedTrailer
    /// An object's offset or extent lies outside the object table.
    case offsetOutOfRange(Int)
    /// An object reference to an object that does not exist.
    case referenceOutOfRange(Int)
    /// An array or dictionary that contains itself.
    case cycle
    /// A count larger than the file can hold.
    case countTooLarge(Int)
    /// A marker byte of an object type this reader does not know or a property list cannot hold
    /// (null, fill, UID, set).
    case unsupportedObject(marker: UInt8)
    /// A dictionary key that is not a string.
    case nonStringKey
    /// More values than `limit` once shared objects are counted each time they are used.
    case tooManyValues(limit: Int)
  }

  public var reason: Reason
  public var location: Location

  public init(_ reason: Reason, at location: Location) {
    self.reason = reason
    self.location = location
  }

  /// The line and column, for text property lists.
  public var position: TextPosition? {
    if case .text(let position) = location { position } else { nil }
  }
}

/// A property list as read: its value and, for text formats, where each value begins.
public struct PropertyListDocument: Sendable {
  public enum Format: Hashable, Sendable {
    case xml
    case binary
    /// Old-style (OpenStep) property lists and `.strings` files.
    case openStep
  }

  public var value: PropertyListValue
  public var format: Format
  /// Where each value begins, by key path from the root: dictionary keys, and array indices as
  /// decimal strings (`["NSExtension", "NSExtensionAttributes"]`, `["XDGShareRequiredPrograms", "0"]`).
  /// The root is `[]`. Empty for binary property lists. Kept apart from the values so that
  /// ``PropertyListValue`` stays a plain value for everyone who does not report positions.
  /// Worked out on first use for XML: most documents read are never asked (a bundle without a
  /// problem), and the table was a quarter of reading one.
  public var positions: [[String]: TextPosition] {
    get { positionSource?.positions ?? [:] }
    set { positionSource = ValuePositions(given: newValue) }
  }

  // Positions are held only by reference: a table stored here as an optional value had its
  // type's metadata (and `[String]`'s conformance to `Hashable`) looked up by the runtime each
  // time a program first dropped a document, a tenth of a millisecond for `xdg-share list`.
  private var positionSource: ValuePositions?

  public init(value: PropertyListValue, format: Format, positions: [[String]: TextPosition] = [:]) {
    self.value = value
    self.format = format
    self.positionSource = positions.isEmpty ? nil : ValuePositions(given: positions)
  }

  init(value: PropertyListValue, format: Format, recorded: ValuePositions) {
    self.value = value
    self.format = format
    self.positionSource = recorded
  }

  /// Where the byte at `offset` of the string at `path` is written in an XML file. The string's
  /// bytes are its UTF-8 as read (entities and CDATA sections resolved); `offset` may be its
  /// length, for its end, where the close tag begins. Nil for binary and old-style property
  /// lists, for anything but a `<string>` with content at `path`, and for an offset past its end.
  public func position(ofByte offset: Int, inStringAt path: [String]) -> TextPosition? {
    positionSource?.position(ofByte: offset, inStringAt: path)
  }
}

/// Where each value of a text property list begins, as the parser met them: each value's
/// container and its component there, and its offset in the text. Made into key paths and lines
/// when first asked for, then kept.
final class ValuePositions: Sendable {
  struct Record: Sendable {
    /// The record of the array or dictionary holding the value; -1 for the root value.
    var parent: Int
    /// Its key, or its index as a decimal string; nil for the root value.
    var component: String?
    var offset: Int
  }

  /// The positions once made (or given), boxed: see `PropertyListDocument.positionSource`.
  private final class Table: Sendable {
    let positions: [[String]: TextPosition]
    init(_ positions: [[String]: TextPosition]) { self.positions = positions }
  }

  private let text: [UInt8]
  private let records: [Record]
  private let table: Mutex<Table?>

  init(text: [UInt8], records: [Record]) {
    self.text = text
    self.records = records
    table = Mutex(nil)
  }

  /// Positions already worked out.
  init(given positions: [[String]: TextPosition]) {
    text = []
    records = []
    table = Mutex(Table(positions))
  }

  var positions: [[String]: TextPosition] {
    table.withLock { table in
      if let table { return table.positions }
      let lines = LineTable(text)
      var paths: [[String]] = []
      paths.reserveCapacity(records.count)
      var made: [[String]: TextPosition] = [:]
      for record in records {
        var path = record.parent >= 0 ? paths[record.parent] : []
        if let component = record.component { path.append(component) }
        paths.append(path)
        // A value at a path already met is a dictionary's key given again: the earlier value is
        // replaced, and so are the positions of what it held.
        if made[path] != nil { made = made.filter { !$0.key.starts(with: path) } }
        made[path] = lines.position(of: record.offset, in: text)
      }
      table = Table(made)
      return made
    }
  }

  /// See ``PropertyListDocument/position(ofByte:inStringAt:)``.
  func position(ofByte offset: Int, inStringAt path: [String]) -> TextPosition? {
    // The last value met at the path is the one read (a key given again replaces the earlier).
    var paths: [[String]] = []
    paths.reserveCapacity(records.count)
    var element: Int?
    for record in records {
      var recordPath = record.parent >= 0 ? paths[record.parent] : []
      if let component = record.component { recordPath.append(component) }
      paths.append(recordPath)
      if recordPath == path { element = record.offset }
    }
    guard let element, let place = XMLStringPlaces.offset(of: offset, inElementAt: element, of: text) else {
      return nil
    }
    return LineTable(text).position(of: place, in: text)
  }
}
