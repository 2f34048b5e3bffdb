import Foundation
import ShareCore
import ShareGLib
import ShareTestSupport
import Testing

/// GIO's content detection and shared-mime-info, on real files the tests write.
@Suite struct GIOTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  @Test func pngWithoutExtensionIsDetectedByItsContent() throws {
    let path = try desktop.writeFile(named: Array("picture".utf8), contents: tinyPNG)
    let facts = try GIOFileInspector().inspect(FilePath(bytes: path))
    #expect(facts == FileFacts(contentType: "image/png", size: UInt64(tinyPNG.count), isDirectory: false))
  }

  @Test func theNameDecidesWhenItIsCertain() throws {
    let path = try desktop.writeFile(named: "notes.txt", contents: "hello\n")
    #expect(try GIOFileInspector().inspect(FilePath(path)).contentType == "text/plain")
  }

  @Test func nonUTF8NamesAndNewlinesAreLookedAtByteForByte() throws {
    let name: [UInt8] = [0x6E, 0x65, 0x77, 0x0A, 0xE9, 0x2E, 0x70, 0x6E, 0x67]
    let path = try desktop.writeFile(named: name, contents: tinyPNG)
    #expect(try GIOFileInspector().inspect(FilePath(bytes: path)).contentType == "image/png")
  }

  @Test func foldersAndMissingFiles() throws {
    let folder = try GIOFileInspector().inspect(FilePath(desktop.files))
    #expect(folder.isDirectory && folder.contentType == "inode/directory")
    #expect(throws: FileProblem(path: FilePath(desktop.files + "/gone"), reason: .notFound)) {
      try GIOFileInspector().inspect(FilePath(desktop.files + "/gone"))
    }
  }

  @Test func theHierarchyComesFromGIOsOwnDirectories() {
    #expect(SharedMIMEDatabase.directories().contains { $0.hasSuffix("/mime") })
    let types = SharedMIMEDatabase.typeSystem()
    #expect(types.conforms("text/x-python", to: "text/plain"))
    #expect(types.conforms("image/png", to: "public.image"))
    #expect(GIOFileInspector.guessContentType(forName: "report.pdf") == "application/pdf")
  }
}
