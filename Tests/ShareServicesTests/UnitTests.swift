import Foundation
import ShareCore
import Testing

@testable import ShareServices

/// The pure parts: names, URLs, key files, configuration.
@Suite struct UnitTests {
  func numbered(_ name: String, _ number: Int) -> String {
    String(decoding: FileNames.numbered(Array(name.utf8), number), as: UTF8.self)
  }

  @Test func takenNamesGetANumberBeforeTheLastExtension() {
    #expect(numbered("photo.png", 1) == "photo.png")
    #expect(numbered("photo.png", 2) == "photo (2).png")
    #expect(numbered("archive.tar.gz", 2) == "archive.tar (2).gz")
    #expect(numbered(".bashrc", 3) == ".bashrc (3)")
    #expect(numbered("README", 2) == "README (2)")
    #expect(numbered("name.", 2) == "name. (2)")
    #expect(numbered("notes 3.5 final", 2) == "notes 3.5 final (2)")
    #expect(numbered("x.verylongextension17", 2) == "x.verylongextension17 (2)")
  }

  @Test func numberedNamesStayWithinNameMaxWithoutSplittingACharacter() {
    let long = String(repeating: "é", count: 124) + ".txt"  // 248 + 4 bytes
    let second = FileNames.numbered(Array(long.utf8), 2)
    #expect(second.count <= 255)
    #expect(String(validating: second, as: UTF8.self)?.hasSuffix("é (2).txt") == true)
    let latin: [UInt8] = Array(repeating: 0xE9, count: 251) + Array(".txt".utf8)
    #expect(FileNames.numbered(latin, 10).count == 255)
    #expect(FileNames.numbered(latin, 10).suffix(9) == ArraySlice(Array(" (10).txt".utf8)))
  }

  @Test func fileURLsEncodeEveryByteButTheUnreserved() {
    #expect(FileNames.fileURL(for: Array("/a b/c%d\n".utf8)) == "file:///a%20b/c%25d%0A")
    #expect(FileNames.fileURL(for: [0x2F, 0xE9]) == "file:///%E9")
    #expect(FileNames.percentEncoded(Array("a/b~c".utf8)) == "a%2Fb~c")
  }

  @Test func displayNamesCannotForgeLines() {
    #expect(FileNames.display(Array("a\nb\tc".utf8)) == "a\\nb\\tc")
    #expect(FileNames.display([0x61, 0xE9]) == "a\\xe9")
  }

  @Test func keyFilesReadGroupsKeysAndEscapes() {
    let file = KeyFile(
      parsing: """
        # comment
        [WebDAV]
        URL = https://cloud.example/dav/
        User=me
        Password=a\\sb\\\\c\\q
        [Other]
        URL=x
        ; another comment
        """)
    #expect(file["WebDAV", "URL"] == "https://cloud.example/dav/")
    #expect(file["WebDAV", "Password"] == "a b\\c\\q")
    #expect(file["Other", "URL"] == "x")
    #expect(file["WebDAV", "Missing"] == nil)
  }

  @Test func collectionURLsEndInASlashAndKeepEscapes() {
    #expect(WebDAVConfiguration.collectionURL("https://h/a%20b")?.absoluteString == "https://h/a%20b/")
    #expect(
      WebDAVConfiguration.collectionURL("https://h/Shared Files/")?.absoluteString
        == "https://h/Shared%20Files/")
    #expect(WebDAVConfiguration.collectionURL("ftp://h/") == nil)
    #expect(WebDAVConfiguration.collectionURL("not a url") == nil)
  }

  @Test func homeIsExpandedInConfiguredFolders() {
    let environment = ServiceEnvironment(["HOME": "/home/u"])
    #expect(environment.expandingHome("~/Shared").text == "/home/u/Shared")
    #expect(environment.expandingHome("$HOME/Shared").text == "/home/u/Shared")
    #expect(environment.expandingHome("Shared").text == "/home/u/Shared")
    #expect(environment.expandingHome("/srv/x").text == "/srv/x")
    #expect(environment.abbreviated(environment.home.appending("Public")) == "~/Public")
    #expect(environment.abbreviated(environment.expandingHome("/srv/x")) == "/srv/x")
  }

  /// The folders come from the variables' bytes: a HOME that is not UTF-8 is kept as it is, and
  /// shown under `~` when it is the home folder.
  @Test func foldersKeepTheBytesOfTheEnvironment() {
    let home: [UInt8] = Array("/home/".utf8) + [0xE9]
    let environment = ServiceEnvironment(bytes: ["HOME": home, "XDG_CONFIG_HOME": Array("relative".utf8)])
    #expect(environment.home.bytes == home)
    #expect(environment.configHome.bytes == home + Array("/.config".utf8))
    #expect(environment.configFile("a.ini").bytes == home + Array("/.config/xdg-share/a.ini".utf8))
    #expect(environment.expandingHome("~/Shared").bytes == home + Array("/Shared".utf8))
    #expect(environment.abbreviated(environment.home.appending("Public")) == "~/Public")
    #expect(
      ServiceEnvironment(bytes: ["HOME": Array("/h".utf8)]).abbreviated(FilePath(bytes: home))
        == "/home/\\xe9")
  }

  @Test func kdeConnectDevicesAreParsedAndChosen() throws {
    let devices = KDEConnectService.devices(Array("abc123 Pixel 7\ndef456 Laptop\n".utf8))
    #expect(devices == [.init(id: "abc123", name: "Pixel 7"), .init(id: "def456", name: "Laptop")])
    #expect(
      try KDEConnectService.choose(from: devices, configured: "pixel 7", configuration: "f").id == "abc123")
    #expect(
      try KDEConnectService.choose(from: devices, configured: "def456", configuration: "f").id == "def456")
    #expect(
      try KDEConnectService.choose(from: [devices[1]], configured: nil, configuration: "f").id == "def456")
    #expect(throws: (any Error).self) {
      try KDEConnectService.choose(from: devices, configured: nil, configuration: "f")
    }
  }

  @Test func qrCodeNamesAreStableHashes() {
    // FNV-1a 64's published values: the same name for the same text, from run to run.
    #expect(QRCodeService.hash("") == "cbf29ce484222325")
    #expect(QRCodeService.hash("a") == "af63dc4c8601ec8c")
    #expect(QRCodeService.hash("a") != QRCodeService.hash("b"))
  }
}
