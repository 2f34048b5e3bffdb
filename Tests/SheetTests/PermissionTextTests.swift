import ShareCore
import Testing

@testable import ShareSheet

/// A service row's details say what the service may reach beyond its items, in the sheet's
/// language, with the words `xdg-share install` asked consent with.
@Suite struct PermissionTextTests {
  @Test func aServiceThatAsksForNothingHasNoPermissionsLine() {
    #expect(SheetText(language: .english).permissions(Entitlements()) == nil)
  }

  @Test func eachPermissionIsNamedInTheSheetsLanguage() {
    let entitlements = Entitlements(
      networkClient: true, userFolders: [.downloads], sessionBusTalk: ["org.kde.kdeconnect"], display: true)
    #expect(
      SheetText(language: .english).permissions(entitlements)
        == "Permissions: Network access; Session bus: talk to org.kde.kdeconnect; Display; Folders: Downloads (read-write)"
    )
    #expect(
      SheetText(language: .german).permissions(Entitlements(networkClient: true, display: true))
        == "Berechtigungen: Netzwerkzugriff; Bildschirm")
    #expect(
      SheetText(language: .french).permissions(Entitlements(unconfined: true))
        == "Autorisations : Sans bac à sable (non confiné)")
  }
}
