import Glibc

/// The floors: the least a program must do to answer the same question, in plain system calls.
/// Each figure is reported as a ratio to its floor measured in the same run, so that a faster or
/// slower machine (or a cold or warm page cache) moves both alike.
enum Floors {
  /// Reads a whole file into `buffer`; returns the bytes read, or -1 when it cannot be opened.
  static func readFile(_ path: UnsafePointer<CChar>, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return -1 }
    defer { close(descriptor) }
    var total = 0
    while true {
      let count = read(descriptor, buffer.baseAddress, buffer.count)
      if count <= 0 { break }
      total += count
    }
    return total
  }

  /// The names in `directory`, by `readdir`.
  static func list(_ directory: String) -> [String] {
    guard let stream = opendir(directory) else { return [] }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
        String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// The raw I/O of loading a registry: list the folder, and for each bundle read `Info.plist`,
  /// look for the strings file in each language in turn and read the first found, and check the
  /// executable with `access(X_OK)`. Returns a checksum of the bytes read.
  static func registryIO(
    directory: String, languages: [String], executables: [String: String],
    buffer: UnsafeMutableRawBufferPointer
  ) -> Int {
    var checksum = 0
    for name in list(directory) where name.hasSuffix(".shareext") {
      let bundle = directory + "/" + name
      checksum &+= readFile(bundle + "/Info.plist", into: buffer)
      for language in languages {
        let read = readFile(bundle + "/" + language + ".lproj/InfoPlist.strings", into: buffer)
        if read >= 0 {
          checksum &+= read
          break
        }
      }
      checksum &+= Int(access(bundle + "/" + (executables[name] ?? "share-service"), X_OK))
    }
    return checksum
  }

  /// A bare `stat` of each path: what any detection must at least do.
  static func statEach(_ paths: [[CChar]]) -> Int {
    var total = 0
    var status = stat()
    for path in paths where stat(path, &status) == 0 {
      total &+= Int(status.st_size)
    }
    return total
  }
}
