import ShareCore
import Testing

@testable import ShareCommandLine

/// The one wording of permissions, which `install`, `why` and `doctor` share.
@Suite struct PermissionWordsTests {
  @Test func eachPermissionInPlainWords() {
    let everything = Entitlements(
      networkClient: true, applicationGroups: ["group.x"], userSelectedReadWrite: true,
      userFolders: [.movies, .downloads], print: true, bluetooth: true,
      sessionBusTalk: ["org.kde.kdeconnect"],
      display: true, unconfined: true)
    #expect(
      everything.permissions.map(Wording.describe) == [
        "Network access", "Session bus: talk to org.kde.kdeconnect", "Application groups: group.x", "Display",
        "Items writable", "Folders: Downloads, Videos (read-write)", "Printing", "Bluetooth",
        "No sandbox (unconfined)",
      ])
    #expect(
      Wording.permissionsLine(Entitlements(networkClient: true, display: true))
        == "Permissions: Network access; Display")
    #expect(Wording.permissionsLine(.none) == nil)
  }

  @Test func consentListsAllOrWhatIsNew() {
    #expect(Wording.consent([.network], replacing: false) == ["Permissions:", "  Network access"])
    #expect(Wording.consent([.display], replacing: true) == ["New permissions:", "  Display"])
    // None: nothing, unless on a terminal for a bundle not installed before.
    #expect(Wording.consent([], replacing: false) == [])
    #expect(
      Wording.consent([], replacing: false, sayingNone: true) == [
        "Permissions: none beyond the items it is handed"
      ])
    #expect(Wording.consent([], replacing: true, sayingNone: true) == [])
  }
}
