import Foundation
import ShareCore
import ShareHost
import ShareTestSupport
import Testing

@testable import ShareDesktop

/// What the Purpose plugins read from the system: the job program beside xdg-share, and every
/// translation of a bundle, whose folder need not be UTF-8.
@Suite struct PurposeSetupTests {
  struct NoSoftware: InstalledSoftware {
    var packages: Set<String> = []
    func hasProgram(_ name: String) -> Bool { false }
    func hasPackage(_ name: String) -> Bool { packages.contains(name) }
  }

  @Test func aBundleInAFolderThatIsNotUTF8GetsItsTranslations() throws {
    let desktop = try TemporaryDesktop(prefix: "purpose-setup")
    let written = try BundleFixture(
      id: "org.example.cafe", name: "Café \"Share\"",
      ruleXML: BundleFixture.dictionary([
        ("NSExtensionActivationSupportsImageWithMaxCount", "<integer>3</integer>")
      ]),
      extraXML: "<key>XDGShareDescription</key><string>Post up to 3 photos</string>"
    ).write(into: desktop.files, folder: "cafe")
    for (language, name) in [("de", "Café teilen"), ("fr", "Partager au café"), ("pt-BR", "Compartilhar")] {
      try FileManager.default.createDirectory(
        atPath: "\(written)/\(language).lproj", withIntermediateDirectories: true)
      try "\"CFBundleDisplayName\" = \"\(name)\";\n".write(
        toFile: "\(written)/\(language).lproj/InfoPlist.strings", atomically: true, encoding: .utf8)
    }
    let folder = Array("\(desktop.files)/caf".utf8) + [0xE9] + Array(".shareext".utf8)
    try renameBytes(Array(written.utf8), to: folder)
    let service = try #require(
      BundleLoader(languages: ["de"], files: SystemBundleFiles()).load(bundleAt: FilePath(bytes: folder))
        .service)
    #expect(service.name == "Café teilen")

    // xdg-share and its job program, as install.sh lays them out.
    let bin = "\(desktop.root)/prefix/bin"
    let libexec = "\(desktop.root)/prefix/libexec/xdg-share"
    for path in [bin, libexec] {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    try "#!/bin/sh\n".write(toFile: "\(libexec)/xdg-share-purpose", atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o755], ofItemAtPath: "\(libexec)/xdg-share-purpose")
    let setup = try #require(
      FileManagerIntegration.purposeSetup(
        executable: "\(bin)/xdg-share", services: [service],
        paths: SearchPaths.system(environment: desktop.environment),
        software: NoSoftware()))
    #expect(setup.program == "\(libexec)/xdg-share-purpose")
    #expect(!setup.inDolphin)
    let rendering = try FileManagerIntegration.render(
      services: [service], executable: "/usr/bin/xdg-share", catalog: Fixture.catalog,
      purpose: PurposeSetup(
        program: "/usr/libexec/xdg-share/xdg-share-purpose", inDolphin: false,
        translations: setup.translations, plainServices: setup.plainServices))
    let metadata = try #require(
      rendering.files.first { $0.path == "kpackage/Purpose/org.xdgshare.org.example.cafe/metadata.json" })
    try Snapshot.assertMatches(metadata.contents, named: "purpose-bundle-not-utf8")
  }

  @Test func noJobProgramNoPlugins() throws {
    let desktop = try TemporaryDesktop(prefix: "purpose-setup")
    #expect(
      FileManagerIntegration.purposeSetup(
        executable: "\(desktop.root)/bin/xdg-share", services: [],
        paths: SearchPaths.system(environment: desktop.environment), software: NoSoftware()) == nil)
    #expect(!PurposePlugins.canRun("/opt/Share Tools/xdg-share-purpose"))
    #expect(!PurposePlugins.canRun("relative/xdg-share-purpose"))
    #expect(PurposePlugins.canRun("/usr/libexec/xdg-share/xdg-share-purpose"))
  }

  @Test func dolphinsShareMenuIsPurposesWhenItsPluginIsThereAndNotTurnedOff() throws {
    let desktop = try TemporaryDesktop(prefix: "purpose-setup")
    let paths = SearchPaths.system(environment: desktop.environment)
    #expect(!FileManagerIntegration.purposeInDolphin(paths: paths, software: NoSoftware()))
    let purpose = NoSoftware(packages: ["libkf5purpose-bin"])
    #expect(FileManagerIntegration.purposeInDolphin(paths: paths, software: purpose))
    try "[Show]\nsharefileitemaction=false\n".write(
      toFile: "\(desktop.root)/config/kservicemenurc", atomically: true, encoding: .utf8)
    #expect(!FileManagerIntegration.purposeInDolphin(paths: paths, software: purpose))
  }
}

/// Renames by bytes: the test's folder name is not UTF-8.
private func renameBytes(_ from: [UInt8], to: [UInt8]) throws {
  let result = (from + [0]).withUnsafeBufferPointer { old in
    (to + [0]).withUnsafeBufferPointer { new in
      old.withMemoryRebound(to: CChar.self) { old in
        new.withMemoryRebound(to: CChar.self) { new in rename(old.baseAddress!, new.baseAddress!) }
      }
    }
  }
  guard result == 0 else { throw CocoaError(.fileWriteUnknown) }
}
