import Foundation
import ShareCore
import ShareTestSupport
import Testing

@testable import ShareHost

/// The helper programs are found beside the program they belong to, else in
/// `../libexec/xdg-share/`, by bytes.
@Suite struct HelperProgramTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  func makeProgram(_ path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try "#!/bin/sh\n".write(toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
  }

  @Test func besideTheProgramFirstThenInLibexec() throws {
    let bin = FilePath("\(desktop.root)/files/bin/xdg-share")
    #expect(HelperProgram.locate("xdg-share-sheet", besides: bin) == nil)
    try makeProgram("\(desktop.root)/files/libexec/xdg-share/xdg-share-sheet")
    #expect(
      HelperProgram.locate("xdg-share-sheet", besides: bin)
        == FilePath("\(desktop.root)/files/libexec/xdg-share/xdg-share-sheet"))
    try makeProgram("\(desktop.root)/files/bin/xdg-share-sheet")
    #expect(
      HelperProgram.locate("xdg-share-sheet", besides: bin)
        == FilePath("\(desktop.root)/files/bin/xdg-share-sheet"))
  }

  @Test func aReplacedProgramIsTheOneNowAtItsPath() {
    #expect(
      HelperProgram.program(namedBy: Array("/usr/bin/xdg-share (deleted)".utf8))
        == FilePath("/usr/bin/xdg-share"))
    #expect(
      HelperProgram.program(namedBy: Array("/usr/bin/xdg-share".utf8)) == FilePath("/usr/bin/xdg-share"))
    #expect(HelperProgram.program(namedBy: Array(" (deleted)".utf8)) == FilePath(" (deleted)"))
  }

  @Test func theRunningProgramIsAnAbsolutePath() throws {
    let running = try #require(HelperProgram.running())
    #expect(running.isAbsolute)
    #expect(FileManager.default.isExecutableFile(atPath: running.text))
  }
}
