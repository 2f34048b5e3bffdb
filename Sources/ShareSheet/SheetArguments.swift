public import ShareCore
public import ShareHost

/// The command line of `xdg-share-sheet`:
///
/// ```
/// xdg-share-sheet [--parent PARENT] [--text TEXT]... [--url URL]... [--result-fd N] [--] FILE...
/// xdg-share-sheet --compose SERVICE-ID [--parent PARENT] --result-fd N [--url URL]... [--text TEXT]... -- FILE...
/// ```
///
/// Arguments are bytes: a file name reaches the service byte for byte, as with `xdg-share`.
public struct SheetArguments: Equatable, Sendable {
  /// What to share, in the order given.
  public var items: [ShareItem] = []
  /// The window to stay above, as xdg-desktop-portal names it.
  public var parent: Parent?
  /// The descriptor to write the result line on (see ``SheetResult``).
  public var resultDescriptor: Int32?
  /// The service to share with at once, without the list (a launcher's action).
  public var service: String?
  /// Who asks (`--site HOST`, `--app NAME`), said above the services.
  public var caller: SheetCaller?
  /// `--title TEXT`: the preview's line, instead of the one made from the items.
  public var title: String?
  /// `--preview FILE`: an image to show instead of the first item's thumbnail.
  public var preview: FilePath?
  /// `--exclude ID`, `--include ID`, `--kind share|action`: which services may be offered.
  public var filter = ServiceFilter()
  /// `--modal`: keep the parent window from input while shown.
  public var modal = false
  /// `--compose SERVICE-ID`: only the compose sheet the service declares, before the host shares
  /// (see `SheetComposePrompt` in ShareHost); the picker is not shown.
  public var compose: String?
  public var showHelp = false
  /// Problems that do not stop the picker (a parent it cannot use), for standard error.
  public var warnings: [String] = []

  /// A parent window: `x11:<XID in hexadecimal>` or `wayland:<exported handle>`.
  public enum Parent: Equatable, Sendable {
    case x11(UInt)
    case wayland(String)
  }

  public init() {}

  /// Why a command line cannot be understood.
  public enum Problem: Error, Equatable, Sendable {
    case missingValue(option: String)
    case unknownOption(String)
    case notALink(String)
    case notADescriptor(String)
    case notAKind(String)

    public var message: String {
      switch self {
      case .missingValue(let option): "\(option) needs a value"
      case .unknownOption(let option): "unknown option \(Diagnostics.quoted(option))"
      case .notALink(let text): "\(Diagnostics.quoted(text)) is not a link (scheme:rest, no spaces)"
      case .notADescriptor(let text): "\(Diagnostics.quoted(text)) is not a file descriptor number"
      case .notAKind(let text): "\(Diagnostics.quoted(text)) is not a kind of service (share or action)"
      }
    }
  }

  public static let usage = """
    Usage: xdg-share-sheet [--parent PARENT [--modal]] [--service ID] [--site HOST | --app NAME [--app-id ID]]
                           [--title TEXT] [--preview FILE] [--exclude ID]... [--include ID]... [--kind KIND]...
                           [--text TEXT]... [--url URL]... [--result-fd N] [--] [FILE...]

    Shows the share picker for the files, links and texts given (without any, it asks for
    files first), runs the service chosen and shows how it went.

      --parent PARENT   stay above this window: x11:<XID in hex> or wayland:<handle>
      --text TEXT       share a text
      --url URL         share a link
      --service ID      share with this service at once, without the list
      --site HOST       say that the web site HOST asks ("HOST wants to share")
      --app NAME        say that the application NAME asks ("Share from NAME")
      --app-id ID       the application's id, for the history (a Flatpak app id)
      --title TEXT      the preview's line, instead of one made from the items
      --preview FILE    an image to show instead of the first item's thumbnail
      --exclude ID      leave the service ID out (repeatable)
      --include ID      offer only the service ID (repeatable)
      --kind KIND       offer only services of KIND, share or action (repeatable)
      --modal           keep the parent window from input while the sheet is shown
      --compose ID      show only the compose sheet service ID declares (XDGShareComposeSheet),
                        starting from the line {"compose": {...}} on standard input; on Post
                        write that line, as posted, to the result descriptor; exit 3 on Cancel
      --result-fd N     write the result as one line of JSON on descriptor N
      --help            show this help

    Exit status: 0 shared, 3 cancelled (or closed before a choice), 4 the service failed,
    5 it ran too long, 7 no service accepts these items, 1 a file cannot be read, 2 a wrong
    command line.

    """

  /// Reads `arguments` (without the program's name).
  public static func parse(_ arguments: [[UInt8]]) throws(Problem) -> SheetArguments {
    var result = SheetArguments()
    var index = 0
    var onlyFiles = false
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyFiles || argument.first != UInt8(ascii: "-") || argument == Array("-".utf8) {
        result.items.append(.file(FilePath(bytes: argument)))
        continue
      }
      let word = text(argument)
      if word == "--" {
        onlyFiles = true
        continue
      }
      let (option, attached) = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(
        String.init
      ).splitFirst()
      func value() throws(Problem) -> String {
        if let attached { return attached }
        guard index < arguments.count else { throw .missingValue(option: option) }
        index += 1
        return text(arguments[index - 1])
      }
      switch option {
      case "--help", "-h": result.showHelp = true
      case "--text": result.items.append(.text(try value()))
      case "--url":
        let url = try value()
        guard ShareItem.isAbsoluteURL(url) else { throw .notALink(url) }
        result.items.append(.webURL(url))
      case "--parent":
        let given = try value()
        do {
          result.parent = try parseParent(given)
        } catch {
          result.warnings.append(error.message)
        }
      case "--service": result.service = try value()
      case "--site": result.caller = .site(try value())
      case "--app":
        let name = try value()
        if case .application(_, let id) = result.caller {
          result.caller = .application(name: name, id: id)
        } else {
          result.caller = .application(name: name, id: nil)
        }
      case "--app-id":
        let id = try value()
        if case .application(let name, _) = result.caller {
          result.caller = .application(name: name, id: id)
        } else {
          result.caller = .application(name: id, id: id)
        }
      case "--title": result.title = try value()
      case "--preview": result.preview = FilePath(try value())
      case "--exclude": result.filter.excluded.insert(try value())
      case "--include": result.filter.included = (result.filter.included ?? []).union([try value()])
      case "--kind":
        let kind = try value()
        guard let parsed = ["share": ShareService.Kind.share, "action": .action][kind] else {
          throw .notAKind(kind)
        }
        result.filter.kinds = (result.filter.kinds ?? []).union([parsed])
      case "--modal": result.modal = true
      case "--compose": result.compose = try value()
      case "--result-fd":
        let given = try value()
        guard let number = Int32(given), number >= 0 else { throw .notADescriptor(given) }
        result.resultDescriptor = number
      default: throw .unknownOption(option)
      }
    }
    return result
  }

  /// Why a parent cannot be used; the picker opens without one.
  public struct ParentProblem: Error, Equatable {
    public var given: String
    public var message: String {
      "ignoring --parent \(Diagnostics.quoted(given)): expected x11:<hex XID> or wayland:<handle>"
    }
  }

  /// `""` is no parent; `x11:` takes hexadecimal with or without `0x`.
  static func parseParent(_ given: String) throws(ParentProblem) -> Parent? {
    if given.isEmpty { return nil }
    if given.hasPrefix("x11:") {
      var digits = given.dropFirst(4)
      if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
      guard let xid = UInt(digits, radix: 16), xid != 0 else { throw ParentProblem(given: given) }
      return .x11(xid)
    }
    if given.hasPrefix("wayland:"), given.count > 8 {
      return .wayland(String(given.dropFirst(8)))
    }
    throw ParentProblem(given: given)
  }
}

extension Array where Element == String {
  /// The first element, and the second when there is one.
  fileprivate func splitFirst() -> (String, String?) {
    (self.first ?? "", count > 1 ? self[1] : nil)
  }
}
