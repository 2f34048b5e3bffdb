import ShareCore
import ShareHost
import ShareProtocol
import Testing

/// The folders a request's `folder` items chose: what the program's sandbox binds read-write.
@Suite struct ChosenFoldersTests {
  let service = ShareService(
    id: "org.example.save", name: "Save", bundlePath: "/nonexistent", executablePath: "/nonexistent/share",
    rule: .predicate(.constant(true)),
    composeSheet: ComposeSheetDeclaration(configurationItems: [
      .init(identifier: "folder", title: "Folder", defaultValue: "~/Public", kind: .folder),
      .init(identifier: "note", title: "Note"),
    ]))

  func runner(_ configuration: [String: String]?, home: String? = "/home/me") -> PluginRunner {
    PluginRunner(
      service: service,
      request: PluginRequest(
        requestId: "r", serviceId: service.id, inputItems: [],
        compose: configuration.map { ComposePayload(contentText: "", configuration: $0) }),
      environment: home.map { ["HOME": $0] } ?? [:], logPath: nil)
  }

  @Test func theChoiceElseTheDefaultUnderHome() {
    #expect(runner(["folder": "/srv/drop", "note": "/etc"]).chosenFolders == [FilePath("/srv/drop")])
    #expect(runner(["folder": "~/Out"]).chosenFolders == [FilePath("/home/me/Out")])
    #expect(runner(nil).chosenFolders == [FilePath("/home/me/Public")])
    #expect(runner(["folder": "~/Out"], home: nil).chosenFolders == [])
  }
}
