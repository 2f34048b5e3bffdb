internal import Glibc
internal import ShareSyscalls

/// Watches folders for entries that appear, change or go (inotify).
public final class DirectoryWatcher {
  private let descriptor: FileDescriptor
  private var watched: [Int32: [UInt8]] = [:]

  public init() throws(SystemError) {
    descriptor = FileDescriptor(
      raw: try check("inotify_init1") { system_inotify_init1(_IN_CLOEXEC | _IN_NONBLOCK) })
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
      _IN_CREATE | _IN_DELETE | _IN_MOVED_FROM | _IN_MOVED_TO | _IN_CLOSE_WRITE | _IN_ATTRIB | _IN_DELETE_SELF
      | _IN_MOVE_SELF | _IN_ONLYDIR
    let id = withCString(path) { system_inotify_add_watch(descriptor.rawValue, $0, mask) }
    guard id >= 0 else { return false }
    watched[id] = path
    return true
  }

  /// Stops watching everything, so that a new set can be watched.
  public func removeAll() {
    for id in watched.keys { _ = system_inotify_rm_watch(descriptor.rawValue, id) }
    watched = [:]
  }

  /// The folders watched now.
  public var paths: Set<[UInt8]> { Set(watched.values) }

  /// Reads what happened since the last call: the folders in which something changed.
  public func changedFolders() -> Set<[UInt8]> {
    var folders: Set<[UInt8]> = []
    while let chunk = try? descriptor.read(upTo: 65536), !chunk.isEmpty {
      var offset = 0
      let headerSize = MemoryLayout<CInterop.InotifyEvent>.size
      while offset + headerSize <= chunk.count {
        let (id, mask, length) = chunk.withUnsafeBytes { raw in
          let event = raw.loadUnaligned(fromByteOffset: offset, as: CInterop.InotifyEvent.self)
          return (event.wd, event.mask, Int(event.len))
        }
        if let path = watched[id] {
          folders.insert(path)
        } else if mask & _IN_Q_OVERFLOW != 0 {
          // Events were lost: anything may have changed.
          folders.formUnion(watched.values)
        }
        offset += headerSize + length
      }
    }
    return folders
  }
}
