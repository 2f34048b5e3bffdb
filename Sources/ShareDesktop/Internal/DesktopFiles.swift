import FoundationEssentials
import ShareCore
import SharePOSIX

/// The few file operations the writer needs with exact semantics Foundation does not promise:
/// an atomic replace that sets the mode before the name appears, and a lock. The system calls are
/// SharePOSIX's; this keeps the writer's own failure type.
enum DesktopFiles {
  /// Why an operation failed, worded by the C library (`strerror`).
  struct Failure: Error, Equatable {
    var message: String
  }

  /// Writes `contents` to `path` atomically with `mode`, so that a file manager reading at any
  /// moment sees the old file or the new one; the temporary name starts with a dot and ends
  /// `.tmp`, which no file manager loads.
  static func writeAtomically(_ contents: String, to path: String, mode: UInt32) throws(Failure) {
    do {
      try SharePOSIX.FileSystem.writeAtomically(Array(contents.utf8), to: Array(path.utf8), mode: mode)
    } catch {
      throw Failure(message: error.reason)
    }
  }

  /// Removes a file; a file that is already gone is no failure.
  static func remove(_ path: String) throws(Failure) {
    do {
      try SharePOSIX.FileSystem.remove(Array(path.utf8))
    } catch  where error.isNotFound {
    } catch {
      throw Failure(message: error.reason)
    }
  }

  /// Removes a folder if it is empty; anything else is left as it is.
  static func removeIfEmpty(_ folder: String) {
    SharePOSIX.FileSystem.removeEmptyDirectory(Array(folder.utf8))
  }

  /// The file's bytes, or `nil` when there is no regular file at `path`.
  static func contents(of path: String) -> [UInt8]? {
    guard (try? SharePOSIX.FileSystem.status(Array(path.utf8)))?.kind != .directory,
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
      current = PathText.parent(of: current)
    }
    for path in missing {
      do {
        try SharePOSIX.FileSystem.makeDirectory(Array(path.utf8))
      } catch {
        throw Failure(message: error.reason)
      }
    }
    return missing
  }

  /// Runs `body` while holding an exclusive lock on `path`, so that a `register` and the D-Bus
  /// service's re-sync never interleave.
  static func withLock<T>(_ path: String, _ body: () throws -> T) rethrows -> T {
    try SharePOSIX.FileSystem.withExclusiveLock(onFile: Array(path.utf8), body)
  }
}
