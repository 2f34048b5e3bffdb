import ShareProtocol
import Testing

/// Where a group's container is: under `XDG_DATA_HOME` outside, and in a service's sandbox, where
/// `XDG_DATA_HOME` is its own container's, where `XDG_SHARE_GROUPS_HOME` says.
@Suite struct GroupContainerTests {
  let group = ApplicationGroup("group.ch.example.hoi")!

  @Test func outsideTheContainerIsUnderTheDataFolder() {
    #expect(
      group.containerPath(environment: ["HOME": "/home/u"])
        == "/home/u/.local/share/xdg-share/groups/group.ch.example.hoi")
    #expect(
      group.containerLocation(environment: ["XDG_DATA_HOME": Array("/d/caf".utf8) + [0xE9]])
        == Array("/d/caf".utf8) + [0xE9] + Array("/xdg-share/groups/group.ch.example.hoi".utf8))
  }

  @Test func inASandboxTheGroupsFolderIsTheOneTheHostNames() {
    let inside = [
      "XDG_DATA_HOME": "/home/u/.local/share/xdg-share/containers/ch.example.hoi/data",
      "XDG_SHARE_GROUPS_HOME": "/home/u/.local/share/xdg-share/groups",
    ]
    #expect(
      group.containerPath(environment: inside) == "/home/u/.local/share/xdg-share/groups/group.ch.example.hoi"
    )
    // A relative value is no folder: ignored.
    #expect(
      group.containerPath(environment: ["HOME": "/h", "XDG_SHARE_GROUPS_HOME": "groups"])
        == "/h/.local/share/xdg-share/groups/group.ch.example.hoi")
  }
}
