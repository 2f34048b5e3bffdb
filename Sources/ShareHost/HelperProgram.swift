public import ShareCore
import SharePOSIX

/// xdg-share's helper programs (the sheet, the guard, Purpose's job program, the Web Share
/// host): beside the program they belong to in a build, in `../libexec/xdg-share/` from it once
/// `install.sh` has put them there. Paths are bytes throughout.
public enum HelperProgram {
  /// The running program's path, as `/proc/self/exe` names it; nil when that cannot be read.
  ///
  /// A program replaced while it runs (an upgrade) is named with ` (deleted)` after its path: the
  /// new one is at that path, so the path is the one without it.
  public static func running() -> FilePath? {
    FileSystem.linkDestination(Array("/proc/self/exe".utf8)).map(program(namedBy:))
  }

  /// The program a `/proc/PID/exe` link names: the link without ` (deleted)`.
  static func program(namedBy link: [UInt8]) -> FilePath {
    let deleted = Array(" (deleted)".utf8)
    guard link.count > deleted.count, link.reversed().starts(with: deleted.reversed()) else {
      return FilePath(bytes: link)
    }
    return FilePath(bytes: link.dropLast(deleted.count))
  }

  /// The helper `name` that belongs to the program at `program`: beside it, else in
  /// `../libexec/xdg-share/` from its folder; nil when neither is an executable file.
  public static func locate(_ name: String, besides program: FilePath) -> FilePath? {
    let folder = parent(of: program.bytes)
    let candidates = [
      FilePath(bytes: folder).appending(name),
      FilePath(bytes: parent(of: folder)).appending("libexec/xdg-share/" + name),
    ]
    return candidates.first { FileSystem.isExecutable($0.bytes) }
  }

  /// The helper `name` that belongs to the running program.
  public static func locate(_ name: String) -> FilePath? {
    running().flatMap { locate(name, besides: $0) }
  }

  /// The folder of `path`, as `dirname` gives it: `/a/b` → `/a`, `/a` → `/`.
  private static func parent(of path: [UInt8]) -> [UInt8] {
    guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return [] }
    return slash == 0 ? [UInt8(ascii: "/")] : Array(path[..<slash])
  }
}
