public import FoundationEssentials
public import ShareCore
import SharePOSIX
public import ShareProtocol

/// One share request as recorded under `$XDG_STATE_HOME/xdg-share/history/`: written before the
/// plugin starts and again when it ends, so nothing the user shared is lost silently.
public struct HistoryRecord: Codable, Equatable, Sendable {
  public var id: String
  public var serviceId: String
  public var serviceName: String
  public var items: [RecordedItem]
  public var started: Date
  public var finished: Date?
  public var status: Status
  /// The plugin's message, or why it failed.
  public var message: String?
  public var returningItems: [ItemPayload]?
  /// Where the plugin's standard error went.
  public var log: String?
  /// The process that ran the request (`xdg-share` or the D-Bus service), so that a record left
  /// "running" by a host that died can be told from one still running.
  public var host: Int32?
  /// When `host` started (clock ticks after boot, as `/proc/PID/stat` says): a pid reused by
  /// another process after the host died is not taken for the host. Absent in older records.
  public var hostStarted: UInt64?
  /// The id of the request this one runs again (`xdg-share retry`), so that a chain of retries
  /// can be followed back to the request the user first made.
  public var retryOf: String?
  /// Who asked for the share, when another program did: an application (its Flatpak app id, or
  /// its program), or a web site.
  public var caller: String?
  /// The request's `compose` without its secure values, which are never written here: what
  /// `retry` sends again.
  public var compose: ComposePayload?
  /// The direct target the request went to: what ranks targets, and what `retry` sends again.
  public var target: TargetPayload?

  public enum Status: String, Codable, Sendable {
    case running
    case completed
    case cancelled
    case failed
    case timedOut = "timed-out"
    /// Never written: how `history` shows a `running` record whose host is gone (killed, or the
    /// machine went down) — the request did not end, so it can be retried.
    case interrupted
  }

  /// Whether `retry` makes sense: the request did not complete.
  public var isRetryable: Bool { status != .completed && !isRunning }

  /// Whether the request is still running: recorded so, by a host that is still alive (the same
  /// process: its pid, and its start time where the record has it).
  public var isRunning: Bool {
    guard status == .running else { return false }
    guard let host else { return true }
    guard ProcessStatus.isAlive(host) else { return false }
    guard let hostStarted, let now = ProcessStatus.startTime(of: host) else { return true }
    return now == hostStarted
  }

  /// The status to show: a request whose host died while it ran is "interrupted".
  public var displayStatus: String { shown.status.rawValue }

  /// The record as `history` shows it: `interrupted` instead of `running` when the host is gone.
  public var shown: HistoryRecord {
    var record = self
    if status == .running && !isRunning { record.status = .interrupted }
    return record
  }
}

/// A shared item as recorded: files by their `file://` URL, so every name survives.
public enum RecordedItem: Codable, Equatable, Sendable {
  case file(url: String)
  case webURL(String)
  case text(String)
  /// A file handed over as bytes (a descriptor, a web page's file), by the name its sender gave
  /// it: its private copy is gone with the request, and its path never meant anything.
  case handedOver(name: String)

  public init(_ item: ShareItem) {
    switch item {
    case .file(let path): self = .file(url: path.fileURL)
    case .webURL(let url): self = .webURL(url)
    case .text(let text): self = .text(text)
    }
  }

  /// `item` as recorded: a file in one of `privateFolders` (the request folders of files handed
  /// over) by its name alone.
  public init(_ item: ShareItem, privateFolders: [FilePath]) {
    if case .file(let path) = item,
      privateFolders.contains(where: { path.bytes.starts(with: $0.bytes + [UInt8(ascii: "/")]) })
    {
      self = .handedOver(name: String(decoding: path.lastComponent, as: UTF8.self))
    } else {
      self.init(item)
    }
  }

  /// The item to share again; `nil` for a file URL that does not decode.
  public var shareItem: ShareItem? {
    switch self {
    case .file(let url): FilePath(fileURL: url).map(ShareItem.file)
    case .webURL(let url): .webURL(url)
    case .text(let text): .text(text)
    case .handedOver: nil
    }
  }

  private enum Keys: String, CodingKey {
    case file, url, text, handedOver
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    if let file = try container.decodeIfPresent(String.self, forKey: .file) {
      self = .file(url: file)
    } else if let url = try container.decodeIfPresent(String.self, forKey: .url) {
      self = .webURL(url)
    } else if let name = try container.decodeIfPresent(String.self, forKey: .handedOver) {
      self = .handedOver(name: name)
    } else {
      self = .text(try container.decode(String.self, forKey: .text))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    switch self {
    case .file(let url): try container.encode(url, forKey: .file)
    case .webURL(let url): try container.encode(url, forKey: .url)
    case .text(let text): try container.encode(text, forKey: .text)
    case .handedOver(let name): try container.encode(name, forKey: .handedOver)
    }
  }
}

/// The folder of history records, one JSON file per request, each written atomically.
public struct HistoryStore: Sendable {
  /// The folder, byte for byte (`XDG_STATE_HOME` need not be UTF-8).
  public let location: FilePath
  /// The folder as text (``FilePath/text``), for messages and records.
  public var directory: String { location.text }

  public init(stateHome: String) {
    self.init(stateHome: FilePath(stateHome))
  }

  public init(stateHome: FilePath) {
    location = FilePath(bytes: stateHome.bytes + Array("/xdg-share/history".utf8))
  }

  /// Where a request's plugin writes its standard error, as text (the record's `log`).
  public func logPath(for id: String) -> String {
    logLocation(for: id).text
  }

  /// Where a request's plugin writes its standard error.
  public func logLocation(for id: String) -> FilePath {
    location.appending("\(id).log")
  }

  /// Writes `record` (temporary file, then rename).
  public func save(_ record: HistoryRecord) throws(RecordFailure) {
    let path = location.appending("\(record.id).json")
    let file = path.text
    let bytes: [UInt8]
    do {
      bytes = Array(try Self.json(record))
    } catch {
      throw RecordFailure(file: file, reason: .cannotEncode)
    }
    do {
      try FileSystem.makeDirectories(location.bytes)
      try FileSystem.writeAtomically(bytes, to: path.bytes, mode: 0o644)
    } catch {
      throw RecordFailure(file: file, reason: .system(error.reason))
    }
  }

  /// Why a record could not be written.
  public struct RecordFailure: Error, Equatable, Sendable {
    public enum Reason: Equatable, Sendable {
      case cannotEncode
      /// What the system said (`strerror`).
      case system(String)
    }

    public var file: String
    public var reason: Reason

    /// The reason in words, for either front end's message.
    public var reasonText: String {
      switch reason {
      case .cannotEncode: "the record cannot be encoded"
      case .system(let text): text
      }
    }
  }

  /// The one JSON form of records, on disk and in `xdg-share history --json`: sorted keys, dates
  /// in ISO 8601 in UTC with milliseconds (`2026-11-29T17:34:46.184Z`).
  public static func json(_ value: some Encodable) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(date.formatted(dateStyle))
    }
    return try encoder.encode(value)
  }

  private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

  /// The largest record read; one holds a request's items and what came back, kilobytes.
  static let maximumRecordSize = 64 << 20

  /// Every record, oldest first; unreadable files are skipped.
  public func records() -> [HistoryRecord] {
    let names = FileSystem.entries(ofDirectory: location.bytes) ?? []
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let text = try decoder.singleValueContainer().decode(String.self)
      // Records of earlier versions left out the zone; their times are UTC all the same.
      guard
        let date =
          (try? Date(text, strategy: Self.dateStyle))
          ?? (try? Date(text, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true)))
          ?? (try? Date(text, strategy: .iso8601))
      else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 date"))
      }
      return date
    }
    let suffix = Array(".json".utf8)
    return names.filter { $0.count >= suffix.count && $0.suffix(suffix.count).elementsEqual(suffix) }
      .compactMap {
        name in
        FileSystem.contents(
          ofRegularFile: location.appending(name).bytes, maximumSize: Self.maximumRecordSize
        ).flatMap {
          try? decoder.decode(HistoryRecord.self, from: Data($0))
        }
      }.sorted { ($0.started, $0.id) < ($1.started, $1.id) }
  }

  /// The record whose id is `id` or starts with it, when exactly one does.
  public func record(matching id: String) -> Lookup {
    record(matching: id, in: records())
  }

  /// The record of `records` whose id is `id` or starts with it, when exactly one does.
  public func record(matching id: String, in records: [HistoryRecord]) -> Lookup {
    let matches = records.filter { $0.id == id || $0.id.hasPrefix(id) }
    if let exact = matches.first(where: { $0.id == id }) { return .found(exact) }
    switch matches.count {
    case 0: return .none
    case 1: return .found(matches[0])
    default: return .ambiguous(matches.map(\.id))
    }
  }

  /// The request `record` runs again, followed back to the first (`retryOf` by `retryOf`), and
  /// every record that runs it again, directly or through another retry; `record` included.
  public static func family(of record: HistoryRecord, in records: [HistoryRecord]) -> [HistoryRecord] {
    let byID = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    func root(_ record: HistoryRecord) -> String {
      var current = record
      var seen: Set<String> = [current.id]
      // A chain that loops (edited by hand) ends where it comes back.
      while let parent = current.retryOf, let next = byID[parent], seen.insert(next.id).inserted {
        current = next
      }
      return current.id
    }
    let first = root(record)
    let members = records.filter { $0.id != record.id && root($0) == first }
    return [record] + members
  }

  public enum Lookup: Equatable, Sendable {
    case found(HistoryRecord)
    case none
    case ambiguous([String])
  }
}
