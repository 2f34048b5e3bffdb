import Glibc

/// Watches folders for entries that appear, change or go (inotify).
public final class DirectoryWatcher {
  private let descriptor: FileDescriptor
  private var watched: [Int32: [UInt8]] = [:]

  public init() throws(SystemError) {
    descriptor = FileDescriptor(
      raw: try check("inotify_init1") { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) })
  }

  /// The descriptor to poll, for an ``EventLoop``.
  public var descriptorNumber: Int32 { descriptor.rawValue }

  /// Starts watching `path`; returns whether it could (it may not exist).
  @discardableResult
  public func watch(_ path: String) -> Bool {
    watch(Array(path.utf8))
  }

  /// Starts watching the folder `path`, any bytes; returns whether it could.
  @discardableResult
  public func watch(_ path: [UInt8]) -> Bool {
    let mask =
      IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ATTRIB | IN_DELETE_SELF
      | IN_MOVE_SELF | IN_ONLYDIR
    let id = withCString(path) { inotify_add_watch(descriptor.rawValue, $0, UInt32(mask)) }
    guard id >= 0 else { return false }
    watched[id] = path
    return true
  }

  /// Stops watching everything, so that a new set can be watched.
  public func removeAll() {
    for id in watched.keys { inotify_rm_watch(descriptor.rawValue, id) }
    watched = [:]
  }

  /// The folders watched now.
  public var paths: Set<[UInt8]> { Set(watched.values) }

  /// Reads what happened since the last call: the folders in which something changed.
  public func changedFolders() -> Set<[UInt8]> {
    var folders: Set<[UInt8]> = []
    while let chunk = try? descriptor.read(upTo: 65536), !chunk.isEmpty {
      var offset = 0
      let headerSize = MemoryLayout<inotify_event>.size
      while offset + headerSize <= chunk.count {
        let (id, mask, length) = chunk.withUnsafeBytes { raw in
          let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
          return (event.wd, event.mask, Int(event.len))
        }
        if let path = watched[id] {
          folders.insert(path)
        } else if mask & UInt32(IN_Q_OVERFLOW) != 0 {
          // Events were lost: anything may have changed.
          folders.formUnion(watched.values)
        }
        offset += headerSize + length
      }
    }
    return folders
  }
}
