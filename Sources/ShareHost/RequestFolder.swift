public import ShareCore
public import SharePOSIX

/// The private folder one request's files are written into, when they come as bytes rather than
/// paths (a web page's, a sandboxed app's): `<kind>/<pid>-<random>` in `$XDG_RUNTIME_DIR/xdg-share`
/// (the user's alone, gone at logout; `$XDG_STATE_HOME/xdg-share` without one), mode 0700, each
/// file 0600, made new (`O_EXCL`, never through a link). It goes when the request ends; one left
/// by a process that was killed goes the next time one of its kind is made.
public final class RequestFolder: Sendable {
  public let path: FilePath

  /// What the folder's files came as, and the folder its request folders are made in.
  public enum Kind: String, Sendable {
    /// A web page's files (`navigator.share`).
    case webShare = "web-share"
    /// Files an application handed over as descriptors.
    case handedOver = "handed-over"
    /// A broker's socket, for one run of a service's program (``Broker``).
    case broker
    /// The files a sandboxed service handed the broker that have no path on the host, copied for
    /// the mail program or the viewer: folders of their own in this one, kept until logout.
    case attachments
  }

  /// Why the folder or a file in it could not be made.
  public struct Failure: Error, Equatable, Sendable {
    public var message: String

    public init(message: String) {
      self.message = message
    }
  }

  /// The folder the request folders are made in.
  public static func parent(of kind: Kind, paths: SearchPaths) -> FilePath {
    (paths.runtimeDirectoryLocation ?? paths.stateHomeLocation).appending("xdg-share").appending(
      kind.rawValue)
  }

  /// Makes a new request folder, after removing those whose process has gone.
  public init(_ kind: Kind, paths: SearchPaths) throws(Failure) {
    let parent = Self.parent(of: kind, paths: paths)
    do {
      try FileSystem.makeDirectories(parent.bytes, mode: 0o700)
    } catch {
      throw Failure(message: "cannot make \(parent.text): \(error.reason)")
    }
    Self.removeAbandoned(in: parent)
    let name = "\(ProcessStatus.currentProcess)-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
    path = parent.appending(name)
    do {
      try FileSystem.makeDirectory(path.bytes, mode: 0o700)
    } catch {
      throw Failure(message: "cannot make \(path.text): \(error.reason)")
    }
  }

  deinit {
    remove()
  }

  /// The path of the file `name` in the folder.
  public func path(of name: String) -> FilePath { path.appending(name) }

  /// Creates the file `name` in the folder, for writing.
  public func create(_ name: String) throws(Failure) -> FileDescriptor {
    let file = path.appending(name)
    do {
      return try FileDescriptor.createNew(file.bytes, mode: 0o600)
    } catch {
      throw Failure(message: "cannot write \(file.text): \(error.reason)")
    }
  }

  /// Removes the folder and what is in it; later calls do nothing.
  public func remove() {
    try? FileSystem.removeTree(path.bytes)
  }

  /// Removes the request folders in `parent` whose host (the pid their name starts with) has gone.
  static func removeAbandoned(in parent: FilePath) {
    for entry in FileSystem.entries(ofDirectory: parent.bytes) ?? [] {
      let name = String(decoding: entry, as: UTF8.self)
      guard let dash = name.firstIndex(of: "-"), let pid = Int32(name[..<dash]), !ProcessStatus.isAlive(pid)
      else {
        continue
      }
      try? FileSystem.removeTree(parent.appending(entry).bytes)
    }
  }
}
