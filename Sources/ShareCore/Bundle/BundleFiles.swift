import FoundationEssentials

/// What the bundle loader reads of the file system, by byte paths.
///
/// ShareCore makes no system calls: a host hands in a conformance that reads names and files as
/// bytes (ShareHost's `SystemBundleFiles`), so that a bundle in a folder whose name is not UTF-8
/// loads like any other. ``FoundationBundleFiles``, the default, reads through `FileManager`, which
/// only reaches UTF-8 paths.
public protocol BundleFiles: Sendable {
  /// The names in the folder `path`; nil when it cannot be read.
  func entries(ofDirectory path: FilePath) -> [[UInt8]]?
  /// What `path` is, a symbolic link followed; nil when nothing is there.
  func kind(of path: FilePath) -> BundleFileKind?
  /// The regular file `path` when it is at most `maximumSize` bytes; nil otherwise.
  func contents(of path: FilePath, maximumSize: Int) -> [UInt8]?
  /// Whether `path` may be executed.
  func isExecutable(_ path: FilePath) -> Bool
  /// Where the symbolic link `path` leads; nil when it is no link.
  func linkDestination(of path: FilePath) -> FilePath?
}

/// A file as ``BundleFiles/kind(of:)`` tells it.
public enum BundleFileKind: Sendable, Hashable {
  case regular(size: Int)
  case directory
  case other
}

/// ``BundleFiles`` through `FileManager`: paths that are not UTF-8 are not there for it.
public struct FoundationBundleFiles: BundleFiles {
  public init() {}

  public func entries(ofDirectory path: FilePath) -> [[UInt8]]? {
    guard let text = path.string, let names = try? FileManager.default.contentsOfDirectory(atPath: text)
    else { return nil }
    return names.map { Array($0.utf8) }
  }

  public func kind(of path: FilePath) -> BundleFileKind? {
    guard let text = path.string else { return nil }
    var isDirectory = false
    guard FileManager.default.fileExists(atPath: text, isDirectory: &isDirectory) else { return nil }
    if isDirectory { return .directory }
    // attributesOfItem looks at a link itself; the file it leads to is what counts.
    let resolved = URL(fileURLWithPath: text).resolvingSymlinksInPath().path
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved) else { return nil }
    guard attributes[.type] as? FileAttributeType == .typeRegular else { return .other }
    return .regular(size: Self.size(attributes[.size]))
  }

  public func contents(of path: FilePath, maximumSize: Int) -> [UInt8]? {
    guard case .regular(let size)? = kind(of: path), size <= maximumSize, let text = path.string,
      let data = FileManager.default.contents(atPath: text)
    else { return nil }
    return [UInt8](data)
  }

  public func isExecutable(_ path: FilePath) -> Bool {
    path.string.map { FileManager.default.isExecutableFile(atPath: $0) } ?? false
  }

  public func linkDestination(of path: FilePath) -> FilePath? {
    guard let text = path.string,
      let target = try? FileManager.default.destinationOfSymbolicLink(atPath: text)
    else { return nil }
    return FilePath(target)
  }

  /// A file size as `attributesOfItem` gives it (its type differs between Foundation versions).
  static func size(_ value: Any?) -> Int {
    switch value {
    case let size as Int: size
    case let size as UInt: Int(clamping: size)
    case let size as Int64: Int(clamping: size)
    case let size as UInt64: Int(clamping: size)
    default: 0
    }
  }
}
