import Foundation
import ShareCore
import ShareGLib
import SharePOSIX
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
    #expect(
      facts
        == FileFacts(
          contentType: "image/png", size: UInt64(tinyPNG.count), isDirectory: false, typeSource: .content))
  }

  @Test func theNameDecidesWhenItIsCertain() throws {
    let path = try desktop.writeFile(named: "notes.txt", contents: "hello\n")
    let facts = try GIOFileInspector().inspect(FilePath(path))
    #expect(facts.contentType == "text/plain")
    #expect(facts.typeSource == .name)
  }

  @Test func nonUTF8NamesAndNewlinesAreLookedAtByteForByte() throws {
    let name: [UInt8] = [0x6E, 0x65, 0x77, 0x0A, 0xE9, 0x2E, 0x70, 0x6E, 0x67]
    let path = try desktop.writeFile(named: name, contents: tinyPNG)
    #expect(try GIOFileInspector().inspect(FilePath(bytes: path)).contentType == "image/png")
  }

  @Test func foldersAndMissingFiles() throws {
    let folder = try GIOFileInspector().inspect(FilePath(desktop.files))
    #expect(folder.isDirectory && folder.contentType == "inode/directory")
    #expect(folder.typeSource == .fileSystem)
    #expect(throws: FileProblem(path: FilePath(desktop.files + "/gone"), reason: .notFound)) {
      try GIOFileInspector().inspect(FilePath(desktop.files + "/gone"))
    }
  }

  /// The inspector does what `g_file_query_info` does for a local file; `gio info` (libglib2.0-bin)
  /// is GIO answering through `GFile`, so the two must agree on every awkward kind of file.
  @Test func agreesWithGFileOnEveryKindOfFile() throws {
    let files = desktop.files
    let cases: [(String, [UInt8])] = [
      ("picture", tinyPNG), ("lying.txt", tinyPNG), ("notes.txt", Array("hello\n".utf8)),
      ("empty", []), ("empty.png", []), ("script", Array("#!/bin/sh\necho hi\n".utf8)),
      ("data.unknownext", Array("plain words\n".utf8)), ("binary", [0, 1, 2, 3, 0xFF, 0xFE]),
      ("page", Array("<!DOCTYPE html><html><body>x</body></html>\n".utf8)),
      ("archive.tar.gz", [0x1F, 0x8B, 8, 0]), ("Makefile", Array("all:\n".utf8)),
      ("doc", Array("%PDF-1.4\n".utf8)),
    ]
    var paths: [String] = []
    for (name, contents) in cases {
      paths.append(
        String(decoding: try desktop.writeFile(named: Array(name.utf8), contents: contents), as: UTF8.self))
    }
    let unreadable = try desktop.writeFile(named: "secret", contents: "#!/bin/sh\n")
    chmod(unreadable, 0)
    symlink(files + "/picture", files + "/link-to-picture")
    symlink(files + "/nowhere", files + "/dangling")
    symlink(files + "/loop", files + "/loop")
    symlink(files + "/notes.txt/inside", files + "/through-a-file")
    mkfifo(files + "/pipe", 0o600)
    mkdir(files + "/folder.png", 0o755)
    paths += [
      unreadable, files + "/link-to-picture", files + "/dangling", files + "/loop", files + "/through-a-file",
      files + "/pipe", files + "/folder.png", "/dev/null",
    ]
    // The MIME folders the inspector in this process reads, and nothing else of the session: no
    // session bus (GVfs would talk to it) and GIO's local file system only.
    var gioEnvironment = ProcessInfo.processInfo.environment
    gioEnvironment["DBUS_SESSION_BUS_ADDRESS"] = desktop.environment["DBUS_SESSION_BUS_ADDRESS"]
    gioEnvironment["GIO_USE_VFS"] = "local"
    for path in paths {
      let gio = try CapturedRun.run(
        [
          Array("/usr/bin/gio".utf8), Array("info".utf8), Array("-a".utf8),
          Array("standard::content-type,standard::size".utf8), Array(path.utf8),
        ],
        environment: gioEnvironment, workingDirectory: Array(files.utf8), input: [])
      let output = String(decoding: gio.standardOutput, as: UTF8.self)
      let field = { (key: String) in
        output.split(separator: "\n").first { $0.hasPrefix("  standard::\(key): ") }
          .map { String($0.dropFirst("  standard::\(key): ".count)) }
      }
      let facts = try GIOFileInspector().inspect(FilePath(path))
      #expect(facts.contentType == field("content-type"), "\(path)")
      if !facts.isDirectory { #expect(String(facts.size) == field("size"), "\(path)") }
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
