import FoundationEssentials
import ShareCore
public import ShareKit
import SharePOSIX

/// Save to Folder: copies the shared files into a folder, never replacing a file there; texts
/// become `Text.txt` and links `<host>.desktop` link files. Returns the new files' paths.
///
/// The folder is the `folder` configuration item, when the user chose one in the compose sheet or
/// with `xdg-share configure org.xdgshare.save-to-folder`; else `Folder=` in
/// `$XDG_CONFIG_HOME/xdg-share/save-to-folder.ini`:
///
/// ```ini
/// [Save to Folder]
/// Folder=~/Shared
/// ```
///
/// and by default the desktop's Public Share folder (`XDG_PUBLICSHARE_DIR` in
/// `$XDG_CONFIG_HOME/user-dirs.dirs`), else `~/Public`. It is created when missing.
///
/// The folders saved to last are its direct targets (``ShareTargets``): the sheet offers them
/// first, and one chosen is where the items go, without the compose sheet asking.
///
/// A name that is taken gets a number: `photo (2).png` (see ``FileNames/numbered(_:_:)``). Each
/// file is copied to a hidden temporary name in the folder, flushed to disk, then given its name
/// with `link(2)`, which fails rather than replace anything; where the file system has no hard
/// links (FAT), the name is first claimed with `O_EXCL` and the copy renamed onto that claim.
public struct SaveToFolderService: ShareExtension {
  public static let identifier = "org.xdgshare.save-to-folder"

  public init() {}

  public func perform(context: ExtensionContext) async throws {
    let environment = ServiceEnvironment()
    let content = SharedContent(context.inputItems)
    guard !content.isEmpty else { throw ShareError("Nothing to save: no files, links or texts were shared") }
    let sources = try FolderSaver.sources(for: content)
    let folder = try Self.destination(
      chosen: context.target?.identifier ?? context.composition?.configuration["folder"],
      environment: environment)
    let saver = FolderSaver(folder: folder, displayFolder: environment.abbreviated(folder)) {
      fraction, message in
      context.setProgress(fraction, message: message)
    }
    let saved = try saver.save(sources)
    // The targets follow what was saved; failing to publish them fails nothing that was saved.
    try? Self.publishRecent(folder, environment: environment)
    context.completeRequest(returningItems: [ExtensionItem(attachments: saved)])
  }

  /// How many folders saved to are offered.
  static let recentFolders = 4

  /// Puts `folder` first among the published targets, the ones before it after, at most
  /// ``recentFolders``. A folder whose path is not UTF-8 is not one a target can name.
  static func publishRecent(_ folder: FilePath, environment: ServiceEnvironment) throws {
    guard let path = folder.string else { return }
    let published = DirectTargetStore.read(environment: environment, service: identifier)
    // Folders gone since are no targets any more.
    let earlier = published.filter {
      $0.identifier != path && (try? FileSystem.status(Array($0.identifier.utf8)))?.kind == .directory
    }
    let name = String(decoding: folder.lastComponent, as: UTF8.self)
    let this = ShareTarget(
      identifier: path, title: name.isEmpty ? path : name, subtitle: environment.abbreviated(folder),
      iconName: "folder")
    try ShareTargets.publish(Array(([this] + earlier).prefix(recentFolders)), forService: identifier)
  }
}

/// The targets a bundled service published before, read back as ShareKit's.
enum DirectTargetStore {
  static func read(environment: ServiceEnvironment, service: String) -> [ShareTarget] {
    let file = environment.stateHome.appending(DirectTargetsFile.folder).appending(service + ".json")
    guard
      let bytes = FileSystem.contents(ofRegularFile: file.bytes, maximumSize: DirectTargetsFile.maximumSize)
    else { return [] }
    return DirectTargetsFile(parsing: bytes).targets.map {
      ShareTarget(
        identifier: $0.id, title: $0.title, subtitle: $0.subtitle, iconName: $0.icon,
        contentTypes: $0.contentTypes)
    }
  }
}

/// Copies shared things into one folder, never replacing a file there.
struct FolderSaver {
  /// The folder, as bytes.
  let folder: [UInt8]
  /// The folder for messages (`~/Public`).
  let displayFolder: String
  /// Called with the fraction done and what is happening.
  let progress: (Double, String) -> Void

  /// How much is read and written at a time.
  static let chunkSize = 1 << 20
  /// After how many names a save gives up (`photo (1000).png`).
  static let maximumNumber = 9999

  init(folder: FilePath, displayFolder: String, progress: @escaping (Double, String) -> Void) {
    self.folder = folder.bytes
    self.displayFolder = displayFolder
    self.progress = progress
  }

  /// What a thing becomes: its bytes come from a file or from memory.
  enum Source {
    case file(SharedFile, FileStatus)
    case bytes(name: [UInt8], contents: [UInt8], typeIdentifiers: [String])
  }

  /// What `content` becomes; checks that every file can be saved before anything is.
  ///
  /// - Throws: ``ShareError`` naming a folder, a special file or a file that cannot be read.
  static func sources(for content: SharedContent) throws -> [Source] {
    var sources: [Source] = []
    for thing in content.things {
      switch thing {
      case .file(let file):
        let status: FileStatus
        do {
          status = try FileSystem.status(file.path)
        } catch {
          throw ShareError("Cannot read \(file.displayName): \(error.reason)")
        }
        switch status.kind {
        case .regular: sources.append(.file(file, status))
        case .directory:
          throw ShareError("\(file.displayName) is a folder; Save to Folder saves files only")
        case .other:
          throw ShareError("\(file.displayName) is not a regular file and cannot be saved")
        }
      case .text(let text):
        sources.append(
          .bytes(
            name: Array("Text.txt".utf8), contents: Array(text.utf8),
            typeIdentifiers: ["public.plain-text", "text/plain"]))
      case .link(let url):
        sources.append(
          .bytes(
            name: Self.linkFileName(url), contents: Self.linkFile(url),
            typeIdentifiers: ["application/x-desktop"]))
      }
    }
    return sources
  }

  /// Saves `sources` in order; returns the new files.
  ///
  /// - Throws: ``ShareError`` saying which thing could not be saved, and how many were.
  func save(_ sources: [Source]) throws -> [ItemProvider] {
    let total = sources.reduce(UInt64(0)) { sum, source in
      switch source {
      case .file(_, let status): sum + status.size
      case .bytes(_, let contents, _): sum + UInt64(contents.count)
      }
    }
    var meter = ProgressMeter(total: total, report: progress)
    var saved: [ItemProvider] = []
    for source in sources {
      do {
        switch source {
        case .file(let file, let status):
          let path = try copy(file, status: status, meter: &meter)
          saved.append(ItemProvider(filePathBytes: path, typeIdentifiers: file.typeIdentifiers))
        case .bytes(let name, let contents, let typeIdentifiers):
          let path = try write(contents, name: name, meter: &meter)
          saved.append(ItemProvider(filePathBytes: path, typeIdentifiers: typeIdentifiers))
        }
      } catch var error {
        if !saved.isEmpty {
          error.message += " (\(saved.count) of \(sources.count) saved before)"
        }
        throw error
      }
    }
    meter.finish()
    return saved
  }

  /// Copies `file` in chunks; returns the new path.
  private func copy(_ file: SharedFile, status: FileStatus, meter: inout ProgressMeter) throws(ShareError)
    -> [UInt8]
  {
    let message = "Copying \(file.displayName)"
    meter.begin(message)
    let input: FileDescriptor
    do {
      input = try FileDescriptor.openForReading(file.path)
    } catch {
      throw ShareError("Cannot read \(file.displayName): \(error.reason)")
    }
    defer { input.close() }
    return try place(name: file.name, displayName: file.displayName, mode: Self.savedMode(of: status)) {
      (output: FileDescriptor) throws(ShareError) in
      while true {
        let chunk: [UInt8]
        do throws(SystemError) {
          chunk = try input.read(upTo: Self.chunkSize)
        } catch {
          throw ShareError("Cannot read \(file.displayName): \(error.reason)")
        }
        if chunk.isEmpty { return }
        try write(chunk, to: output, displayName: file.displayName)
        meter.advance(UInt64(chunk.count), message)
      }
    }
  }

  /// Writes `contents` as a new file called `name` (or a numbered name); returns its path.
  private func write(_ contents: [UInt8], name: [UInt8], meter: inout ProgressMeter) throws(ShareError)
    -> [UInt8]
  {
    let displayName = FileNames.display(name)
    let message = "Saving \(displayName)"
    meter.begin(message)
    return try place(name: name, displayName: displayName, mode: Self.savedMode(of: nil)) {
      (output: FileDescriptor) throws(ShareError) in
      try write(contents, to: output, displayName: displayName)
      meter.advance(UInt64(contents.count), message)
    }
  }

  private func write(_ bytes: [UInt8], to output: FileDescriptor, displayName: String) throws(ShareError) {
    do {
      try output.write(bytes)
    } catch {
      throw ShareError.serviceFailed("Cannot save \(displayName) in \(displayFolder): \(error.reason)")
    }
  }

  /// The mode a saved file is created with, before the umask: the user's usual mode for a new
  /// file (0644 with a umask of 022), and executable when the source is executable by its owner.
  /// Not the source's own: a file handed over by a web page or a sandboxed app is the host's
  /// private copy (0600, 0400), and what is saved of it is the user's like any other new file.
  static func savedMode(of source: FileStatus?) -> UInt32 {
    (source?.permissions ?? 0) & 0o100 != 0 ? 0o777 : 0o666
  }

  /// Writes a temporary file in the folder with `fill`, then gives it the first free name of
  /// `name`, `name (2)`, …; returns the path. The temporary file never outlives a failure or
  /// SIGTERM.
  private func place(
    name: [UInt8], displayName: String, mode: UInt32, fill: (FileDescriptor) throws(ShareError) -> Void
  ) throws(ShareError) -> [UInt8] {
    let (temporary, output, token) = try createTemporary(mode: mode | 0o600, displayName: displayName)
    defer {
      try? FileSystem.remove(temporary)
      TemporaryFiles.forget(token)
    }
    defer { output.close() }
    try fill(output)
    do {
      try output.synchronize()
    } catch {
      throw ShareError.serviceFailed("Cannot save \(displayName) in \(displayFolder): \(error.reason)")
    }
    return try claimName(for: temporary, name: name, displayName: displayName)
  }

  /// A new hidden file in the folder, `.xdg-share-<random>.part`, registered for removal on
  /// SIGTERM before it exists, so that no moment leaves it behind.
  private func createTemporary(
    mode: UInt32, displayName: String
  ) throws(ShareError) -> (path: [UInt8], descriptor: FileDescriptor, token: Int) {
    while true {
      let random = String(UInt64.random(in: 0...UInt64.max), radix: 36)
      let path = folder + Array("/.xdg-share-\(random).part".utf8)
      let token = TemporaryFiles.register(path)
      do {
        return (path, try FileDescriptor.createNew(path, mode: mode), token)
      } catch {
        TemporaryFiles.forget(token)
        if error.isAlreadyExists { continue }
        throw ShareError.serviceFailed("Cannot save \(displayName) in \(displayFolder): \(error.reason)")
      }
    }
  }

  /// Gives `temporary` the first free name; never replaces a file.
  private func claimName(for temporary: [UInt8], name: [UInt8], displayName: String) throws(ShareError)
    -> [UInt8]
  {
    var useLinks = true
    for number in 1...Self.maximumNumber {
      let candidate = folder + [UInt8(ascii: "/")] + FileNames.numbered(name, number)
      if useLinks {
        do {
          try FileSystem.link(temporary, as: candidate)
          return candidate
        } catch {
          if error.isAlreadyExists { continue }
          guard error.isUnsupported else {
            throw ShareError.serviceFailed("Cannot save \(displayName) in \(displayFolder): \(error.reason)")
          }
          useLinks = false
        }
      }
      // No hard links here: claim the name with O_EXCL, then rename the copy onto the claim.
      let claimToken = TemporaryFiles.register(candidate)
      defer { TemporaryFiles.forget(claimToken) }
      do {
        let claim = try FileDescriptor.createNew(candidate, mode: 0o600)
        claim.close()
      } catch {
        TemporaryFiles.forget(claimToken)
        if error.isAlreadyExists { continue }
        throw ShareError.serviceFailed("Cannot save \(displayName) in \(displayFolder): \(error.reason)")
      }
      do {
        try FileSystem.rename(temporary, to: candidate)
        return candidate
      } catch {
        try? FileSystem.remove(candidate)
        throw ShareError.serviceFailed("Cannot save \(displayName) in \(displayFolder): \(error.reason)")
      }
    }
    throw ShareError.serviceFailed(
      "Cannot save \(displayName) in \(displayFolder): too many files of that name")
  }

  /// `example.org.desktop` for a link to example.org; `Link.desktop` when it has no host.
  static func linkFileName(_ url: URL) -> [UInt8] {
    let host = url.host ?? ""
    let usable = !host.isEmpty && !host.contains("/") && !host.hasPrefix(".") && host.utf8.count < 200
    return Array(((usable ? host : "Link") + ".desktop").utf8)
  }

  /// A freedesktop link file (`Type=Link`) that file managers open in the browser.
  static func linkFile(_ url: URL) -> [UInt8] {
    let address = KeyFile.escape(url.absoluteString)
    return Array(
      """
      [Desktop Entry]
      Type=Link
      Name=\(address)
      URL=\(address)
      Icon=text-html

      """.utf8)
  }
}

/// Turns bytes done into progress events: at most one per percent, plus one as each item starts.
struct ProgressMeter {
  let total: UInt64
  let report: (Double, String) -> Void
  private var done: UInt64 = 0
  private var lastReported = -1.0

  init(total: UInt64, report: @escaping (Double, String) -> Void) {
    self.total = total
    self.report = report
  }

  var fraction: Double { total == 0 ? 0 : min(1, Double(done) / Double(total)) }

  mutating func begin(_ message: String) {
    lastReported = fraction
    report(fraction, message)
  }

  mutating func advance(_ bytes: UInt64, _ message: String) {
    done += bytes
    if fraction - lastReported >= 0.01 {
      lastReported = fraction
      report(fraction, message)
    }
  }

  func finish() {
    report(1, "Done")
  }
}
