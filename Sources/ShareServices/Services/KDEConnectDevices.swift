import ShareCore
import ShareDBus
import ShareKit

/// KDE Connect's paired devices in reach, read from its daemon over D-Bus as KDE Connect 22.12
/// offers them: `devices(onlyReachable, onlyPaired)` of `org.kde.kdeconnect.daemon` at
/// `/modules/kdeconnect`, then each device's `name` and `type` properties
/// (`org.kde.kdeconnect.device` at `/modules/kdeconnect/devices/<id>`).
struct KDEConnectDevices {
  static let busName = "org.kde.kdeconnect"
  static let daemonPath = "/modules/kdeconnect"
  static let daemonInterface = "org.kde.kdeconnect.daemon"
  static let deviceInterface = "org.kde.kdeconnect.device"

  /// One device: what the sheet shows of it.
  struct Device: Equatable {
    var id: String
    var name: String
    /// KDE Connect's `type`: desktop, laptop, smartphone, tablet, tv or unknown.
    var type: String

    var target: ShareTarget {
      ShareTarget(
        identifier: id, title: Self.shown(name), subtitle: Self.subtitle(type), iconName: Self.icon(type))
    }

    /// A device's name as a title: what a sheet would refuse to show (a line break, a
    /// bidirectional control) made a space, at most 100 characters.
    static func shown(_ name: String) -> String {
      let scalars = name.unicodeScalars.map { scalar -> Unicode.Scalar in
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069:
          " "
        default: scalar
        }
      }
      let cleaned = String(String.UnicodeScalarView(scalars)).trimmingSpaces()
      return cleaned.isEmpty ? "Device" : String(cleaned.prefix(100))
    }

    static func subtitle(_ type: String) -> String {
      switch type {
      case "smartphone", "phone": "Phone"
      case "tablet": "Tablet"
      case "laptop": "Laptop"
      case "desktop": "Computer"
      case "tv": "TV"
      default: "Device"
      }
    }

    static func icon(_ type: String) -> String {
      switch type {
      case "tablet": "tablet"
      case "laptop": "computer-laptop"
      case "desktop": "computer"
      case "tv": "video-display"
      default: "phone"
      }
    }
  }

  /// The paired devices in reach; none when nothing owns KDE Connect's name on the session bus.
  static func onTheBus() throws -> [Device] {
    let connection: BusConnection
    do {
      connection = try BusConnection.session()
    } catch {
      throw ShareError("cannot reach the session bus: \(error.message)")
    }
    // Asked, not activated: publishing targets does not start KDE Connect.
    let owned = DBusMessage.methodCall(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
      member: "NameHasOwner")
    owned.append([.string(busName)])
    guard case .boolean(true)? = (try? connection.call(owned, timeout: 5))?.arguments().first else {
      return []
    }
    let list = DBusMessage.methodCall(
      destination: busName, path: daemonPath, interface: daemonInterface, member: "devices")
    list.append([.boolean(true), .boolean(true)])
    let ids: [String]
    do {
      guard case .array(_, let values)? = try connection.call(list, timeout: 5).arguments().first else {
        return []
      }
      ids = values.compactMap(\.stringValue)
    } catch {
      throw ShareError("KDE Connect cannot list the devices: \(error.message)")
    }
    // An object path element is letters, digits and `_`: an id the daemon gives otherwise is no
    // device this can ask about.
    return ids.filter { !$0.isEmpty && $0.utf8.allSatisfy(Self.isPathByte) }.compactMap { id in
      let properties = DBusMessage.methodCall(
        destination: busName, path: "\(daemonPath)/devices/\(id)",
        interface: "org.freedesktop.DBus.Properties",
        member: "GetAll")
      properties.append([.string(deviceInterface)])
      guard let reply = try? connection.call(properties, timeout: 5),
        let entries = reply.arguments().first?.vardictEntries
      else { return nil }
      func text(_ key: String) -> String? { entries.first { $0.key == key }?.value.stringValue }
      return Device(id: id, name: text("name") ?? id, type: text("type") ?? "unknown")
    }
  }

  private static func isPathByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
      true
    default: false
    }
  }
}
