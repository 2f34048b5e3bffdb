import Testing

@testable import ShareCore

/// Paths are bytes in the core: `FilePath.text`, `SearchPaths` from byte values, and bundles read
/// through `BundleFiles` (here a folder tree in memory) whatever their names hold.
@Suite struct BytePathCoreTests {
  static let cafe = FilePath(bytes: Array("/x/caf".utf8) + [0xE9] + Array(".shareext".utf8))

  @Test func textIsThePathWhenUTF8AndEscapedOtherwise() {
    // UTF-8: unchanged, backslashes and line breaks included (output stays as it was).
    #expect(FilePath("/a/b\\c\nd/é").text == "/a/b\\c\nd/é")
    #expect(Self.cafe.text == "/x/caf\\xe9.shareext")
    #expect(FilePath(bytes: [0x2F, 0xFF, 0x5C]).text == "/\\xff\\\\")
    #expect(FilePath("/a/b///").trimmingTrailingSlashes == FilePath("/a/b"))
    #expect(FilePath("/").trimmingTrailingSlashes == FilePath("/"))
  }

  @Test func searchPathsTakeInheritedBytesForTheirLossyDecoding() {
    let data: [UInt8] = Array("/d-".utf8) + [0xFF]
    let lossy = String(decoding: data, as: UTF8.self)
    let paths = SearchPaths(
      environment: ["HOME": "/h", "XDG_DATA_HOME": lossy, "XDG_STATE_HOME": "/s/"],
      inherited: ["XDG_DATA_HOME": data, "XDG_STATE_HOME": Array("/elsewhere".utf8)])
    #expect(paths.dataHomeLocation.bytes == data)
    #expect(paths.dataHome == "/d-\\xff")
    #expect(paths.userExtensionsLocation.bytes == data + Array("/xdg-share/extensions".utf8))
    // A value the caller changed is the caller's: its own UTF-8.
    #expect(paths.stateHome == "/s")
    #expect(paths.configHome == "/h/.config")
  }

  @Test func dataDirectoriesAreSplitAsBytes() {
    let system: [UInt8] = Array("/opt/syst".utf8) + [0xE8] + Array("m/".utf8)
    let listed = String(decoding: system + Array(":rel:/usr/share".utf8), as: UTF8.self)
    let paths = SearchPaths(
      environment: ["HOME": "/h", "XDG_DATA_DIRS": listed],
      inherited: ["XDG_DATA_DIRS": system + Array(":rel:/usr/share".utf8)])
    #expect(paths.dataDirectoryLocations == [FilePath(bytes: system.dropLast()), FilePath("/usr/share")])
    #expect(paths.extensionDirectoryLocations.count == 3)
  }

  @Test func aHomeNotUTF8GivesEveryDefaultFolderItsBytes() {
    let home: [UInt8] = Array("/h".utf8) + [0xF6]
    let paths = SearchPaths(
      environment: ["HOME": String(decoding: home, as: UTF8.self)], inherited: ["HOME": home])
    #expect(paths.dataHomeLocation.bytes == home + Array("/.local/share".utf8))
    #expect(paths.stateHomeLocation.bytes == home + Array("/.local/state".utf8))
    #expect(paths.settingsFileLocation.bytes == home + Array("/.config/xdg-share/settings.ini".utf8))
  }

  @Test func aBundleWhoseFolderIsNotUTF8LoadsThroughBundleFiles() throws {
    let files = MemoryBundleFiles(bundle: Self.cafe, executable: "run")
    let registry = ServiceRegistry.load(
      from: [FilePath("/x")], loader: BundleLoader(languages: [], files: files))
    #expect(registry.problems.isEmpty, "\(registry.problems)")
    let service = try #require(registry.services.first)
    #expect(service.id == "org.example.cafe")
    #expect(service.bundleLocation == Self.cafe)
    #expect(service.executableLocation == Self.cafe.appending("run"))
    #expect(service.bundlePath == "/x/caf\\xe9.shareext")
    #expect(service.executablePath == "/x/caf\\xe9.shareext/run")
  }

  @Test func problemsNameTheBundleWithEscapes() {
    var files = MemoryBundleFiles(bundle: Self.cafe, executable: "run")
    files.executable = nil
    let outcome = BundleLoader(languages: [], files: files).load(bundleAt: Self.cafe)
    #expect(outcome.service == nil)
    #expect(outcome.problems.map(\.file) == ["/x/caf\\xe9.shareext/Info.plist"])
  }

  @Test func foundationFilesDoNotReachAPathNotUTF8() {
    // The default reader cannot name such a folder: it is reported missing, never a crash.
    let outcome = BundleLoader(languages: []).load(bundleAt: Self.cafe)
    #expect(outcome.service == nil)
    #expect(outcome.problems.map(\.kind) == [.notABundle(exists: false)])
  }

  @Test func bundlesAreOrderedByTheirNamesAsTextThenBytes() {
    let names: [[UInt8]] = [
      Array("b.shareext".utf8), Array("a".utf8) + [0xFF] + Array(".shareext".utf8),
      Array("a".utf8) + [0xFE] + Array(".shareext".utf8), Array("A.shareext".utf8), Array("notes".utf8),
    ]
    let files = ListingOnly(names: names)
    let found = ServiceRegistry.bundles(in: FilePath("/x"), files: files).map { Array($0.lastComponent) }
    #expect(found == [names[3], names[2], names[1], names[0]])
  }
}

/// One bundle, in memory: its folder, `Info.plist`, and its program when there is one.
struct MemoryBundleFiles: BundleFiles {
  var bundle: FilePath
  var executable: String?

  init(bundle: FilePath, executable: String) {
    self.bundle = bundle
    self.executable = executable
  }

  var plist: [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
      <key>CFBundleIdentifier</key><string>org.example.cafe</string>
      <key>CFBundleDisplayName</key><string>Café</string>
      <key>CFBundleExecutable</key><string>run</string>
      <key>NSExtension</key><dict>
      <key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string>
      <key>NSExtensionAttributes</key><dict>
      <key>NSExtensionActivationRule</key>\(HandWrittenBundle.anyItem)</dict></dict>
      </dict></plist>
      """.utf8)
  }

  func entries(ofDirectory path: FilePath) -> [[UInt8]]? {
    path.appending(bundle.lastComponent) == bundle ? [bundle.lastComponent] : nil
  }

  func kind(of path: FilePath) -> BundleFileKind? {
    if path == bundle { return .directory }
    if path == bundle.appending("Info.plist") { return .regular(size: plist.count) }
    if let executable, path == bundle.appending(executable) { return .regular(size: 10) }
    return nil
  }

  func contents(of path: FilePath, maximumSize: Int) -> [UInt8]? {
    path == bundle.appending("Info.plist") ? plist : nil
  }

  func isExecutable(_ path: FilePath) -> Bool {
    executable.map { path == bundle.appending($0) } ?? false
  }

  func linkDestination(of path: FilePath) -> FilePath? { nil }
}

/// A folder with `names` in it and nothing else readable.
struct ListingOnly: BundleFiles {
  var names: [[UInt8]]
  func entries(ofDirectory path: FilePath) -> [[UInt8]]? { names }
  func kind(of path: FilePath) -> BundleFileKind? { nil }
  func contents(of path: FilePath, maximumSize: Int) -> [UInt8]? { nil }
  func isExecutable(_ path: FilePath) -> Bool { false }
  func linkDestination(of path: FilePath) -> FilePath? { nil }
}
