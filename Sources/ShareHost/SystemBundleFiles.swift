public import ShareCore
import SharePOSIX

/// ``BundleFiles`` by system calls on byte paths: folders and bundles whose names are not UTF-8
/// are read like any other. Every loader of installed bundles in the host uses it.
public struct SystemBundleFiles: BundleFiles {
  public init() {}

  public func entries(ofDirectory path: FilePath) -> [[UInt8]]? {
    FileSystem.entries(ofDirectory: path.bytes)
  }

  public func kind(of path: FilePath) -> BundleFileKind? {
    guard let status = try? FileSystem.status(path.bytes) else { return nil }
    switch status.kind {
    case .regular: return .regular(size: Int(clamping: status.size))
    case .directory: return .directory
    case .other: return .other
    }
  }

  public func contents(of path: FilePath, maximumSize: Int) -> [UInt8]? {
    FileSystem.contents(ofRegularFile: path.bytes, maximumSize: maximumSize)
  }

  public func isExecutable(_ path: FilePath) -> Bool {
    FileSystem.isExecutable(path.bytes)
  }

  public func linkDestination(of path: FilePath) -> FilePath? {
    FileSystem.linkDestination(path.bytes).map { FilePath(bytes: $0) }
  }
}

extension BundleLoader {
  /// A loader that reads bundles by byte paths, in the languages `environment` prefers.
  public static func system(environment: [String: String]) -> BundleLoader {
    BundleLoader(
      languages: Localization.preferredLanguages(environment: environment), files: SystemBundleFiles())
  }
}

extension SearchPaths {
  /// The folders `environment` names, taking a value this process inherited as the bytes it got
  /// (``SearchPaths/init(environment:inherited:)``): a `HOME` that is not UTF-8 stays itself.
  public static func system(environment: [String: String]) -> SearchPaths {
    SearchPaths(environment: environment, inherited: CurrentProcess.environmentBytes)
  }
}
