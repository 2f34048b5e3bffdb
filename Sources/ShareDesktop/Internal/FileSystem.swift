import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The few file operations the writer needs with exact semantics Foundation does not promise:
/// an atomic replace that sets the mode before the name appears, a lock, and `errno` as text.
/// Every C call of this module is here.
enum FileSystem {
  /// Why an operation failed, worded by the C library (`strerror`).
  struct Failure: Error, Equatable {
    var message: String
  }

  /// Writes `contents` to `path` through a temporary file in the same folder, flushed and renamed
  /// over the old file, so that a file manager reading at any moment sees the old file or the new
  /// one. The temporary name starts with a dot and ends `.tmp`, which no file manager loads.
  /// The corresponding C functions are `open`, `write`, `fchmod`, `fsync` and `rename`.
  static func writeAtomically(_ contents: String, to path: String, mode: mode_t) throws(Failure) {
    let folder = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    let temporary = "\(folder)/.\(name).\(getpid()).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode)
    guard descriptor >= 0 else { throw failure() }
    var bytes = Array(contents.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { buffer in
        write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        let error = failure()
        close(descriptor)
        unlink(temporary)
        throw error
      }
      offset += written
    }
    // The umask may have narrowed the mode `open` got; Dolphin needs the x bits.
    guard fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else {
      let error = failure()
      close(descriptor)
      unlink(temporary)
      throw error
    }
    close(descriptor)
    guard rename(temporary, path) == 0 else {
      let error = failure()
      unlink(temporary)
      throw error
    }
    bytes.removeAll()
  }

  /// Removes a file; a file that is already gone is no failure. The C function is `unlink`.
  static func remove(_ path: String) throws(Failure) {
    guard unlink(path) == 0 || errno == ENOENT else { throw failure() }
  }

  /// Removes a folder if it is empty; anything else is left as it is. The C function is `rmdir`.
  static func removeIfEmpty(_ folder: String) {
    _ = rmdir(folder)
  }

  /// The file's bytes, or `nil` when there is no regular file at `path`.
  static func contents(of path: String) -> [UInt8]? {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
      let data = FileManager.default.contents(atPath: path)
    else { return nil }
    return Array(data)
  }

  /// Creates `folder` and its missing parents (mode 0755), returning the ones it created,
  /// outermost first.
  static func createFolders(_ folder: String) throws(Failure) -> [String] {
    var missing: [String] = []
    var current = folder
    while !current.isEmpty, current != "/", !FileManager.default.fileExists(atPath: current) {
      missing.insert(current, at: 0)
      current = (current as NSString).deletingLastPathComponent
    }
    for path in missing {
      guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw failure() }
    }
    return missing
  }

  /// Runs `body` while holding an exclusive lock on `path` (created if need be), so that a
  /// `register` and the D-Bus service's re-sync never interleave. Without a lock file (a
  /// read-only folder) `body` runs unlocked. The C function is `flock`.
  static func withLock<T>(_ path: String, _ body: () throws -> T) rethrows -> T {
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return try body() }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
    return try body()
  }

  private static func failure() -> Failure {
    Failure(message: String(cString: strerror(errno)))
  }
}
