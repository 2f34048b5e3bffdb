import ShareCore
import ShareGLib
import SharePOSIX
import Synchronization

/// How `QueryItems` looks at files: a type the caller gives is trusted and the file is not
/// touched (a missing file is no error there; `Share` still inspects every file), and GIO's
/// guesses come from a ``DetectionMemo``.
struct QueryInspector: FileInspector {
  /// Paths given at least once without a type: those are looked at even where a type is given
  /// too. Empty unless the call mixes typed and untyped files (then hashing every path pays).
  let detected: Set<FilePath>
  let memo: DetectionMemo

  /// The inspector for one call's `items`.
  init(items: [RequestedItem], memo: DetectionMemo) {
    var typed = false
    var untyped = false
    for requested in items {
      guard case .file = requested.item else { continue }
      if requested.mimeType == nil { untyped = true } else { typed = true }
    }
    var detected: Set<FilePath> = []
    if typed && untyped {
      for requested in items where requested.mimeType == nil {
        if case .file(let path) = requested.item { detected.insert(path) }
      }
    }
    self.detected = detected
    self.memo = memo
  }

  func inspect(_ path: FilePath) throws(FileProblem) -> FileFacts {
    try memo.inspect(path)
  }

  func inspect(_ path: FilePath, givenType: String?) throws(FileProblem) -> FileFacts {
    if let type = givenType, detected.isEmpty || !detected.contains(path) {
      // The type system puts the given type in place of this one; only a directory's kind
      // matters to rules, and a caller that says `inode/directory` means one.
      return FileFacts(contentType: type, size: 0, isDirectory: Self.isDirectoryType(type))
    }
    return try memo.inspect(path)
  }

  /// `type.lowercased() == "inode/directory"`, without making the lowercased copy.
  static func isDirectoryType(_ type: String) -> Bool {
    let expected = "inode/directory".utf8
    guard type.utf8.count == expected.count else { return false }
    return zip(type.utf8, expected).allSatisfy { pair in
      let byte = pair.0
      return (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte) == pair.1
    }
  }
}

/// GIO's answers remembered by what decides them: the file's name and its current `stat`
/// (device, inode, size, modification time), so that a file changed or replaced is looked at
/// again. Bounded by the bytes it holds; when a new answer does not fit it starts over.
final class DetectionMemo: Sendable {
  private struct Key: Hashable {
    // The integers first: equality compares in this order, and a probe of the table that meets
    // another file's entry is told apart by its inode without reading the path.
    var device: UInt64
    var inode: UInt64
    var size: UInt64
    var modified: Int64
    var path: FilePath

    // The device and inode alone, in one word: they tell files apart (only hard links share
    // them, and a file changed in place keeps them), and hashing the path's bytes was most of a
    // lookup's cost. Equality still compares everything, the path too, as the name decides GIO's
    // guess.
    func hash(into hasher: inout Hasher) {
      hasher.combine(inode ^ device &* 0x9E37_79B9_7F4A_7C15)
    }
  }

  /// The bytes the memo may hold: each entry's path, type and a fixed overhead.
  let capacity: Int
  private let state = Mutex<(facts: [Key: FileFacts], bytes: Int)>(([:], 0))
  /// What a dictionary entry costs besides its path and type: the key's integers, the facts,
  /// the strings' headers and the table's slot.
  static let entryOverhead = 96

  init(capacity: Int) {
    self.capacity = capacity
  }

  var count: Int { state.withLock { $0.facts.count } }

  func inspect(_ path: FilePath) throws(FileProblem) -> FileFacts {
    // What `stat` cannot see (a dangling link, a missing file) goes to GIO's inspector, which
    // names the problem; only files that exist are remembered.
    guard let status = try? FileSystem.status(path.bytes) else { return try GIOFileInspector().inspect(path) }
    let key = Key(
      device: status.device, inode: status.inode, size: status.size, modified: status.modified, path: path)
    if let known = state.withLock({ $0.facts[key] }) { return known }
    let facts = try GIOFileInspector().inspect(path)
    let size = key.path.bytes.count + facts.contentType.utf8.count + Self.entryOverhead
    guard size <= capacity else { return facts }
    state.withLock { state in
      if state.bytes + size > capacity { state = ([:], 0) }
      state.facts[key] = facts
      state.bytes += size
    }
    return facts
  }
}
