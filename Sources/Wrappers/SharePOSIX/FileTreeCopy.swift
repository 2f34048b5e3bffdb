internal import ShareSyscalls

// Copying a folder tree and following links by bytes, for `install`: a bundle, or the folder it
// goes to, whose name is not UTF-8 is copied like any other (FileManager needs text paths).

extension FileSystem {
  /// Copies the folder `source` (a symbolic link to a folder is followed) to `destination`,
  /// which must not exist: regular files with their permission bits, folders with theirs, and
  /// symbolic links as links to the same target (never followed). Anything else (a FIFO, a
  /// device, a socket) fails with `EINVAL`. Returns the paths of the links it made, relative to
  /// `destination`, outermost first.
  @discardableResult
  public static func copyTree(_ source: [UInt8], to destination: [UInt8]) throws(SystemError) -> [[UInt8]] {
    let top = try status(source)
    guard top.node == .directory else {
      throw SystemError(call: "copy", errno: _ENOTDIR, subject: String(decoding: source, as: UTF8.self))
    }
    var links: [[UInt8]] = []
    try copyFolder(source, to: destination, permissions: top.permissions, relative: [], links: &links)
    return links
  }

  private static func copyFolder(
    _ source: [UInt8], to destination: [UInt8], permissions: UInt32, relative: [UInt8], links: inout [[UInt8]]
  ) throws(SystemError) {
    let subject = String(decoding: destination, as: UTF8.self)
    // Made owner-writable first, so that a read-only folder can be filled; its own bits last.
    try withCString(destination) { cPath throws(SystemError) in
      _ = try check("mkdir", subject: subject) { system_mkdir(cPath, 0o700) }
    }
    guard let names = entries(ofDirectory: source) else {
      throw SystemError(call: "opendir", .current, subject: String(decoding: source, as: UTF8.self))
    }
    for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
      let from = source + [UInt8(ascii: "/")] + name
      let to = destination + [UInt8(ascii: "/")] + name
      let path = relative.isEmpty ? name : relative + [UInt8(ascii: "/")] + name
      let node = try linkStatus(from)
      switch node.node {
      case .directory:
        try copyFolder(from, to: to, permissions: node.permissions, relative: path, links: &links)
      case .regular:
        try copyFile(from, to: to, permissions: node.permissions)
      case .symbolicLink:
        guard let target = linkDestination(from) else {
          throw SystemError(call: "readlink", .current, subject: String(decoding: from, as: UTF8.self))
        }
        try makeSymbolicLink(at: to, leadingTo: target)
        links.append(path)
      default:
        throw SystemError(call: "copy", errno: _EINVAL, subject: String(decoding: from, as: UTF8.self))
      }
    }
    try withCString(destination) { cPath throws(SystemError) in
      _ = try check("chmod", subject: subject) { system_chmod(cPath, permissions & 0o7777) }
    }
  }

  private static func copyFile(_ source: [UInt8], to destination: [UInt8], permissions: UInt32)
    throws(SystemError)
  {
    let input = try FileDescriptor.openForReading(source)
    defer { input.close() }
    let output = try FileDescriptor.createNew(destination, mode: 0o600)
    defer { output.close() }
    while true {
      let chunk = try input.read(upTo: 1 << 16)
      if chunk.isEmpty { break }
      try output.write(chunk)
    }
    let raw = output.rawValue
    try check("fchmod", subject: String(decoding: destination, as: UTF8.self)) {
      system_fchmod(raw, permissions & 0o7777)
    }
  }

  /// Makes a symbolic link at `path` whose target is `target`, as given (`symlink`).
  public static func makeSymbolicLink(at path: [UInt8], leadingTo target: [UInt8]) throws(SystemError) {
    try withCString(target) { cTarget throws(SystemError) in
      try withCString(path) { cPath throws(SystemError) in
        _ = try check("symlink", subject: String(decoding: path, as: UTF8.self)) {
          system_symlink(cTarget, cPath)
        }
      }
    }
  }

  /// The absolute path `path` names, every symbolic link on the way followed and `.` and `..`
  /// taken away (`realpath`); nil when it leads to nothing.
  public static func resolvedPath(_ path: [UInt8]) -> [UInt8]? {
    guard let resolved = withCString(path, { system_realpath($0) }) else { return nil }
    defer { system_free(resolved) }
    return cStringBytes(resolved)
  }
}

extension FileSystem {
  /// Gives the file `path` names (a link followed) the permission bits `mode` (`chmod`).
  public static func changePermissions(of path: [UInt8], to mode: UInt32) throws(SystemError) {
    try withCString(path) { cPath throws(SystemError) in
      _ = try check("chmod", subject: String(decoding: path, as: UTF8.self)) { system_chmod(cPath, mode) }
    }
  }
}
