import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// A folder of the test's own, and its paths as bytes.
struct Scratch {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop(prefix: "share-posix-test")
  }

  func path(_ name: String) -> [UInt8] { Array("\(desktop.files)/\(name)".utf8) }

  @discardableResult
  func write(_ name: String, _ contents: String) throws -> [UInt8] {
    Array(try desktop.writeFile(named: name, contents: contents).utf8)
  }

  func link(_ name: String, to target: String) throws -> [UInt8] {
    try FileManager.default.createSymbolicLink(
      atPath: "\(desktop.files)/\(name)", withDestinationPath: target)
    return path(name)
  }

  /// A FIFO made by `mkfifo(1)`, as SharePOSIX makes none.
  func fifo(_ name: String) throws -> [UInt8] {
    let run = try CapturedRun.run(
      [Array("mkfifo".utf8), path(name)], environment: ["PATH": "/usr/bin:/bin"])
    #expect(run.status == 0)
    return path(name)
  }

  func contents(_ path: [UInt8]) -> String? {
    FileManager.default.contents(atPath: String(decoding: path, as: UTF8.self)).map {
      String(decoding: $0, as: UTF8.self)
    }
  }
}

/// The `errno` of a failed call, or nil when it did not fail.
func errorNumber(_ body: () throws(SystemError) -> Void) -> Int32? {
  do {
    try body()
    return nil
  } catch {
    return error.errno
  }
}

@Suite struct FileStatusTests {
  let scratch: Scratch
  init() throws { scratch = try Scratch() }

  @Test func aRegularFile() throws {
    let file = try scratch.write("five", "12345")
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o640], ofItemAtPath: String(decoding: file, as: UTF8.self))
    let status = try FileSystem.status(file)
    #expect(status.node == .regular)
    #expect(status.kind == .regular)
    #expect(status.size == 5)
    #expect(status.permissions == 0o640)
    #expect(try FileSystem.linkStatus(file) == status)
  }

  @Test func aDirectory() throws {
    let status = try FileSystem.status(Array(scratch.desktop.files.utf8))
    #expect(status.node == .directory)
    #expect(status.kind == .directory)
  }

  @Test func aSymbolicLinkIsFollowedByStatusOnly() throws {
    try scratch.write("target", "abc")
    let link = try scratch.link("link", to: "target")
    #expect(try FileSystem.status(link).node == .regular)
    #expect(try FileSystem.status(link).size == 3)
    #expect(try FileSystem.linkStatus(link).node == .symbolicLink)
    #expect(try FileSystem.linkStatus(link).kind == .other)
  }

  @Test func aFIFO() throws {
    let fifo = try scratch.fifo("pipe")
    #expect(try FileSystem.status(fifo).node == .fifo)
    #expect(try FileSystem.status(fifo).kind == .other)
  }

  @Test func aDanglingLinkHasALinkStatusOnly() throws {
    let link = try scratch.link("dangling", to: "nowhere")
    #expect(try FileSystem.linkStatus(link).node == .symbolicLink)
    do {
      _ = try FileSystem.status(link)
      Issue.record("stat followed a link to nothing")
    } catch {
      #expect(error.isNotFound)
      #expect(error.call == "stat")
      #expect(error.subject == String(decoding: link, as: UTF8.self))
    }
  }

  @Test func aDeviceIsOther() throws {
    let null = try FileSystem.status(Array("/dev/null".utf8))
    #expect(null.node == .characterDevice)
    #expect(null.kind == .other)
  }
}

@Suite struct ReadPrefixTests {
  let scratch: Scratch
  init() throws { scratch = try Scratch() }

  @Test func aShortFileIsReadWhole() throws {
    let file = try scratch.write("short", "hello")
    #expect(FileSystem.readPrefix(of: file, count: 100) == Array("hello".utf8))
    #expect(FileSystem.readPrefix(of: file, count: 2) == Array("he".utf8))
    #expect(FileSystem.readPrefix(of: try scratch.write("empty", ""), count: 10) == [])
  }

  @Test func aFIFOIsRefusedWithoutWaiting() throws {
    let fifo = try scratch.fifo("pipe")
    let started = MonotonicClock.now
    // No writer ever comes: a blocking open or read would hang here.
    #expect(FileSystem.readPrefix(of: fifo, count: 10) == nil)
    #expect(MonotonicClock.now - started < 5)
  }

  @Test func aDirectoryOrNothingIsNil() {
    #expect(FileSystem.readPrefix(of: Array(scratch.desktop.files.utf8), count: 10) == nil)
    #expect(FileSystem.readPrefix(of: scratch.path("missing"), count: 10) == nil)
  }
}

@Suite struct MakeDirectoriesTests {
  let scratch: Scratch
  init() throws { scratch = try Scratch() }

  @Test func nestedFoldersAreMade() throws {
    let deep = scratch.path("a/b/c")
    try FileSystem.makeDirectories(deep)
    #expect(try FileSystem.status(scratch.path("a")).node == .directory)
    #expect(try FileSystem.status(deep).node == .directory)
    // Again, and with a trailing slash: nothing to do, no failure.
    try FileSystem.makeDirectories(deep)
    try FileSystem.makeDirectories(scratch.path("a/b/c/"))
    try FileSystem.makeDirectory(deep)
  }

  @Test func throughAFileFails() throws {
    try scratch.write("plain", "x")
    #expect(
      errorNumber { () throws(SystemError) in try FileSystem.makeDirectories(scratch.path("plain/sub")) }
        == ENOTDIR)
    #expect(
      errorNumber { () throws(SystemError) in try FileSystem.makeDirectories(scratch.path("plain/a/b")) }
        == ENOTDIR)
  }

  @Test func theFailureNamesTheCallAndPath() throws {
    try scratch.write("plain", "x")
    do {
      try FileSystem.makeDirectories(scratch.path("plain/sub"))
      Issue.record("a folder was made inside a file")
    } catch {
      #expect(error.call == "mkdir")
      #expect(error.subject == "\(scratch.desktop.files)/plain/sub")
      #expect(error.isNoSuchPath)
      #expect(error.reason == "Not a directory")
      #expect(error.description == "\(scratch.desktop.files)/plain/sub: Not a directory")
    }
  }
}

@Suite struct WriteAtomicallyTests {
  let scratch: Scratch
  init() throws { scratch = try Scratch() }

  @Test func theModeIsSetExactly() throws {
    let file = scratch.path("script")
    // Bits a usual umask (022) would take away, set all the same.
    try FileSystem.writeAtomically(Array("#!/bin/sh\n".utf8), to: file, mode: 0o767)
    #expect(try FileSystem.status(file).permissions == 0o767)
    try FileSystem.writeAtomically([], to: file, mode: 0o600)
    #expect(try FileSystem.status(file).permissions == 0o600)
    #expect(try FileSystem.status(file).size == 0)
  }

  @Test func theOldContentIsReplacedAndNoTemporaryFileStays() throws {
    let file = try scratch.write("note", "old and longer")
    try FileSystem.writeAtomically(Array("new".utf8), to: file, mode: 0o644)
    #expect(scratch.contents(file) == "new")
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.desktop.files) == ["note"])
  }

  /// The new file takes the name's place: a link there is replaced, its target left alone.
  @Test func aLinkIsReplacedNotFollowed() throws {
    let target = try scratch.write("target", "keep me")
    let link = try scratch.link("link", to: "target")
    try FileSystem.writeAtomically(Array("mine".utf8), to: link, mode: 0o644)
    #expect(scratch.contents(target) == "keep me")
    #expect(try FileSystem.linkStatus(link).node == .regular)
    #expect(scratch.contents(link) == "mine")
  }

  @Test func aMissingFolderFails() {
    #expect(
      errorNumber { () throws(SystemError) in
        try FileSystem.writeAtomically([1], to: scratch.path("no/such/file"), mode: 0o644)
      } == ENOENT)
  }

  @Test func aFolderInTheWayFailsAndLeavesNoTemporaryFile() throws {
    try FileSystem.makeDirectory(scratch.path("taken"))
    #expect(
      errorNumber { () throws(SystemError) in
        try FileSystem.writeAtomically([1], to: scratch.path("taken"), mode: 0o644)
      } == EISDIR)
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.desktop.files) == ["taken"])
  }
}

@Suite struct CStringTests {
  /// The bytes `body` sees through the C string, up to its NUL.
  func bytesSeen(_ bytes: [UInt8]) -> [UInt8] {
    SharePOSIX.withCString(bytes) { pointer in
      var seen: [UInt8] = []
      var index = 0
      while pointer[index] != 0 {
        seen.append(UInt8(bitPattern: pointer[index]))
        index += 1
      }
      return seen
    }
  }

  @Test func bytesThatAreNotUTF8ArriveUnchanged() {
    let bytes: [UInt8] = [0x2F, 0x74, 0xFF, 0xFE, 0x0A, 0x80, 0xC3, 0x28, 0xE9]
    #expect(bytesSeen(bytes) == bytes)
    #expect(bytesSeen([]) == [])
  }

  @Test func aNameThatIsNotUTF8ReachesTheFileSystem() throws {
    let scratch = try Scratch()
    let path = scratch.path("caf") + [0xE9, 0x0A, 0xFF]
    let file = try FileDescriptor.create(path, mode: 0o644)
    try file.write(Array("bytes".utf8))
    file.close()
    #expect(try FileSystem.status(path).size == 5)
    #expect(FileSystem.readPrefix(of: path, count: 10) == Array("bytes".utf8))
    // The repaired name is another name.
    #expect(FileSystem.readPrefix(of: Array(String(decoding: path, as: UTF8.self).utf8), count: 10) == nil)
  }

  @Test func theBodysTypedErrorPassesThrough() {
    let thrown = SystemError(call: "test", errno: EIO, subject: "x")
    do {
      try SharePOSIX.withCString([0xFF]) { (_: UnsafePointer<CChar>) throws(SystemError) -> Void in
        throw thrown
      }
      Issue.record("nothing was thrown")
    } catch {
      #expect(error == thrown)
    }
  }
}
