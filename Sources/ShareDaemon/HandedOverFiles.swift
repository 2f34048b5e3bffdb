import ShareCore
import ShareDBus
import ShareGLib
import ShareHost
import SharePOSIX

/// The files one request's caller handed over as descriptors, made paths a plugin can read: the
/// document portal's export when a portal runs and takes the file, else a copy in a private
/// ``RequestFolder`` (read-only, streamed, never held in memory). Either way the path's last
/// component is the name the caller gave, made safe, so that the plugin and the history see that
/// name and never the private folder's. Released when the request ends: the copies removed,
/// the exports deleted.
final class HandedOverFiles: Sendable {
  /// The largest file copied; a larger one is refused before a byte is copied.
  static let maximumSize: UInt64 = 1 << 30
  /// What the type is guessed from, as GIO reads a local file.
  static let sniffLength = 4096

  let folders: [RequestFolder]
  /// The portal's documents, deleted on ``release(on:)``.
  let documents: [String]

  private init(folders: [RequestFolder], documents: [String]) {
    self.folders = folders
    self.documents = documents
  }

  /// What both release; nil when neither has anything.
  static func joined(_ first: HandedOverFiles?, _ second: HandedOverFiles?) -> HandedOverFiles? {
    guard let first else { return second }
    guard let second else { return first }
    return HandedOverFiles(
      folders: first.folders + second.folders, documents: first.documents + second.documents)
  }

  /// Checks each descriptor of `given` and types it; what rules see is `/proc/self/fd` for now
  /// (for `QueryItems`, which shares nothing).
  static func checked(_ given: GivenItems) throws(BusError) -> [RequestedItem] {
    var items = given.items
    for (index, handed) in given.descriptors {
      let (descriptor, status) = try check(handed)
      if items[index].mimeType == nil {
        items[index].mimeType = try type(of: descriptor, size: status.size, handed: handed)
        items[index].mimeTypeSource = .detected
      }
    }
    return items
  }

  /// Hands each descriptor of `given` on: checks it, exports or copies it, and returns the items
  /// with each descriptor's item a path, and what to release once the request ends.
  static func handOn(
    _ given: GivenItems, paths: SearchPaths, portal: DocumentPortal?
  ) throws(BusError) -> (items: [RequestedItem], files: HandedOverFiles?) {
    guard !given.descriptors.isEmpty else { return (given.items, nil) }
    var items = given.items
    var names = SafeFileNames()
    var folder: RequestFolder?
    var documents: [String] = []
    func made() throws(BusError) -> RequestFolder {
      if let folder { return folder }
      do {
        let new = try RequestFolder(.handedOver, paths: paths)
        folder = new
        return new
      } catch {
        throw .handOverFailed(error.message)
      }
    }
    for index in given.descriptors.keys.sorted() {
      guard let handed = given.descriptors[index] else { continue }
      let (descriptor, status) = try check(handed)
      var type = items[index].mimeType
      var source = items[index].mimeTypeSource
      if type == nil {
        type = try Self.type(of: descriptor, size: status.size, handed: handed)
        source = .detected
      }
      let linkName = descriptor.linkTarget?.split(separator: UInt8(ascii: "/")).last.map {
        String(decoding: $0, as: UTF8.self)
      }
      let name = names.unique(
        (handed.name ?? linkName).flatMap(SafeFileNames.safe) ?? linkName.flatMap(SafeFileNames.safe)
          ?? "file")
      let destination = try made().path(of: name)
      if let portal, let exported = portal.export(descriptor) {
        // Under the caller's name, in the request's folder: a link to the portal's export.
        documents.append(exported.id)
        do {
          try FileSystem.makeSymbolicLink(at: destination.bytes, leadingTo: exported.path.bytes)
        } catch {
          throw .handOverFailed("cannot link \(destination.text): \(error.reason)")
        }
      } else {
        guard status.size <= maximumSize else {
          throw .invalidArgument(handed.label + ".fd", .fileTooLarge(size: status.size, limit: maximumSize))
        }
        let complete: Bool
        do {
          let copy = try FileDescriptor.createNew(destination.bytes, mode: 0o400)
          defer { copy.close() }
          complete = try descriptor.copy(to: copy, size: status.size)
        } catch {
          throw .handOverFailed("cannot copy \(handed.label).fd to \(destination.text): \(error.reason)")
        }
        guard complete else {
          throw .handOverFailed("\(handed.label).fd: the file became shorter while it was copied")
        }
      }
      items[index] = RequestedItem(.file(destination), mimeType: type, mimeTypeSource: source)
    }
    return (items, HandedOverFiles(folders: folder.map { [$0] } ?? [], documents: documents))
  }

  /// Removes the copies and the portal's documents (on `bus`, the service's: call it on the
  /// loop's thread).
  func release(on bus: any BusCalls) {
    for folder in folders { folder.remove() }
    for document in documents { DocumentPortal.delete(document, on: bus) }
  }

  /// The descriptor to read `handed` from, and its status, when it is a regular file open for
  /// reading; else the error that says why not, naming the item.
  private static func check(_ handed: GivenDescriptor) throws(BusError) -> (FileDescriptor, FileStatus) {
    do {
      return try handed.descriptor.openedForSharing()
    } catch {
      let problem: ArgumentProblem =
        switch error {
        case .notARegularFile(let node): .notARegularFile(node)
        case .writeOnly: .writeOnly
        case .aLink: .notARegularFile(.symbolicLink)
        case .unreadable(let reason): .unreadableDescriptor(reason)
        }
      throw .invalidArgument(handed.label + ".fd", problem)
    }
  }

  /// The file's type, from the name given and its first bytes, as GIO guesses a local file's.
  private static func type(of descriptor: FileDescriptor, size: UInt64, handed: GivenDescriptor)
    throws(BusError)
    -> String
  {
    let prefix: [UInt8]
    do {
      prefix = try descriptor.read(at: 0, upTo: Int(min(size, UInt64(sniffLength))))
    } catch {
      throw .invalidArgument(handed.label + ".fd", .unreadableDescriptor(error.reason))
    }
    return GIOFileInspector.guessContentType(
      forName: handed.name.flatMap(SafeFileNames.safe) ?? "", prefix: prefix)
  }
}
