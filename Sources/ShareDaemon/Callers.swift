import ShareCore
import ShareDBus
import SharePOSIX

/// Who calls the service: its process, and, for an app in a Flatpak sandbox, its app id, read
/// as xdg-desktop-portal reads it, from the `/.flatpak-info` in the root of the process the bus
/// names (Flatpak runs the app's bus proxy in the app's sandbox, so that process is in it).
struct Caller: Equatable, Sendable {
  var pid: Int32?
  /// The Flatpak app id; nil for an application of the host.
  var appID: String?
  /// The program's name, for an application of the host.
  var executable: String?

  /// Whether its paths are its sandbox's, which mean nothing here.
  var isSandboxed: Bool { appID != nil }

  /// How the history and the sheet know it: the app id, else the program.
  var identifier: String? { appID ?? executable }

  /// The caller of a process, `pid`; nil for a bus that named none.
  static func of(pid: Int32?) -> Caller {
    guard let pid else { return Caller() }
    if let info = ProcessStatus.rootFile(".flatpak-info", of: pid) {
      let file = KeyFile(parsing: String(decoding: info, as: UTF8.self))
      // A runtime run by itself names no application; what it runs is still sandboxed.
      let name = file.value("name", in: "Application") ?? file.value("name", in: "Runtime") ?? ""
      return Caller(pid: pid, appID: InfoPlistForm.isBusName(name) ? name : "sandboxed", executable: nil)
    }
    let program = FileSystem.linkDestination(Array("/proc/\(pid)/exe".utf8)).map {
      String(decoding: $0.split(separator: UInt8(ascii: "/")).last ?? [], as: UTF8.self)
    }
    return Caller(pid: pid, appID: nil, executable: program.flatMap { $0.isEmpty ? nil : $0 })
  }

  /// The name people know the caller by: the `Name` of its desktop entry (`<app id>.desktop`, or
  /// for a program of the host `<program>.desktop`) in the data folders and Flatpak's exports,
  /// else the app id or the program.
  func displayName(paths: SearchPaths) -> String? {
    guard let identifier else { return nil }
    var folders = [paths.dataHomeLocation] + paths.dataDirectoryLocations
    // Where Flatpak exports its apps' entries, which the desktop finds through XDG_DATA_DIRS
    // once flatpak's profile script has run.
    folders += [
      paths.dataHomeLocation.appending("flatpak/exports/share"), FilePath("/var/lib/flatpak/exports/share"),
    ]
    for folder in folders {
      let entry = folder.appending("applications").appending("\(identifier).desktop")
      guard let bytes = FileSystem.contents(ofRegularFile: entry.bytes, maximumSize: 1 << 20) else {
        continue
      }
      if let name = KeyFile(parsing: String(decoding: bytes, as: UTF8.self)).value(
        "Name", in: "Desktop Entry"),
        !name.isEmpty
      {
        return name
      }
    }
    return identifier
  }
}

/// Callers by their unique bus name, looked up once each: the process behind a unique name never
/// changes, and the name is never given again. Forgotten when the name goes (`NameOwnerChanged`).
final class CallerDirectory {
  private var known: [String: Caller] = [:]

  /// The caller behind `sender`, asking the bus for its process the first time.
  func caller(_ sender: String, on bus: any BusCalls) -> Caller {
    if let caller = known[sender] { return caller }
    let ask = DBusMessage.methodCall(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
      member: "GetConnectionUnixProcessID")
    ask.append([.string(sender)])
    var pid: Int32?
    if case .uint32(let number)? = (try? bus.call(ask, timeout: 5))?.arguments().first, number > 0,
      number <= UInt32(Int32.max)
    {
      pid = Int32(number)
    }
    let caller = Caller.of(pid: pid)
    // Callers are a few; a service that outlives thousands forgets them as they go.
    known[sender] = caller
    return caller
  }

  /// Forgets `name`, which has left the bus.
  func forget(_ name: String) {
    known[name] = nil
  }
}
