import FoundationEssentials
import ShareProtocol

/// A direct target: a person, a device, a folder or a chat a service shares to, published by the
/// service ahead of time so that the share sheet can offer it first without starting anything
/// (Android's sharing shortcuts, Apple's donated intents).
///
/// Each service keeps its own in `$XDG_STATE_HOME/xdg-share/targets/<service id>.json`
/// (``DirectTargetsFile``), written whole and atomically by the service (ShareKit's
/// `ShareTargets.publish(_:)`, or any program following docs/direct-targets.md).
public struct DirectTarget: Hashable, Sendable {
  /// Which of the service's targets it is: what the service is handed back (`target.id`).
  public var id: String
  /// What it is called, as the sheet shows it ("Pixel 7", "Jana", "~/Pictures").
  public var title: String
  /// A second line, when there is one ("Phone", "Signal").
  public var subtitle: String?
  /// A freedesktop icon name.
  public var icon: String?
  /// The type identifiers or MIME types (wildcards too) of what it takes; empty: whatever its
  /// service takes. Every item shared must conform to one of them.
  public var contentTypes: [String]

  public init(
    id: String, title: String, subtitle: String? = nil, icon: String? = nil, contentTypes: [String] = []
  ) {
    self.id = id
    self.title = title
    self.subtitle = subtitle
    self.icon = icon
    self.contentTypes = contentTypes
  }

  /// Whether it takes `selection`: every attachment conforms to one of ``contentTypes``.
  public func accepts(_ selection: ActivationSelection) -> Bool {
    guard !contentTypes.isEmpty else { return true }
    let wanted = contentTypes.map(lowercase)
    return selection.typeClasses.allSatisfy { typeClass in
      typeClass.identifiers.contains { identifier in
        wanted.contains { selection.identifier(identifier, conformsTo: $0) }
      }
    }
  }

  /// How the sheet names it for assistive technologies: the title, then the subtitle.
  public var accessibleName: String { subtitle.map { "\(title) \($0)" } ?? title }
}

/// One service's file of direct targets: read with every bound checked, entries that break one
/// skipped and named, so that a corrupt, huge or hostile file never breaks the sheet.
public struct DirectTargetsFile: Sendable {
  /// The folder below `$XDG_STATE_HOME`.
  public static let folder = "xdg-share/targets"
  /// The largest file read.
  public static let maximumSize = 64 * 1024
  /// The most targets a service may have; later ones are skipped.
  public static let maximumCount = 32
  /// The longest title or subtitle, in characters, and identifier, in bytes.
  public static let maximumTitle = 100
  public static let maximumIdentifier = 256
  /// The most content types of one target.
  public static let maximumTypes = 16

  /// The targets that passed every check, in the file's order.
  public var targets: [DirectTarget]
  /// What was skipped, and why.
  public var problems: [Problem]

  /// Something wrong with a file or one of its entries.
  public struct Problem: Equatable, Sendable {
    /// The entry, from 0; nil for the whole file.
    public var entry: Int?
    public var reason: Reason

    public enum Reason: Equatable, Sendable {
      case tooLarge(maximum: Int)
      /// Not a regular file, or one that cannot be read.
      case unreadable
      case notJSON
      case notAnObjectWithTargets
      case tooMany(maximum: Int)
      case missing(String)
      case wrongType(String)
      case tooLong(String, maximum: Int)
      /// A control character, a line separator or a bidirectional control: a name that could
      /// forge a line or reorder what the sheet shows.
      case unsafeCharacter(String)
      case duplicateIdentifier(String)
      case invalidIcon
    }

    public init(entry: Int?, reason: Reason) {
      self.entry = entry
      self.reason = reason
    }
  }

  public init(targets: [DirectTarget], problems: [Problem] = []) {
    self.targets = targets
    self.problems = problems
  }

  /// Reads a file's bytes.
  public init(parsing bytes: [UInt8]) {
    targets = []
    problems = []
    guard bytes.count <= Self.maximumSize else {
      problems = [Problem(entry: nil, reason: .tooLarge(maximum: Self.maximumSize))]
      return
    }
    let root: Root
    do {
      root = try JSONDecoder().decode(Root.self, from: Data(bytes))
    } catch DecodingError.dataCorrupted {
      problems = [Problem(entry: nil, reason: .notJSON)]
      return
    } catch {
      problems = [Problem(entry: nil, reason: .notAnObjectWithTargets)]
      return
    }
    var seen = Set<String>()
    for (index, entry) in root.targets.enumerated() {
      guard targets.count < Self.maximumCount else {
        problems.append(Problem(entry: index, reason: .tooMany(maximum: Self.maximumCount)))
        break
      }
      switch entry.result {
      case .success(let target):
        guard seen.insert(target.id).inserted else {
          problems.append(Problem(entry: index, reason: .duplicateIdentifier(target.id)))
          continue
        }
        targets.append(target)
      case .failure(let problem):
        problems.append(Problem(entry: index, reason: problem.reason))
      }
    }
  }

  private struct Root: Decodable {
    var targets: [Entry]
  }

  private struct EntryProblem: Error {
    var reason: Problem.Reason
  }

  /// One entry, read key by key so that a wrong one skips the entry, not the file.
  private struct Entry: Decodable {
    var result: Result<DirectTarget, EntryProblem>

    enum Key: String, CodingKey {
      case id, title, subtitle, icon, contentTypes
    }

    init(from decoder: any Decoder) {
      guard let container = try? decoder.container(keyedBy: Key.self) else {
        result = .failure(EntryProblem(reason: .wrongType("target")))
        return
      }
      result = Self.read(container)
    }

    private static func read(_ container: KeyedDecodingContainer<Key>) -> Result<DirectTarget, EntryProblem> {
      func text(_ key: Key, maximum: Int, bytes: Bool = false) throws(EntryProblem) -> String? {
        guard container.contains(key) else { return nil }
        guard let string = try? container.decode(String.self, forKey: key), !string.isEmpty else {
          throw EntryProblem(reason: .wrongType(key.rawValue))
        }
        if (bytes ? string.utf8.count : string.count) > maximum {
          throw EntryProblem(reason: .tooLong(key.rawValue, maximum: maximum))
        }
        guard DirectTargetsFile.isSafe(string) else {
          throw EntryProblem(reason: .unsafeCharacter(key.rawValue))
        }
        return string
      }
      do throws(EntryProblem) {
        guard let id = try text(.id, maximum: maximumIdentifier, bytes: true) else {
          throw EntryProblem(reason: .missing("id"))
        }
        guard let title = try text(.title, maximum: maximumTitle) else {
          throw EntryProblem(reason: .missing("title"))
        }
        let subtitle = try text(.subtitle, maximum: maximumTitle)
        let icon = try text(.icon, maximum: 100)
        if let icon, !icon.utf8.allSatisfy(DirectTargetsFile.isIconNameByte) {
          throw EntryProblem(reason: .invalidIcon)
        }
        var types: [String] = []
        if container.contains(.contentTypes) {
          guard let list = try? container.decode([String].self, forKey: .contentTypes),
            list.count <= maximumTypes,
            list.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 200 && DirectTargetsFile.isSafe($0) })
          else { throw EntryProblem(reason: .wrongType("contentTypes")) }
          types = list
        }
        return .success(
          DirectTarget(id: id, title: title, subtitle: subtitle, icon: icon, contentTypes: types))
      } catch {
        return .failure(error)
      }
    }
  }

  /// No C0 or C1 control, no line or paragraph separator, no bidirectional control.
  static func isSafe(_ string: String) -> Bool {
    !string.unicodeScalars.contains { scalar in
      switch scalar.value {
      case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069:
        true
      default: false
      }
    }
  }

  static func isIconNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
      true
    default: false
    }
  }

  /// The file's text for `targets`: what ShareKit writes, and what any program may.
  public static func encode(_ targets: [DirectTarget]) -> String {
    let entries: [JSONValue] = targets.map { target in
      var object: [String: JSONValue] = ["id": .string(target.id), "title": .string(target.title)]
      if let subtitle = target.subtitle { object["subtitle"] = .string(subtitle) }
      if let icon = target.icon { object["icon"] = .string(icon) }
      if !target.contentTypes.isEmpty {
        object["contentTypes"] = .array(target.contentTypes.map(JSONValue.string))
      }
      return .object(object)
    }
    return JSONValue.object(["targets": .array(entries)]).text(.report) + "\n"
  }
}

extension DirectTargetsFile.Problem {
  /// For `doctor`: "entry 2: title holds a control character…".
  public var message: String {
    let subject = entry.map { "entry \($0): " } ?? ""
    let what =
      switch reason {
      case .tooLarge(let maximum): "larger than \(maximum / 1024) KiB, so not read"
      case .unreadable: "not a regular file that can be read"
      case .notJSON: "not JSON, so not read"
      case .notAnObjectWithTargets: "expected an object with a \"targets\" array"
      case .tooMany(let maximum): "more than \(maximum) targets; the rest are left out"
      case .missing(let key): "no \"\(key)\"; left out"
      case .wrongType(let key): "\"\(key)\" is not what it should be; left out"
      case .tooLong(let key, let maximum): "\"\(key)\" is longer than \(maximum); left out"
      case .unsafeCharacter(let key):
        "\"\(key)\" holds a control character, a line separator or a bidirectional control; left out"
      case .duplicateIdentifier(let id): "the identifier \(Diagnostics.quoted(id)) again; left out"
      case .invalidIcon: "\"icon\" is not an icon name; left out"
      }
    return subject + what
  }
}
