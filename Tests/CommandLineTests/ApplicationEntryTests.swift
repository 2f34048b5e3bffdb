import Foundation
import ShareCore
import SharePOSIX
import ShareTestSupport
import Testing

/// A program on PATH or in /usr/bin.
private func onPath(_ name: String) -> String? {
  ((ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin"])
    .map { "\($0)/\(name)" }.first(where: FileManager.default.isExecutableFile)
}
private let gio = onPath("gio")
private let desktopFileValidate = onPath("desktop-file-validate")
private let updateDesktopDatabase = onPath("update-desktop-database")

/// The application entry `xdg-share register` writes, `applications/org.xdgshare.Share.desktop`,
/// as the desktop reads it: valid, and the default application for nothing.
@Suite struct ApplicationEntryCommandTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
    try BundleFixture(
      id: "com.example.photos", name: "Photos",
      ruleXML: BundleFixture.dictionary([
        ("NSExtensionActivationSupportsImageWithMaxCount", "<integer>1</integer>")
      ])
    ).write(into: desktop.userExtensions)
  }

  var entryPath: String { "\(desktop.root)/data/applications/org.xdgshare.Share.desktop" }
  /// The xdg-share that the entry runs: the built binary, symbolic links resolved.
  var binary: String { URL(fileURLWithPath: Tool.path).resolvingSymlinksInPath().path }

  /// An image viewer in the desktop's system data folder, so that `image/png` has a default to
  /// lose; GIO 2.74 learns an application's types from the folder's `mimeinfo.cache`.
  func installViewer(on desktop: TemporaryDesktop) throws {
    let folder = "\(desktop.root)/system/applications"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try "[Desktop Entry]\nType=Application\nName=Viewer\nExec=/bin/true %F\nMimeType=image/png;\n".write(
      toFile: "\(folder)/viewer.desktop", atomically: true, encoding: .utf8)
    try "[MIME Cache]\nimage/png=viewer.desktop;\n".write(
      toFile: "\(folder)/mimeinfo.cache", atomically: true, encoding: .utf8)
  }

  /// `update-desktop-database` on the user's applications folder, as any program installing an
  /// application there runs it, so that GIO sees the types the entries list.
  func refreshApplicationCache(on desktop: TemporaryDesktop) throws {
    let run = try CapturedRun.run(
      [try #require(updateDesktopDatabase), "\(desktop.root)/data/applications"].map { Array($0.utf8) },
      environment: desktop.environment)
    #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
  }

  /// `gio mime image/png` on `desktop`: its XDG folders, GIO's local file system only, no bus.
  func gioMime(on desktop: TemporaryDesktop) throws -> String {
    var environment = desktop.environment(busAddress: nil)
    environment["GIO_USE_VFS"] = "local"
    let mime = try CapturedRun.run(
      [try #require(gio), "mime", "image/png"].map { Array($0.utf8) }, environment: environment)
    #expect(mime.status == 0, "\(String(decoding: mime.standardError, as: UTF8.self))")
    return String(decoding: mime.standardOutput, as: UTF8.self)
  }

  @Test func registerWritesAValidEntryThatOpensTheShareSheet() throws {
    let result = try Tool.run(["register"], on: desktop)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardOutput.contains(
        "  Application menu: applications/org.xdgshare.Share.desktop (Share, with an action per service)\n"))
    let text = try String(contentsOfFile: entryPath, encoding: .utf8)
    let entry = KeyFile(parsing: text)
    #expect(entry.value("Exec", in: "Desktop Entry") == "\(binary) --picker -- %F")
    #expect(entry.value("Name", in: "Desktop Entry") == "Share")
    #expect(entry.list("Actions", in: "Desktop Entry") == ["com-example-photos"])
    #expect(
      entry.value("Exec", in: "Desktop Action com-example-photos")
        == "\(binary) --picker --service com.example.photos -- %F")
    #expect(!text.contains("MimeType"))
  }

  @Test(
    .enabled(
      if: desktopFileValidate != nil, "desktop-file-validate is not installed (Debian: desktop-file-utils)"))
  func theEntryPassesDesktopFileValidate() throws {
    #expect(try Tool.run(["register"], on: desktop).status == 0)
    let run = try CapturedRun.run(
      [try #require(desktopFileValidate), entryPath].map { Array($0.utf8) },
      environment: desktop.environment)
    let output = String(decoding: run.standardOutput + run.standardError, as: UTF8.self)
    #expect(run.status == 0, "\(output)")
    #expect(output.isEmpty, "\(output)")
  }

  /// A user's application that lists a type becomes GIO's default for it once the folder's cache
  /// is updated; the entry lists none, so what GIO answers for `image/png` is the same before and
  /// after `register`, and after the cache is updated.
  @Test(
    .enabled(if: gio != nil, "needs gio (Debian: libglib2.0-bin)"),
    .enabled(if: updateDesktopDatabase != nil, "needs update-desktop-database (Debian: desktop-file-utils)"))
  func registerChangesNoDefaultApplication() throws {
    try installViewer(on: desktop)
    let before = try gioMime(on: desktop)
    #expect(before.hasPrefix("Default application for “image/png”: viewer.desktop\n"), "\(before)")
    #expect(try Tool.run(["register"], on: desktop).status == 0)
    #expect(FileManager.default.fileExists(atPath: entryPath))
    #expect(try gioMime(on: desktop) == before)
    try refreshApplicationCache(on: desktop)
    #expect(try gioMime(on: desktop) == before)

    // The comparison can tell: the same entry listing the type takes it over.
    let other = try TemporaryDesktop()
    try installViewer(on: other)
    try FileManager.default.createDirectory(
      atPath: "\(other.root)/data/applications", withIntermediateDirectories: true)
    try String(contentsOfFile: entryPath, encoding: .utf8)
      .replacingOccurrences(of: "Categories=Utility;", with: "Categories=Utility;\nMimeType=image/png;")
      .write(
        toFile: "\(other.root)/data/applications/org.xdgshare.Share.desktop", atomically: true,
        encoding: .utf8)
    try refreshApplicationCache(on: other)
    let taken = try gioMime(on: other)
    #expect(taken.hasPrefix("Default application for “image/png”: org.xdgshare.Share.desktop\n"), "\(taken)")
  }

  @Test func unregisterRemovesTheEntry() throws {
    #expect(try Tool.run(["register"], on: desktop).status == 0)
    #expect(FileManager.default.fileExists(atPath: entryPath))
    let result = try Tool.run(["unregister"], on: desktop)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: entryPath))
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.root)/data/applications"))
  }

  @Test func systemRegistrationWritesItIntoTheFirstDataDirectory() throws {
    // Staged below DESTDIR: for every user, the browsers' manifests would go to /etc.
    let stage = ["DESTDIR": "\(desktop.root)/stage"]
    #expect(try Tool.run(["register", "--system"], on: desktop, environment: stage).status == 0)
    let system = "\(desktop.root)/stage\(desktop.root)/system/applications/org.xdgshare.Share.desktop"
    #expect(FileManager.default.fileExists(atPath: system))
    #expect(!FileManager.default.fileExists(atPath: entryPath))
    #expect(try Tool.run(["unregister", "--system"], on: desktop, environment: stage).status == 0)
    #expect(!FileManager.default.fileExists(atPath: system))
  }
}
