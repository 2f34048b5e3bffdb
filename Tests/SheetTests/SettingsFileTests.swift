import Foundation
import ShareCore
import SharePOSIX
import ShareTestSupport
import Testing

@testable import ShareSheet

/// The edit mode's settings file, written by bytes: a configuration folder whose path is not
/// UTF-8 is written into, not refused or written under a repaired name.
@Suite struct SettingsFileTests {
  @Test func pinsAreWrittenUnderAConfigHomeNotUTF8() throws {
    let desktop = try TemporaryDesktop()
    let configHome = Array("\(desktop.root)/conf-".utf8) + [0xE9]
    let paths = SearchPaths(
      environment: ["XDG_CONFIG_HOME": String(decoding: configHome, as: UTF8.self)],
      inherited: ["XDG_CONFIG_HOME": configHome])
    let file = SettingsFile(paths: paths)
    try file.update { $0.pinnedServices = ["org.example.a"] }
    try file.update { $0.hiddenServices = ["org.example.b"] }
    let written = try #require(
      FileSystem.contents(
        ofRegularFile: configHome + Array("/xdg-share/settings.ini".utf8), maximumSize: 1 << 20))
    let settings = UserSettings(parsing: String(decoding: written, as: UTF8.self))
    #expect(settings.pinnedServices == ["org.example.a"])
    #expect(settings.hiddenServices == ["org.example.b"])
    #expect(file.read() == settings)
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.root)/conf-\u{FFFD}"))
  }

  @Test func aSettingsFileThatCannotBeReadIsNotWrittenOver() throws {
    let desktop = try TemporaryDesktop()
    let configHome = "\(desktop.root)/conf"
    let paths = SearchPaths(environment: ["XDG_CONFIG_HOME": configHome])
    try FileManager.default.createDirectory(
      atPath: "\(configHome)/xdg-share", withIntermediateDirectories: true)
    // Larger than a reader takes (1 MiB): the picker must not replace it with its own keys alone.
    let large = Data(repeating: UInt8(ascii: "#"), count: (1 << 20) + 1)
    try large.write(to: URL(fileURLWithPath: "\(configHome)/xdg-share/settings.ini"))
    let file = SettingsFile(paths: paths)
    #expect(throws: SystemError.self) { try file.update { $0.pinnedServices = ["org.example.a"] } }
    #expect(try Data(contentsOf: URL(fileURLWithPath: "\(configHome)/xdg-share/settings.ini")) == large)
  }
}
