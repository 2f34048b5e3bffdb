import ShareCore
import SharePOSIX

/// A sandboxed service's direct targets, carried out of its container (docs/sandbox.md, "Direct
/// targets"): inside, `XDG_STATE_HOME` is the container's `state`, so ShareKit's
/// ``DirectTargetsFile`` lands in `<container>/state/xdg-share/targets/<id>.json`, where no
/// picker looks. After every run of the program (a share, a publisher run) the host takes that
/// one file, the service's own, and installs it atomically in its own folder of targets.
struct ContainerTargets: Sendable {
  /// The service's file in its container.
  let inside: [UInt8]
  /// The service's file in the host's folder of targets.
  let outside: FilePath
  /// Whether the file was in the container when the program started: only a file the run
  /// removed removes the host's copy, so that a service that never published from its sandbox
  /// leaves alone what an application published for it outside.
  let existedAtStart: Bool

  init(serviceID: String, container: [UInt8], hostStore: DirectTargetStore) {
    inside =
      container + Array("/state/".utf8) + DirectTargetsFile.folder.utf8 + Array("/\(serviceID).json".utf8)
    outside = hostStore.file(of: serviceID)
    existedAtStart = (try? FileSystem.linkStatus(inside)) != nil
  }

  /// Installs the container's file in the host's folder, or removes the host's copy when the
  /// run removed the file. Only a regular file (not a link, nor a FIFO) within
  /// ``DirectTargetsFile/maximumSize`` is copied, byte for byte, so that the host's reader finds
  /// in it what it would have found in the service's own; one that is not is published nothing,
  /// as the picker reads it (its copy is removed).
  func collect() {
    let status = try? FileSystem.linkStatus(inside)
    if status == nil && !existedAtStart { return }
    guard status?.node == .regular,
      let bytes = FileSystem.contents(ofRegularFile: inside, maximumSize: DirectTargetsFile.maximumSize)
    else {
      try? FileSystem.remove(outside.bytes)
      return
    }
    let folder = outside.bytes.lastIndex(of: UInt8(ascii: "/")).map { Array(outside.bytes[..<$0]) } ?? []
    try? FileSystem.makeDirectories(folder, mode: 0o700)
    try? FileSystem.writeAtomically(bytes, to: outside.bytes, mode: 0o600)
  }
}
