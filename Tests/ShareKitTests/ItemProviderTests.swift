import Foundation
import ShareProtocol
import Testing

@testable import ShareKit

@Suite("Item providers")
struct ItemProviderTests {
  private func provider(_ identifiers: [String]) -> ItemProvider {
    ItemProvider(payload: AttachmentPayload(typeIdentifiers: identifiers, url: "file:///tmp/x"))
  }

  @Test(
    "a PNG conforms to images, a text to texts, over this desktop's types",
    arguments: [
      (["public.png", "image/png"], "public.png", true),
      (["public.png", "image/png"], "public.image", true),
      (["public.png", "image/png"], "image/*", true),
      (["public.png", "image/png"], "image/png", true),
      (["public.png", "image/png"], "public.data", true),
      (["public.png", "image/png"], "public.item", true),
      (["public.png", "image/png"], "public.movie", false),
      (["public.png", "image/png"], "text/plain", false),
      (["public.plain-text", "text/plain"], "public.text", true),
      (["public.plain-text", "text/plain"], "public.plain-text", true),
      (["public.plain-text", "text/plain"], "text/*", true),
      (["public.plain-text", "text/plain"], "public.image", false),
      (["text/plain"], "public.text", true),
      (["public.url"], "public.url", true),
      (["public.url"], "public.image", false),
    ])
  func conformance(registered: [String], target: String, conforms: Bool) {
    #expect(provider(registered).hasItemConformingToTypeIdentifier(target) == conforms)
  }

  @Test("the MIME hierarchy comes from XDG_DATA_HOME, then each XDG_DATA_DIRS")
  func mimeDirectories() {
    #expect(
      SystemTypes.mimeDirectories(environment: ["HOME": "/home/jana"])
        == ["/home/jana/.local/share/mime", "/usr/local/share/mime", "/usr/share/mime"])
    #expect(
      SystemTypes.mimeDirectories(environment: [
        "HOME": "/home/jana", "XDG_DATA_HOME": "/d/home", "XDG_DATA_DIRS": "/d/one:relative:/d/two/",
      ]) == ["/d/home/mime", "/d/one/mime", "/d/two/mime"])
  }

  @Test("subclasses and aliases are read from every folder; missing files are fine")
  func mimeHierarchyFiles() throws {
    let folder = try TemporaryFolder()
    let files = FileManager.default
    for directory in ["home/mime", "one/mime", "two"] {
      try files.createDirectory(atPath: "\(folder.path)/\(directory)", withIntermediateDirectories: true)
    }
    try "text/x-hoi text/x-python\n".write(
      toFile: "\(folder.path)/home/mime/subclasses", atomically: true, encoding: .utf8)
    try "text/x-hoi-alias text/x-hoi\n".write(
      toFile: "\(folder.path)/one/mime/aliases", atomically: true, encoding: .utf8)
    try "# comment\ntext/x-python application/x-executable\n".write(
      toFile: "\(folder.path)/one/mime/subclasses", atomically: true, encoding: .utf8)
    let environment = [
      "XDG_DATA_HOME": "\(folder.path)/home", "XDG_DATA_DIRS": "\(folder.path)/one:\(folder.path)/two",
    ]
    let types = SystemTypes.typeSystem(environment: environment)
    let hoi = provider(["text/x-hoi-alias"])
    for target in [
      "text/x-hoi", "text/x-python", "application/x-executable", "text/plain", "public.plain-text",
    ] {
      #expect(hoi.hasItem(conformingTo: target, in: types), "text/x-hoi-alias should conform to \(target)")
    }
    #expect(!hoi.hasItem(conformingTo: "public.image", in: types))
  }

  @Test("a file: URL made by Foundation round-trips byte for byte")
  func fileURLRoundTrip() throws {
    let path = "/tmp/caf\u{E9} a?b#c%d.txt"
    let provider = ItemProvider(fileURL: URL(fileURLWithPath: path), typeIdentifiers: ["public.plain-text"])
    #expect(provider.filePathBytes == Array(path.utf8))
    #expect(provider.fileURL?.path == path)
    #expect(provider.name == "caf\u{E9} a?b#c%d.txt")
    #expect(provider.payload.path == path)
    #expect(provider.registeredTypeIdentifiers == ["public.plain-text"])
  }

  @Test("a file given by bytes that are not UTF-8 keeps them")
  func nonUTF8Bytes() {
    let bytes = Array("/tmp/".utf8) + [0xFF, 0x0A, 0x2D]
    let provider = ItemProvider(filePathBytes: bytes)
    #expect(provider.payload.url == "file:///tmp/%FF%0A-")
    #expect(provider.payload.path == nil)
    #expect(provider.filePathBytes == bytes)
    #expect(provider.registeredTypeIdentifiers == ["public.data"])
  }

  @Test("links and texts")
  func linksAndTexts() throws {
    let link = ItemProvider(
      url: try #require(URL(string: "https://example.org/a b".replacingOccurrences(of: " ", with: "%20"))))
    #expect(link.webURL?.absoluteString == "https://example.org/a%20b")
    #expect(link.registeredTypeIdentifiers == ["public.url"])
    #expect(!link.isFile)
    let file = ItemProvider(url: URL(fileURLWithPath: "/tmp/x.png"))
    #expect(file.isFile)
    #expect(file.filePathBytes == Array("/tmp/x.png".utf8))
    let text = ItemProvider(text: "hoi")
    #expect(text.text == "hoi")
    #expect(text.registeredTypeIdentifiers == ["public.plain-text", "text/plain"])
  }

  @Test("loading gives the item, or says what the attachment holds")
  func loading() async throws {
    let png = ItemProvider(
      payload: AttachmentPayload(typeIdentifiers: ["public.png", "image/png"], url: "file:///tmp/p.png"))
    #expect(try await png.loadFileURL().path == "/tmp/p.png")
    #expect(try await png.loadURL().path == "/tmp/p.png")
    #expect(
      try await png.loadItem(forTypeIdentifier: "public.image") as? URL == URL(fileURLWithPath: "/tmp/p.png"))
    let error = await #expect(throws: ShareError.self) { try await png.loadText() }
    #expect(error?.code == -1000)
    #expect(error?.message == "the attachment holds no text; it is registered as public.png, image/png")

    let text = ItemProvider(text: "hoi")
    #expect(try await text.loadText() == "hoi")
    #expect(try await text.loadItem(forTypeIdentifier: "public.text") as? String == "hoi")
    await #expect(
      throws: ShareError.itemUnavailable(
        "the attachment holds no URL; it is registered as public.plain-text, text/plain")
    ) {
      try await text.loadURL()
    }
    await #expect(throws: ShareError.self) { try await text.loadFileURL() }
    await #expect(throws: ShareError.self) { try await text.loadItem(forTypeIdentifier: "public.url") }

    let link = ItemProvider(url: try #require(URL(string: "https://example.org/")))
    #expect(try await link.loadURL().absoluteString == "https://example.org/")
    await #expect(throws: ShareError.self) { try await link.loadFileURL() }
  }
}
