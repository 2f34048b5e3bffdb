/// The framing of browsers' native messaging (Chromium's and Firefox's alike): each message is
/// its length as a 32-bit number in the machine's byte order, then that many bytes of UTF-8 JSON.
public enum NativeMessaging {
  /// The longest message the extension sends: a file comes in chunks well below it, so a longer
  /// one is a broken or hostile sender, refused before a byte of it is held.
  public static let maximumIncoming = 8 << 20
  /// Chromium and Firefox refuse a message from a host longer than 1 MiB.
  public static let maximumOutgoing = 1 << 20

  /// Why a message could not be read.
  public enum ReadError: Error, Equatable, Sendable {
    /// The input ended inside a message.
    case truncated
    /// The length given is over ``maximumIncoming``.
    case tooLong(UInt32)
    /// Reading failed (the system's words).
    case unreadable(String)

    public var message: String {
      switch self {
      case .truncated: "the message ended before its length"
      case .tooLong(let length):
        "a message of \(length) bytes is longer than the \(NativeMessaging.maximumIncoming) bytes allowed"
      case .unreadable(let reason): "cannot read the message: \(reason)"
      }
    }
  }

  /// Reads one message with `read` (which returns up to the count asked for, and nothing at the
  /// end of input); nil when the input ends cleanly between messages.
  public static func read(with read: (Int) throws -> [UInt8]) throws(ReadError) -> [UInt8]? {
    guard let header = try exactly(4, with: read, atStart: true) else { return nil }
    let length = header.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    guard Int(length) <= maximumIncoming else { throw .tooLong(length) }
    return try exactly(Int(length), with: read, atStart: false) ?? []
  }

  /// `count` bytes; nil when the input ends before the first of them and `atStart`.
  private static func exactly(_ count: Int, with read: (Int) throws -> [UInt8], atStart: Bool)
    throws(ReadError)
    -> [UInt8]?
  {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    while bytes.count < count {
      let chunk: [UInt8]
      do {
        chunk = try read(count - bytes.count)
      } catch {
        throw .unreadable("\(error)")
      }
      if chunk.isEmpty {
        if atStart, bytes.isEmpty { return nil }
        throw .truncated
      }
      bytes += chunk
    }
    return bytes
  }

  /// `json` framed: its length, then it.
  public static func frame(_ json: [UInt8]) -> [UInt8] {
    withUnsafeBytes(of: UInt32(json.count)) { Array($0) } + json
  }
}
