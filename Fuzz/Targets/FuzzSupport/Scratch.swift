import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A folder of this run's own for targets that read files: `$XDG_SHARE_FUZZ_SCRATCH` (run.sh
/// makes one in memory-backed storage and removes it), else one under /tmp.
public func scratchFolder(_ name: String) -> String {
  let base =
    ProcessInfo.processInfo.environment["XDG_SHARE_FUZZ_SCRATCH"] ?? "/tmp/xdg-share-fuzz-\(getpid())"
  let path = base + "/" + name
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

/// Writes `bytes` to `path`, or stops the run: a target that cannot write tests nothing.
public func write(_ bytes: [UInt8], to path: String) {
  do {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  } catch {
    expect(false, "cannot write \(path): \(error)")
  }
}
