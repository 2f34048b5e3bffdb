import FoundationEssentials
public import ShareCore

/// The type system over the machine's shared-mime-info, as the desktop's own would be; the
/// standard table alone where there is none.
public let fuzzTypes: TypeSystem = {
  var mime = MIMEHierarchy()
  let folder = "/usr/share/mime/"
  if let subclasses = FileManager.default.contents(atPath: folder + "subclasses"),
    let aliases = FileManager.default.contents(atPath: folder + "aliases")
  {
    mime.add(
      subclasses: String(decoding: subclasses, as: UTF8.self),
      aliases: String(decoding: aliases, as: UTF8.self))
  }
  return TypeSystem(mime: mime)
}()

/// Attachments of every kind a rule tells apart: text, a link, images, a movie, a PDF, a folder,
/// an unknown file.
public let fuzzAttachments: [Attachment] = {
  func file(_ name: String, _ type: String, directory: Bool = false) -> Attachment {
    Attachment(
      item: .file(FilePath("/home/user/" + name)),
      typeIdentifiers: fuzzTypes.typeIdentifiers(forMIMEType: type),
      file: FileFacts(contentType: type, size: 1000, isDirectory: directory))
  }
  return [
    Attachment(item: .text("Hello"), typeIdentifiers: TypeSystem.textIdentifiers),
    Attachment(item: .webURL("https://example.org/"), typeIdentifiers: TypeSystem.webURLIdentifiers),
    file("photo.png", "image/png"), file("photo.jpg", "image/jpeg"), file("clip.mp4", "video/mp4"),
    file("paper.pdf", "application/pdf"), file("Folder", "inode/directory", directory: true),
    file("notes.txt", "text/plain"), file("data.bin", "application/x-unknown-fuzz"),
    file("page.html", "text/html"),
  ]
}()

/// Selections to evaluate rules against: none, one of each attachment, and a few mixtures.
public let fuzzSelections: [[Attachment]] = {
  let a = fuzzAttachments
  return [[]] + a.map { [$0] } + [
    [a[2], a[3]], [a[2], a[4]], [a[5], a[6]], [a[0], a[1]], [a[4], a[0], a[1]], a,
    Array(repeating: a[2], count: 12),
  ]
}()

/// Up to `maximum` attachments chosen by the input.
public func attachments(from input: inout FuzzInput, maximum: Int) -> [Attachment] {
  (0..<input.int(in: 0...maximum)).map { _ in input.pick(fuzzAttachments) }
}
