import Foundation
import ShareCore
import ShareDBus
import SharePOSIX
import ShareTestSupport
import Testing

@testable import ShareDaemon

/// What the D-Bus service asks of the bus and of the document portal, and what it makes of the
/// answers, against a recording double.
@Suite struct BusSeamTests {
  static let busName = "org.freedesktop.DBus"
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  @Test func aCallerIsLookedUpOnceByItsUniqueName() throws {
    let bus = RecordingBus()
    bus.answer("GetConnectionUnixProcessID", with: [.uint32(UInt32(getpid()))])
    let directory = CallerDirectory()
    let caller = directory.caller(":1.7", on: bus)
    #expect(caller.pid == getpid())
    #expect(caller.appID == nil && !caller.isSandboxed)
    #expect(
      bus.calls == [
        RecordingBus.Call(
          destination: Self.busName, path: "/org/freedesktop/DBus", interface: Self.busName,
          member: "GetConnectionUnixProcessID", signature: "s", arguments: [.string(":1.7")], timeout: 5)
      ])
    // Known from now on, until the name leaves the bus.
    _ = directory.caller(":1.7", on: bus)
    #expect(bus.calls.count == 1)
    directory.forget(":1.7")
    _ = directory.caller(":1.7", on: bus)
    #expect(bus.calls.count == 2)
  }

  @Test(arguments: [
    Result<[DBusValue], DBusFailure>.failure(
      DBusFailure(name: "org.freedesktop.DBus.Error.NameHasNoOwner", message: "gone")),
    .success([.uint32(0)]), .success([.string("1234")]), .success([.uint32(UInt32.max)]),
  ])
  func aCallerTheBusCannotNameHasNoProcess(answer: Result<[DBusValue], DBusFailure>) {
    let bus = RecordingBus()
    bus.answer("GetConnectionUnixProcessID", with: answer)
    #expect(CallerDirectory().caller(":1.9", on: bus) == Caller())
  }

  @Test func thePortalIsUsedOnlyWhenItRuns() {
    let bus = RecordingBus()
    bus.answer("NameHasOwner", with: [.boolean(false)])
    #expect(DocumentPortal.running(on: bus) == nil)
    // It is not started for a share: asked whether it runs, and no more.
    #expect(bus.calls.map(\.member) == ["NameHasOwner"])
    #expect(bus.calls[0].arguments == [.string(DocumentPortal.busName)])
    #expect(bus.calls[0].destination == Self.busName)
  }

  @Test(arguments: [
    Result<[DBusValue], DBusFailure>.failure(
      DBusFailure(name: "org.freedesktop.DBus.Error.ServiceUnknown", message: "not there")),
    .success([.bytes(Array("run/user/doc\0".utf8))]), .success([.string("/run/user/doc")]),
  ])
  func aPortalWithoutAMountPointIsNone(answer: Result<[DBusValue], DBusFailure>) {
    let bus = RecordingBus()
    bus.answer("NameHasOwner", with: [.boolean(true)])
    bus.answer("GetMountPoint", with: answer)
    #expect(DocumentPortal.running(on: bus) == nil)
    #expect(bus.calls.map(\.member) == ["NameHasOwner", "GetMountPoint"])
  }

  /// A portal whose mount point is a folder of the test's, and a file to export.
  func portal(_ bus: RecordingBus, mount name: String = "doc") throws
    -> (portal: DocumentPortal, mount: String, file: FileDescriptor)
  {
    let mount = "\(desktop.root)/\(name)"
    try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
    bus.answer("NameHasOwner", with: [.boolean(true)])
    bus.answer("GetMountPoint", with: [.bytes(Array(mount.utf8) + [0])])
    let portal = try #require(DocumentPortal.running(on: bus))
    #expect(portal.mountPoint == FilePath(mount))
    let path = try desktop.writeFile(named: Array("photo.png".utf8), contents: tinyPNG)
    return (portal, mount, try FileDescriptor.openForReading(path))
  }

  @Test func aFileIsExportedAsADocumentOfItsOwn() throws {
    let bus = RecordingBus()
    let (portal, mount, file) = try portal(bus)
    defer { file.close() }
    bus.answer("Add", with: [.string("a1b2")])
    // Where the portal shows the document.
    try FileManager.default.createDirectory(atPath: "\(mount)/a1b2", withIntermediateDirectories: true)
    try Data(tinyPNG).write(to: URL(fileURLWithPath: "\(mount)/a1b2/photo.png"))
    let exported = try #require(portal.export(file))
    #expect(exported.id == "a1b2")
    #expect(exported.path == FilePath("\(mount)/a1b2/photo.png"))
    let add = try #require(bus.calls(of: "Add").first)
    #expect(add.destination == DocumentPortal.busName && add.path == DocumentPortal.path)
    // The descriptor, then neither reuse_existing nor persistent.
    #expect(add.signature == "hbb")
    #expect(add.arguments == [.boolean(false), .boolean(false)])

    // Released with the request: the document deleted.
    bus.answer("Delete", with: [])
    portal.delete("a1b2")
    #expect(bus.calls(of: "Delete").map(\.arguments) == [[.string("a1b2")]])
  }

  @Test func aRefusedOrMissingExportIsNoneAndLeavesNoDocument() throws {
    let bus = RecordingBus()
    let (portal, _, file) = try portal(bus)
    defer { file.close() }
    bus.answer(
      "Add", with: .failure(DBusFailure(name: "org.freedesktop.portal.Error.NotAllowed", message: "no")))
    #expect(portal.export(file) == nil)
    #expect(bus.calls(of: "Delete").isEmpty)
    // An id that is not one.
    let strange = RecordingBus()
    let (other, _, second) = try self.portal(strange, mount: "doc2")
    defer { second.close() }
    strange.answer("Add", with: [.string("../etc")])
    #expect(other.export(second) == nil)
    // A document the portal does not show where it says: deleted again.
    let absent = RecordingBus()
    let (third, _, descriptor) = try self.portal(absent, mount: "doc3")
    defer { descriptor.close() }
    absent.answer("Add", with: [.string("c3d4")])
    absent.answer("Delete", with: [])
    #expect(third.export(descriptor) == nil)
    #expect(absent.calls(of: "Delete").map(\.arguments) == [[.string("c3d4")]])
  }
}
