internal import Glibc
internal import ShareSyscalls

/// The processes that belong to one request, however they were started: a plugin's helpers may
/// leave its process group (`setpgid`, `Foundation.Process`) or its session (`setsid`), block
/// SIGTERM, or be orphaned and adopted by init. Two things still tie them to the request, and
/// both are read from `/proc`: they descend from the plugin, or they carry the request's marker,
/// an entry of the environment every descendant inherits (`XDG_SHARE_REQUEST_ID=…`).
///
/// A process is named by its pid and start time together, so a pid reused by the time a signal
/// is sent is never taken for the process that had it.
public enum ProcessTree {
  /// One process, as `/proc/PID/stat` names it.
  public struct Member: Hashable, Sendable {
    public let pid: Int32
    /// When it started, in clock ticks after boot (field 22 of `stat`).
    public let startTime: UInt64
  }

  struct Entry {
    var member: Member
    var parent: Int32
    var isZombie: Bool
  }

  /// The live processes that descend from `root` (not `root` itself) or whose environment holds
  /// `marker` (a whole `NAME=VALUE` entry), other than this process.
  public static func members(marked marker: [UInt8], descendingFrom root: Int32? = nil) -> [Member] {
    let entries = snapshot()
    let me = system_getpid()
    var children: [Int32: [Int32]] = [:]
    for entry in entries.values { children[entry.parent, default: []].append(entry.member.pid) }
    var found = Set<Int32>()
    var queue: [Int32] = []
    if let root { queue = children[root] ?? [] }
    for entry in entries.values where entry.member.pid != me && !entry.isZombie {
      if environment(of: entry.member.pid, contains: marker) { queue.append(entry.member.pid) }
    }
    // Whatever descends from a member belongs to the request too, even with the marker removed.
    while let pid = queue.popLast() {
      guard pid != me, found.insert(pid).inserted else { continue }
      queue += children[pid] ?? []
    }
    return found.compactMap { pid in
      entries[pid].flatMap { $0.isZombie ? nil : $0.member }
    }
  }

  /// Ends every process ``members(marked:descendingFrom:)`` finds: SIGTERM, then after `grace`
  /// seconds SIGKILL to what is left; repeated until none is found, for what they start
  /// meanwhile. Returns how many processes were signalled.
  @discardableResult
  public static func end(marked marker: [UInt8], descendingFrom root: Int32? = nil, grace: Double) -> Int {
    var signalled = Set<Member>()
    var remaining = members(marked: marker, descendingFrom: root)
    for member in remaining where send(_SIGTERM, to: member) { signalled.insert(member) }
    let deadline = MonotonicClock.now + grace
    while !remaining.isEmpty, MonotonicClock.now < deadline {
      DetachedThread.sleep(seconds: 0.02)
      remaining = members(marked: marker, descendingFrom: root)
      // A process started after the first round gets its SIGTERM too.
      for member in remaining where !signalled.contains(member) && send(_SIGTERM, to: member) {
        signalled.insert(member)
      }
    }
    // A bounded number of rounds: a fork bomb must not keep the host here for ever.
    for _ in 0..<20 {
      remaining = members(marked: marker, descendingFrom: root)
      if remaining.isEmpty { break }
      for member in remaining where send(_SIGKILL, to: member) { signalled.insert(member) }
      DetachedThread.sleep(seconds: 0.02)
    }
    return signalled.count
  }

  /// Sends `signal` to `member` if its pid still names the same process.
  private static func send(_ signal: Int32, to member: Member) -> Bool {
    guard let entry = read(member.pid), entry.member == member else { return false }
    return system_kill(member.pid, signal) == 0
  }

  /// The process `pid`, with its start time; `nil` when there is none (or `/proc` says nothing).
  public static func member(_ pid: Int32) -> Member? { read(pid)?.member }

  private static func read(_ pid: Int32) -> Entry? {
    guard let stat = contents(of: "/proc/\(pid)/stat", limit: 4096) else { return nil }
    return parseStat(stat)
  }

  /// Every process in `/proc`, by pid.
  private static func snapshot() -> [Int32: Entry] {
    guard let directory = system_opendir("/proc") else { return [:] }
    defer { _ = system_closedir(directory) }
    var entries: [Int32: Entry] = [:]
    while let item = system_readdir(directory) {
      let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard let pid = Int32(name), let entry = read(pid) else { continue }
      entries[pid] = entry
    }
    return entries
  }

  /// `/proc/PID/stat`: the name in parentheses may hold spaces and parentheses, so the fields are
  /// counted from the last `)`.
  static func parseStat(_ bytes: [UInt8]) -> Entry? {
    guard let close = bytes.lastIndex(of: UInt8(ascii: ")")),
      let pid = Int32(String(decoding: bytes.prefix { $0 != UInt8(ascii: " ") }, as: UTF8.self))
    else { return nil }
    let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
    // fields[0] is the state (field 3), fields[1] the parent (4), fields[19] the start time (22).
    guard fields.count > 19, let parent = Int32(String(decoding: fields[1], as: UTF8.self)),
      let start = UInt64(String(decoding: fields[19], as: UTF8.self))
    else { return nil }
    return Entry(
      member: Member(pid: pid, startTime: start), parent: parent,
      isZombie: fields[0].first == UInt8(ascii: "Z"))
  }

  /// Whether `/proc/PID/environ` (readable for this user's own processes) holds `marker` as a
  /// whole entry.
  private static func environment(of pid: Int32, contains marker: [UInt8]) -> Bool {
    guard !marker.isEmpty, let environ = contents(of: "/proc/\(pid)/environ", limit: 1 << 20) else {
      return false
    }
    return environ.split(separator: 0, omittingEmptySubsequences: true).contains { $0.elementsEqual(marker) }
  }

  static func contents(of path: String, limit: Int) -> [UInt8]? {
    let descriptor = system_open(path, _O_RDONLY | _O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { _ = system_close(descriptor) }
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while result.count < limit {
      let read = valueOrErrno {
        buffer.withUnsafeMutableBytes { system_read(descriptor, $0.baseAddress, $0.count) }
      }
      // A process that ends while it is read leaves what was read so far.
      guard case .success(let count) = read, count > 0 else { break }
      result += buffer[0..<count]
    }
    return result
  }
}
