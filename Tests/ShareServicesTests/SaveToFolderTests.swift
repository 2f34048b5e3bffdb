import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// Save to Folder, run as the host runs it.
@Suite struct SaveToFolderTests {
  let desktop: TemporaryDesktop
  let id = ServiceBundles.saveToFolder

  init() throws {
    desktop = try TemporaryDesktop()
    try desktop.installServices([id])
  }

  var publicFolder: String { "\(desktop.root)/home/Public" }

  func run(_ attachments: [RequestAttachment]) throws -> ServiceRun {
    try ServiceRunner.run(id, attachments, on: desktop)
  }

  @Test func hostileNamesAreCopiedByteForByte() throws {
    let paths = try HostileNames.write(on: desktop)
    let run = try run(paths.map { .file($0) })
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    let returned = try #require(run.returned)
    #expect(returned.count == paths.count)
    for (item, source) in zip(returned, paths) {
      let saved = try #require(item.filePath)
      #expect(saved == Array("\(publicFolder)/".utf8) + Bytes.lastComponent(source))
      #expect(try Bytes.contents(saved) == Bytes.contents(source))
      #expect(
        item.path.map { Array($0.utf8) } == String(validating: saved, as: UTF8.self).map { Array($0.utf8) })
    }
    #expect(try Bytes.names(in: publicFolder) == HostileNames.all.sorted { $0.lexicographicallyPrecedes($1) })
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.files)/pwned"))
  }

  @Test func takenNamesAreNeverOverwritten() throws {
    try FileManager.default.createDirectory(atPath: publicFolder, withIntermediateDirectories: true)
    try "old".write(toFile: "\(publicFolder)/photo.png", atomically: true, encoding: .utf8)
    try "old 2".write(toFile: "\(publicFolder)/photo (2).png", atomically: true, encoding: .utf8)
    try "old".write(toFile: "\(publicFolder)/archive.tar.gz", atomically: true, encoding: .utf8)
    // A dangling symbolic link takes its name too.
    try FileManager.default.createSymbolicLink(
      atPath: "\(publicFolder)/.bashrc", withDestinationPath: "/nonexistent")
    let photo = try desktop.writeFile(named: Array("photo.png".utf8), contents: tinyPNG)
    let archive = try desktop.writeFile(named: Array("archive.tar.gz".utf8), contents: Array("new".utf8))
    let hidden = try desktop.writeFile(named: Array(".bashrc".utf8), contents: Array("new".utf8))
    let run = try run([.file(photo), .file(photo), .file(archive), .file(hidden)])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(
      run.returned?.map(\.path) == [
        "\(publicFolder)/photo (3).png", "\(publicFolder)/photo (4).png",
        "\(publicFolder)/archive.tar (2).gz",
        "\(publicFolder)/.bashrc (2)",
      ])
    #expect(try String(contentsOfFile: "\(publicFolder)/photo.png", encoding: .utf8) == "old")
    #expect(try String(contentsOfFile: "\(publicFolder)/photo (2).png", encoding: .utf8) == "old 2")
    #expect(try Bytes.contents(Array("\(publicFolder)/photo (4).png".utf8)) == tinyPNG)
    #expect(try String(contentsOfFile: "\(publicFolder)/archive.tar.gz", encoding: .utf8) == "old")
    #expect(try Bytes.names(in: publicFolder).filter { $0.starts(with: Array(".xdg-share".utf8)) }.isEmpty)
  }

  @Test func textsAndLinksBecomeFiles() throws {
    let run = try run([.text("Hello\nWorld"), .link("https://example.org/page?q=1"), .text("second")])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(
      run.returned?.map(\.path) == [
        "\(publicFolder)/Text.txt", "\(publicFolder)/example.org.desktop", "\(publicFolder)/Text (2).txt",
      ])
    #expect(try String(contentsOfFile: "\(publicFolder)/Text.txt", encoding: .utf8) == "Hello\nWorld")
    let link = try String(contentsOfFile: "\(publicFolder)/example.org.desktop", encoding: .utf8)
    #expect(link.contains("Type=Link\n"))
    #expect(link.contains("URL=https://example.org/page?q=1\n"))
  }

  /// The umask of this process, as Linux reports it (`Umask:` in /proc/self/status): read, not
  /// set, since `umask()` would change it for every test running at the time.
  static func umask() throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
    return try #require(Int(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
  }

  func mode(_ path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
  }

  /// A file a web page or a sandboxed app handed over is the host's private copy (0600, or 0400
  /// by descriptor): what is saved gets the user's usual mode, from the umask (0644 with 022),
  /// not the copy's; a program stays a program (issue 32).
  @Test func savedFilesGetTheUsersUsualMode() throws {
    let umask = try Self.umask()
    let webCopy = try desktop.writeFile(named: "web.txt", contents: "from a page")
    let handedOver = try desktop.writeFile(named: "handed.txt", contents: "from an app")
    let program = try desktop.writeFile(named: "run.sh", contents: "#!/bin/sh\n")
    let own = try desktop.writeFile(named: "own.txt", contents: "the user's")
    #expect(chmod(webCopy, 0o600) == 0)
    #expect(chmod(handedOver, 0o400) == 0)
    #expect(chmod(program, 0o700) == 0)
    #expect(chmod(own, 0o640) == 0)
    let run = try run([.file(webCopy), .file(handedOver), .file(program), .file(own), .text("a text")])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(try mode("\(publicFolder)/web.txt") == 0o666 & ~umask)
    #expect(try mode("\(publicFolder)/handed.txt") == 0o666 & ~umask)
    #expect(try mode("\(publicFolder)/run.sh") == 0o777 & ~umask)
    #expect(try mode("\(publicFolder)/own.txt") == 0o666 & ~umask)
    #expect(try mode("\(publicFolder)/Text.txt") == 0o666 & ~umask)
  }

  @Test func bigFilesReportProgressWhileCopying() throws {
    let path = "\(desktop.files)/big.bin"
    // 64 MiB, mostly a hole, with data at both ends.
    let handle = try #require(
      FileHandle(forWritingAtPath: try desktop.writeFile(named: "big.bin", contents: "start")))
    try handle.truncate(atOffset: 64 << 20)
    try handle.seek(toOffset: (64 << 20) - 3)
    try handle.write(contentsOf: Data("end".utf8))
    try handle.close()
    let run = try run([.file(path)])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    let copying = run.progress.filter { $0.message == "Copying big.bin" }
    #expect(copying.count >= 20, "progress events: \(run.progress.count)")
    let fractions = run.progress.compactMap(\.fraction)
    #expect(fractions == fractions.sorted())
    #expect(fractions.last == 1)
    let copy = "\(publicFolder)/big.bin"
    #expect(try FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int == 64 << 20)
    #expect(FileManager.default.contentsEqual(atPath: path, andPath: copy))
  }

  @Test func theConfiguredFolderIsUsedAndNeverCreated() throws {
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/config/xdg-share", withIntermediateDirectories: true)
    try "[Save to Folder]\nFolder=~/Shared/From xdg-share\n".write(
      toFile: "\(desktop.root)/config/xdg-share/save-to-folder.ini", atomically: true, encoding: .utf8)
    let file = try desktop.writeFile(named: "a.txt", contents: "a")
    // A typing mistake in Folder= must not scatter files into a new folder.
    let missing = try run([.file(file)])
    #expect(
      missing.cancelMessage
        == "The folder ~/Shared/From xdg-share set in \(desktop.root)/config/xdg-share/save-to-folder.ini does not exist"
    )
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.root)/home/Shared"))
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/home/Shared/From xdg-share", withIntermediateDirectories: true)
    let run = try run([.file(file)])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(run.returned?.map(\.path) == ["\(desktop.root)/home/Shared/From xdg-share/a.txt"])
    #expect(!FileManager.default.fileExists(atPath: publicFolder))
  }

  /// A full disk is the service's failure: no cancel event, status 1, the reason on standard
  /// error, and no partial or temporary file left. Needs root to mount the tmpfs.
  @Test func aFullDiskFailsTheRequestAndLeavesNothingBehind() throws {
    try FileManager.default.createDirectory(atPath: publicFolder, withIntermediateDirectories: true)
    let mount = try CapturedRun.run(
      ["/usr/bin/mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", publicFolder].map { Array($0.utf8) },
      environment: [:])
    guard mount.status == 0 else {
      print("skipped: cannot mount a tmpfs (needs root)")
      return
    }
    defer {
      _ = try? CapturedRun.run([Array("/usr/bin/umount".utf8), Array(publicFolder.utf8)], environment: [:])
    }
    let big = try desktop.writeFile(
      named: Array("big.bin".utf8), contents: Array(repeating: 7, count: 200_000))
    let run = try run([.file(big)])
    #expect(run.status == 0 && !run.completed && run.cancelCode == nil, "\(run.lines) \(run.standardError)")
    #expect((run.failMessage ?? "").contains("Cannot save big.bin in"), "\(run.lines)")
    #expect((run.failMessage ?? "").contains("No space left on device"), "\(run.lines)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: publicFolder) == [])
  }

  @Test func theDesktopsPublicShareFolderIsTheDefault() throws {
    try #"XDG_PUBLICSHARE_DIR="$HOME/Öffentlich""#.write(
      toFile: "\(desktop.root)/config/user-dirs.dirs", atomically: true, encoding: .utf8)
    let file = try desktop.writeFile(named: "a.txt", contents: "a")
    let run = try run([.file(file)])
    #expect(run.returned?.map(\.path) == ["\(desktop.root)/home/Öffentlich/a.txt"])
  }

  @Test func foldersAndMissingFilesAreRefusedWithAMessage() throws {
    try FileManager.default.createDirectory(
      atPath: "\(desktop.files)/Holiday", withIntermediateDirectories: true)
    let folder = try run([.file("\(desktop.files)/Holiday")])
    #expect(folder.cancelMessage == "Holiday is a folder; Save to Folder saves files only")
    #expect(folder.status == 0, "\(folder.standardError)")
    let missing = try run([.file("\(desktop.files)/gone.txt")])
    #expect(missing.cancelMessage == "Cannot read gone.txt: No such file or directory")
    let notAFolder = "\(desktop.root)/home/Public"
    try "x".write(toFile: notAFolder, atomically: true, encoding: .utf8)
    let file = try desktop.writeFile(named: "a.txt", contents: "a")
    #expect(try run([.file(file)]).cancelMessage == "Cannot save into ~/Public: it is a file, not a folder")
  }

  /// SIGTERM (the host stopping the request) ends the copy at once and removes its temporary
  /// file. The service is stopped (SIGSTOP) as soon as it reports progress, so that the copy is
  /// caught half done however fast the disk is.
  @Test func sigtermStopsACopyAtOnceAndLeavesNoTemporaryFile() throws {
    let path = try desktop.writeFile(named: "huge.bin", contents: "x")
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: 1 << 30)
    try handle.close()
    let bundle = desktop.bundle(id)
    var caughtHalfDone = false
    for _ in 1...5 where !caughtHalfDone {
      try? FileManager.default.removeItem(atPath: publicFolder)
      let child = try ChildProcess.spawn(
        [Array("\(bundle)/share".utf8)], environment: ServiceRunner.environment(id, on: desktop, extra: [:]),
        workingDirectory: Array(bundle.utf8), standardInput: .pipe, standardOutput: .pipe,
        standardError: .null,
        newProcessGroup: true)
      try child.standardInput?.write(try ServiceRunner.request(id, [.file(path)]))
      child.standardInput?.close()
      // Wait for progress past 0: the copy is under way, its temporary file made.
      var output: [UInt8] = []
      func copying() throws -> Bool {
        let lines = output.lastIndex(of: UInt8(ascii: "\n")).map { Array(output[...$0]) } ?? []
        return try ServiceRun(status: 0, output: lines, error: []).progress.contains {
          ($0.fraction ?? 0) > 0
        }
      }
      while try !copying() {
        let chunk = try #require(try child.standardOutput?.read())
        try #require(
          !chunk.isEmpty, "the service ended before copying: \(String(decoding: output, as: UTF8.self))")
        output += chunk
      }
      child.signal(SIGSTOP)
      let names = try Bytes.names(in: publicFolder).map { String(decoding: $0, as: UTF8.self) }
      caughtHalfDone = names.count == 1 && names[0].hasPrefix(".xdg-share-") && names[0].hasSuffix(".part")
      let stopped = Date()
      child.signal(Signal.terminate)
      child.signal(SIGCONT)
      let termination = child.wait(timeout: 5)
      if termination == nil { child.signal(Signal.kill) }
      #expect(termination == .exited(128 + Signal.terminate))
      #expect(Date().timeIntervalSince(stopped) < 2)
      if caughtHalfDone {
        let left = try Bytes.names(in: publicFolder)
        #expect(left.isEmpty, "left behind: \(left.map { String(decoding: $0, as: UTF8.self) })")
      }
    }
    #expect(caughtHalfDone, "the copy always ended before it could be stopped")
  }

  @Test func xdgShareSavesAPhotoEndToEnd() throws {
    let photo = try desktop.writeFile(named: Array("photo.png".utf8), contents: tinyPNG)
    let result = try Tool.run(
      [Array("--service".utf8), Array(id.utf8), Array("--".utf8), photo], on: desktop)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput == "\(publicFolder)/photo.png\n")
    #expect(try Bytes.contents(Array("\(publicFolder)/photo.png".utf8)) == tinyPNG)
  }
}

/// Save to Folder reads HOME and XDG_CONFIG_HOME as bytes: a home folder whose name is not UTF-8
/// is where the file goes, not a repaired name that does not exist.
@Suite struct SaveToFolderBytePathTests {
  let desktop: TemporaryDesktop
  let id = ServiceBundles.saveToFolder
  /// `h\xf6me`: `höme` in Latin-1.
  let home: [UInt8]

  init() throws {
    desktop = try TemporaryDesktop()
    try desktop.installServices([id])
    home = Array("\(desktop.root)/h".utf8) + [0xF6] + Array("me".utf8)
    try FileSystem.makeDirectories(home)
  }

  @Test func savesIntoThePublicFolderOfAHomeNotUTF8() throws {
    let file = try desktop.writeFile(named: Array("note.txt".utf8), contents: Array("hello".utf8))
    let run = try ServiceRunner.run(id, [.file(file)], on: desktop, environmentBytes: ["HOME": home])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    let saved = home + Array("/Public/note.txt".utf8)
    #expect(run.returned?.first?.filePath == saved)
    #expect(try Bytes.contents(saved) == Array("hello".utf8))
    // Nothing under the repaired name.
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.root)/h\u{FFFD}me"))
  }

  @Test func savesIntoAFolderConfiguredUnderAHomeNotUTF8() throws {
    let configured = home + Array("/Shared".utf8)
    try FileSystem.makeDirectories(configured)
    let configuration = Array("\(desktop.root)/config/xdg-share".utf8)
    try FileSystem.makeDirectories(configuration)
    try FileSystem.writeAtomically(
      Array("[Save to Folder]\nFolder=~/Shared\n".utf8),
      to: configuration + Array("/save-to-folder.ini".utf8),
      mode: 0o644)
    let run = try ServiceRunner.run(id, [.text("hi")], on: desktop, environmentBytes: ["HOME": home])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(run.returned?.first?.filePath == configured + Array("/Text.txt".utf8))
  }

  /// `XDG_PUBLICSHARE_DIR` in `user-dirs.dirs` naming a folder that is not UTF-8 is used as it is.
  @Test func savesIntoAPublicShareFolderNotUTF8FromUserDirs() throws {
    let config = Array("\(desktop.root)/config".utf8)
    try FileSystem.makeDirectories(config)
    try FileSystem.writeAtomically(
      Array("XDG_PUBLICSHARE_DIR=\"$HOME/Geteilt-".utf8) + [0xE9] + Array("\"\n".utf8),
      to: config + Array("/user-dirs.dirs".utf8), mode: 0o644)
    let run = try ServiceRunner.run(id, [.text("hi")], on: desktop, environmentBytes: ["HOME": home])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(
      run.returned?.first?.filePath == home + Array("/Geteilt-".utf8) + [0xE9, 0x2F] + Array("Text.txt".utf8))
  }
}
