import FoundationEssentials
import ShareCore
public import ShareKit
import SharePOSIX

/// Send via KDE Connect: the shared files, links and texts to a paired phone or computer, with
/// `kdeconnect-cli`.
///
/// The device is `Device=` (its id or its name) in `$XDG_CONFIG_HOME/xdg-share/kdeconnect.ini`:
///
/// ```ini
/// [KDE Connect]
/// Device=Pixel 7
/// ```
///
/// Without one, the only reachable device is used; with several reachable and none chosen, the
/// request is cancelled with a message saying how to choose.
///
/// Each paired device in reach is a direct target (``ShareTargets``), published from KDE
/// Connect's daemon (`org.kde.kdeconnect`, read over D-Bus as it is at 22.12) at each run and
/// whenever the daemon says its list changed (the bundle's `XDGShareTargetSignals`). A target
/// chosen in the sheet is the device sent to.
public struct KDEConnectService: ShareExtension {
  public static let identifier = "org.xdgshare.kdeconnect"

  public init() {}

  /// A reachable device.
  struct Device: Equatable {
    var id: String
    var name: String
  }

  public func perform(context: ExtensionContext) async throws {
    let environment = ServiceEnvironment()
    let content = SharedContent(context.inputItems)
    guard !content.isEmpty else { throw ShareError("Nothing to send: no files, links or texts were shared") }
    try content.requireNoNUL()
    let programs = Programs(environment: environment)
    context.setProgress(0, message: "Looking for devices")
    let listing = try programs.run(["kdeconnect-cli", "--list-available", "--id-name-only"])
    guard listing.status == 0 else {
      let detail = Programs.firstLine(listing.standardError).map { ": \($0)" } ?? ""
      throw ShareError("KDE Connect cannot list the devices\(detail)")
    }
    // A device chosen in the sheet comes first, then the one configured.
    let configured =
      try context.target?.identifier
      ?? KeyFile.load(environment.configFile("kdeconnect.ini"))?["KDE Connect", "Device"]
    let device = try Self.choose(
      from: Self.devices(listing.standardOutput), configured: configured,
      configuration: environment.abbreviated(environment.configFile("kdeconnect.ini")))
    // The devices in reach are the targets from now on; not being able to say so fails no send.
    try? await Self.publishTargets()

    let things = content.things
    for (index, thing) in things.enumerated() {
      let (argument, label) =
        switch thing {
        case .file(let file): (Array("--share=".utf8) + file.path, file.displayName)
        case .link(let url): (Array("--share=\(url.absoluteString)".utf8), url.absoluteString)
        case .text(let text): (Array("--share-text=\(text)".utf8), "the text")
        }
      context.setProgress(Double(index) / Double(things.count), message: "Sending \(label) to \(device.name)")
      let run = try programs.run([
        Array("kdeconnect-cli".utf8), Array("--device=\(device.id)".utf8), argument,
      ])
      guard run.status == 0 else {
        let detail = Programs.firstLine(run.standardError).map { ": \($0)" } ?? ""
        throw ShareError("KDE Connect could not send \(label) to \(device.name)\(detail)")
      }
    }
    context.setProgress(1, message: "Sent to \(device.name)")
    context.completeRequest()
  }

  /// Publishes each paired device in reach as a target, as KDE Connect's daemon lists them; none
  /// when the daemon is not running (it is not started for this).
  public static func publishTargets() async throws {
    try ShareTargets.publish(try KDEConnectDevices.onTheBus().map(\.target))
  }

  /// The devices in `kdeconnect-cli --list-available --id-name-only` output: `<id> <name>` lines.
  static func devices(_ output: [UInt8]) -> [Device] {
    String(decoding: output, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line in
      let parts = line.split(separator: " ", maxSplits: 1)
      guard let id = parts.first, !id.isEmpty else { return nil }
      return Device(id: String(id), name: parts.count > 1 ? String(parts[1]) : String(id))
    }
  }

  /// The configured device (by id, or by name ignoring case) when reachable; else the only
  /// reachable device.
  static func choose(from devices: [Device], configured: String?, configuration: String) throws(ShareError)
    -> Device
  {
    if let configured {
      if let device = devices.first(where: { $0.id == configured })
        ?? devices.first(where: { $0.name.equalsIgnoringCase(configured) })
      {
        return device
      }
      throw ShareError(
        "\(configured) is not reachable through KDE Connect: check that it is on, paired and on the same network"
      )
    }
    switch devices.count {
    case 0:
      throw ShareError(
        "No phone or computer is reachable through KDE Connect: check that one is paired and on the same network"
      )
    case 1:
      return devices[0]
    default:
      let names = devices.map(\.name).joined(separator: ", ")
      throw ShareError(
        "Several devices are reachable (\(names)): choose one with Device= in \(configuration)")
    }
  }
}
