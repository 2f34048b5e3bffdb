import ShareCore
import SharePOSIX

/// The few file operations the writer needs with exact semantics Foundation does not promise:
/// an atomic replace that sets the mode before the name appears, and a lock. The system calls are
/// SharePOSIX's, on byte paths (a data folder or `HOME` that is not UTF-8 is written like any
/// other); this keeps the writer's own failure type.
enum DesktopFiles {
  /// Why an operation failed, worded by the C library (`strerror`).
  struct Failure: Error, Equatable {
    var message: String
  }

  /// Writes `contents` to `path` atomically with `mode`, so that a file manager reading at any
  /// moment sees the old file or the new one; the temporary name starts with a dot and ends
  /// `.tmp`, which no file manager loads.
  static func writeAtomically(_ contents: String, to path: FilePath, mode: UInt32) throws(Failure) {
    do {
      try SharePOSIX.FileSystem.writeAtomically(Array(contents.utf8), to: path.bytes, mode: mode)
    } catch {
      throw Failure(message: error.reason)
    }
  }

  /// Removes a file; a file that is already gone is no failure.
  static func remove(_ path: FilePath) throws(Failure) {
    do {
      try SharePOSIX.FileSystem.remove(path.bytes)
    } catch  where error.isNotFound {
    } catch {
      throw Failure(message: error.reason)
    }
  }

  /// Removes a folder if it is empty; anything else is left as it is.
  static func removeIfEmpty(_ folder: FilePath) {
    SharePOSIX.FileSystem.removeEmptyDirectory(folder.bytes)
  }

  /// Gives the file at `path` the permission bits `mode`; a failure is ignored (the file is
  /// someone else's, and was right but for its mode).
  static func setMode(_ mode: UInt32, of path: FilePath) {
    try? SharePOSIX.FileSystem.changePermissions(of: path.bytes, to: mode)
  }

  /// Whether `path` leads to something, a link followed (as `FileManager.fileExists` answers: a
  /// dangling link is nothing).
  static func exists(_ path: FilePath) -> Bool {
    (try? SharePOSIX.FileSystem.status(path.bytes)) != nil
  }

  /// The file's bytes, or `nil` when there is no regular file at `path` (or it cannot be read).
  static func contents(of path: FilePath) -> [UInt8]? {
    guard (try? SharePOSIX.FileSystem.status(path.bytes))?.kind == .regular,
      let file = try? FileDescriptor.openForReading(path.bytes)
    else { return nil }
    defer { file.close() }
    return try? file.readToEnd()
  }

  /// Creates `folder` and its missing parents (mode 0755), returning the ones it created,
  /// outermost first.
  static func createFolders(_ folder: FilePath) throws(Failure) -> [FilePath] {
    var missing: [FilePath] = []
    var current = folder
    while !current.bytes.isEmpty, current.bytes != [UInt8(ascii: "/")], !exists(current) {
      missing.insert(current, at: 0)
      current = parent(of: current)
    }
    for path in missing {
      do {
        try SharePOSIX.FileSystem.makeDirectory(path.bytes)
      } catch {
        throw Failure(message: error.reason)
      }
    }
    return missing
  }

  /// `/a/b` → `/a`, `/a` → `/`, `a` → `` (``PathText/parent(of:)`` on bytes); trailing slashes
  /// are ignored.
  static func parent(of path: FilePath) -> FilePath {
    let slash = UInt8(ascii: "/")
    var bytes = path.trimmingTrailingSlashes.bytes
    guard let last = bytes.lastIndex(of: slash) else { return FilePath(bytes: []) }
    bytes.removeSubrange(last...)
    return bytes.isEmpty ? FilePath("/") : FilePath(bytes: bytes).trimmingTrailingSlashes
  }

  /// Runs `body` while holding an exclusive lock on `path`, so that a `register` and the D-Bus
  /// service's re-sync never interleave.
  static func withLock<T>(_ path: FilePath, _ body: () throws -> T) rethrows -> T {
    try SharePOSIX.FileSystem.withExclusiveLock(onFile: path.bytes, body)
  }
}
