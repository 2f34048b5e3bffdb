import Foundation
import ShareCore
import ShareProtocol
import Testing

@testable import ShareHost

/// Save to Folder's default folder, settled on the host's side as the service settles it.
@Suite struct SaveToFolderChoiceTests {
  let root = FileManager.default.temporaryDirectory.appendingPathComponent("save-choice-\(UUID())").path
  let service = ShareService(
    id: SaveToFolderChoice.serviceID, name: "Save to Folder", bundlePath: "/nonexistent",
    executablePath: "/nonexistent/share", rule: .predicate(.constant(true)),
    composeSheet: ComposeSheetDeclaration(configurationItems: [
      .init(identifier: "folder", title: "Folder", defaultValue: "~/Public", kind: .folder)
    ]))

  func settled(_ configuration: [String: String]?) -> String? {
    let request = PluginRequest(
      requestId: "r", serviceId: service.id, inputItems: [],
      compose: configuration.map { ComposePayload(contentText: "", configuration: $0) })
    return SaveToFolderChoice.settled(
      request, service: service,
      environment: ["HOME": "\(root)/home", "XDG_CONFIG_HOME": "\(root)/config"]
    ).compose?.configuration["folder"]
  }

  @Test func theDefaultIsFolderThenThePublicShareFolderThenPublic() throws {
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.createDirectory(
      atPath: "\(root)/config/xdg-share", withIntermediateDirectories: true)
    // ~/Public, created as the service creates it.
    #expect(settled(nil) == "\(root)/home/Public")
    #expect(FileManager.default.fileExists(atPath: "\(root)/home/Public"))
    try #"XDG_PUBLICSHARE_DIR="$HOME/Shared""#.write(
      toFile: "\(root)/config/user-dirs.dirs", atomically: true, encoding: .utf8)
    #expect(settled(["folder": "~/Public"]) == "\(root)/home/Shared")
    try "[Save to Folder]\nFolder=~/Drop\n".write(
      toFile: "\(root)/config/xdg-share/save-to-folder.ini", atomically: true, encoding: .utf8)
    #expect(settled(["folder": ""]) == "\(root)/home/Drop")
    // A folder the user chose stays as it is.
    #expect(settled(["folder": "/srv/drop"]) == "/srv/drop")
  }
}
