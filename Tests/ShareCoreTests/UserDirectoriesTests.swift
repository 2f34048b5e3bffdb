import ShareCore
import Testing

/// `user-dirs.dirs` read as `xdg-user-dir` reads it, by bytes.
@Suite struct UserDirectoriesTests {
  let home = FilePath("/home/u")

  func directories(_ text: [UInt8]) -> UserDirectories { UserDirectories(file: text, home: home) }

  @Test func aQuotedValueUnderHomeWithEscapesAndBytesNotUTF8() {
    let file =
      Array("# written by xdg-user-dirs-update\n  XDG_PUBLICSHARE_DIR=\"$HOME/Pub\\\"lic/\"\r\n".utf8)
      + Array("XDG_DOWNLOAD_DIR=\"/data/caf".utf8) + [0xE9] + Array("\"\n".utf8)
    #expect(directories(file).entry("PUBLICSHARE") == .folder(FilePath("/home/u/Pub\"lic")))
    #expect(
      directories(file).entry("DOWNLOAD") == .folder(FilePath(bytes: Array("/data/caf".utf8) + [0xE9])))
  }

  @Test func theHomeFolderItselfOrARelativePathIsDisabled() {
    #expect(directories(Array("XDG_PUBLICSHARE_DIR=\"$HOME/\"\n".utf8)).entry("PUBLICSHARE") == .disabled)
    #expect(directories(Array("XDG_MUSIC_DIR=\"Music\"\n".utf8)).entry("MUSIC") == .disabled)
  }

  @Test func anUnquotedOrMissingValueIsNotNamed() {
    #expect(directories(Array("XDG_MUSIC_DIR=$HOME/Music\n".utf8)).entry("MUSIC") == .notNamed)
    #expect(directories([]).entry("PICTURES") == .notNamed)
  }
}
