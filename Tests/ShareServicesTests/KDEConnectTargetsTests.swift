import Foundation
import ShareDBus
import SharePOSIX
import ShareTestSupport
import Testing

/// KDE Connect's devices as direct targets, with a stand-in `kdeconnectd` on a private bus that
/// answers as KDE Connect 22.12 does (`devices(bb)`, each device's properties, `deviceListChanged`
/// when one pairs, goes or comes): the D-Bus service runs the bundled service to publish them
/// when it starts and when the list changes.
@Suite(.serialized) struct KDEConnectTargetsTests {
  let desktop: TemporaryDesktop
  let bus: PrivateBus
  let fakes: FakePrograms
  let id = ServiceBundles.kdeConnect

  /// KDE Connect's daemon as far as its devices go: its D-Bus names as in 22.12's
  /// core/daemon.h and core/device.h, and `org.example.Control.Remove(s)` for the test.
  static let standIn = #"""
    import dbus, dbus.service, sys
    from dbus.mainloop.glib import DBusGMainLoop
    from gi.repository import GLib
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    # id: (name, type, reachable, trusted)
    devices = {
        "a1b2c3d4": ("Pixel 7", "smartphone", True, True),
        "e5f6a7b8": ("Galaxy Tab\u202e", "tablet", True, True),
        "c9d0e1f2": ("Neighbour's phone", "smartphone", True, False),
        "a3b4c5d6": ("Old laptop", "laptop", False, True),
    }
    class Device(dbus.service.Object):
        def __init__(self, id):
            dbus.service.Object.__init__(self, bus, "/modules/kdeconnect/devices/" + id)
            self.id = id
        @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="ss", out_signature="v")
        def Get(self, interface, name):
            return self.GetAll(interface)[name]
        @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="s", out_signature="a{sv}")
        def GetAll(self, interface):
            name, kind, reachable, trusted = devices[self.id]
            return {"name": name, "type": kind, "isReachable": dbus.Boolean(reachable),
                    "isTrusted": dbus.Boolean(trusted), "iconName": kind + "disconnected"}
        @dbus.service.method("org.kde.kdeconnect.device", out_signature="b")
        def isTrusted(self):
            return devices[self.id][3]
    class Daemon(dbus.service.Object):
        @dbus.service.method("org.kde.kdeconnect.daemon", in_signature="bb", out_signature="as")
        def devices(self, onlyReachable, onlyPaired):
            return [id for id, (_, _, reachable, trusted) in sorted(devices.items())
                    if (reachable or not onlyReachable) and (trusted or not onlyPaired)]
        @dbus.service.method("org.kde.kdeconnect.daemon", in_signature="s")
        def acquireDiscoveryMode(self, id): pass
        @dbus.service.method("org.kde.kdeconnect.daemon", in_signature="s")
        def releaseDiscoveryMode(self, id): pass
        @dbus.service.signal("org.kde.kdeconnect.daemon", signature="s")
        def deviceRemoved(self, id): pass
        @dbus.service.signal("org.kde.kdeconnect.daemon", signature="")
        def deviceListChanged(self): pass
        @dbus.service.method("org.example.Control", in_signature="s")
        def Remove(self, id):
            del devices[id]
            self.deviceRemoved(id)
            self.deviceListChanged()
    daemon = Daemon(bus, "/modules/kdeconnect")
    things = [Device(id) for id in devices]
    name = dbus.service.BusName("org.kde.kdeconnect", bus)
    GLib.MainLoop().run()
    """#

  init() throws {
    desktop = try TemporaryDesktop()
    bus = try desktop.startBus()
    fakes = try FakePrograms(desktop: desktop, insideContainerOf: id)
    // The service is offered only where kdeconnect-cli is; this one lists the Pixel.
    try fakes.install(
      "kdeconnect-cli",
      body: """
        case "$1" in
          --list-available) printf 'a1b2c3d4 Pixel 7\\n' ;;
        esac
        """)
    try desktop.installServices([id])
  }

  var targetsFile: String { "\(desktop.root)/state/xdg-share/targets/\(id).json" }

  /// The published targets, by id and title; nil before there is a file.
  func published() -> [String]? {
    guard let data = FileManager.default.contents(atPath: targetsFile),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let targets = object["targets"] as? [[String: Any]]
    else { return nil }
    return targets.map {
      "\($0["id"] as? String ?? "") \($0["title"] as? String ?? ""), \($0["subtitle"] as? String ?? "")"
    }
  }

  func waitFor(_ wanted: [String], timeout: Double = 15) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if published() == wanted { return true }
      usleep(50_000)
    }
    return false
  }

  @Test func pairedDevicesInReachAreTargetsAndOneGoneIsRemoved() throws {
    let script = "\(desktop.root)/kdeconnectd.py"
    try Self.standIn.write(toFile: script, atomically: true, encoding: .utf8)
    let standIn = try ChildProcess.spawn(
      [Array("/usr/bin/python3".utf8), Array(script.utf8)], environment: desktop.environment)
    defer {
      standIn.signal(Signal.terminate)
      _ = standIn.wait()
    }
    let client = try BusConnection.connect(address: bus.address)
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      let owned = DBusMessage.methodCall(
        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
        member: "NameHasOwner")
      owned.append([.string("org.kde.kdeconnect")])
      if try client.call(owned).arguments().first == .boolean(true) { break }
      usleep(20_000)
    }

    let daemon = try desktop.startDaemon(environment: ["PATH": fakes.path])
    defer {
      daemon.signal(Signal.terminate)
      _ = daemon.wait()
    }
    // Paired and in reach: the Pixel and the tablet (its name's bidirectional control made a
    // space), not the neighbour's phone (not paired) nor the laptop (out of reach).
    #expect(waitFor(["a1b2c3d4 Pixel 7, Phone", "e5f6a7b8 Galaxy Tab, Tablet"]), "\(published() ?? [])")

    // The tablet goes: KDE Connect says so, and the target is gone.
    let remove = DBusMessage.methodCall(
      destination: "org.kde.kdeconnect", path: "/modules/kdeconnect", interface: "org.example.Control",
      member: "Remove")
    remove.append([.string("e5f6a7b8")])
    _ = try client.call(remove)
    #expect(waitFor(["a1b2c3d4 Pixel 7, Phone"]), "\(published() ?? [])")

    // Shared to the Pixel by its target: sent to that device.
    try desktop.writeFile(named: Array("photo.png".utf8), contents: tinyPNG)
    let shared = try Tool.run(
      ["--service", id, "--target", "a1b2c3d4", "photo.png"], on: desktop, environment: ["PATH": fakes.path])
    #expect(shared.status == 0, "\(shared.standardError)")
    let sent = try fakes.arguments("kdeconnect-cli", call: fakes.callCount("kdeconnect-cli"))
    #expect(sent.first == Array("--device=a1b2c3d4".utf8))
  }
}
