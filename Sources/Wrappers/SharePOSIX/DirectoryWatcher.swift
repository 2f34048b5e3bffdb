internal import Glibc
internal import ShareSyscalls

/// Watches folders for entries that appear, change or go (inotify).
public final class DirectoryWatcher {
  private let descriptor: FileDescriptor
  /// By watch descriptor: the folder, and the names of the entries whose changes count (nil: all).
  private var watched: [Int32: (path: [UInt8], names: Set<[UInt8]>?)] = [:]

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
  ///
  /// With `names`, only changes to the entries of those names count, and the folder itself
  /// going: a parent watched until a folder in it is made (`~/.local/state` until
  /// `~/.local/state/xdg-share` appears) must not report every file written beside it.
  @discardableResult
  public func watch(_ path: [UInt8], names: Set<[UInt8]>? = nil) -> Bool {
    let mask =
      _IN_CREATE | _IN_DELETE | _IN_MOVED_FROM | _IN_MOVED_TO | _IN_CLOSE_WRITE | _IN_ATTRIB | _IN_DELETE_SELF
      | _IN_MOVE_SELF | _IN_ONLYDIR
    let id = withCString(path) { system_inotify_add_watch(descriptor.rawValue, $0, mask) }
    guard id >= 0 else { return false }
    // One folder by two paths (a link) is one watch: whatever either asks for counts.
    if let earlier = watched[id] {
      let merged = earlier.names.flatMap { earlier in names.map { earlier.union($0) } }
      watched[id] = (earlier.path, merged)
    } else {
      watched[id] = (path, names)
    }
    return true
  }

  /// Stops watching everything, so that a new set can be watched.
  public func removeAll() {
    for id in watched.keys { _ = system_inotify_rm_watch(descriptor.rawValue, id) }
    watched = [:]
  }

  /// The folders watched now.
  public var paths: Set<[UInt8]> { Set(watched.values.map(\.path)) }

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
        if let watch = watched[id] {
          if let names = watch.names, mask & (_IN_DELETE_SELF | _IN_MOVE_SELF) == 0 {
            // The name is padded with NULs to its length.
            let start = min(offset + headerSize, chunk.count)
            let field = chunk[start..<min(start + length, chunk.count)]
            if names.contains(Array(field.prefix { $0 != 0 })) { folders.insert(watch.path) }
          } else {
            folders.insert(watch.path)
          }
        } else if mask & _IN_Q_OVERFLOW != 0 {
          // Events were lost: anything may have changed.
          folders.formUnion(watched.values.map(\.path))
        }
        offset += headerSize + length
      }
    }
    return folders
  }
}
