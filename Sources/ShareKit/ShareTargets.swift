import FoundationEssentials
internal import ShareCore
import ShareProtocol

/// A direct target of a share extension: a device, a person, a folder or a chat the user shares
/// to often, offered first in the share sheet (Android's sharing shortcuts, Apple's donated
/// `INSendMessageIntent`s). Publish them with ``ShareTargets/publish(_:)``; the one the user
/// chose comes back in ``ExtensionContext/target``.
public struct ShareTarget: Hashable, Sendable {
  /// What the extension knows the target by: handed back in ``ExtensionContext/target``.
  public var identifier: String
  /// What the sheet shows: "Pixel 7", "Jana", "Pictures".
  public var title: String
  /// A second line: "Phone", "Signal", "~/Pictures".
  public var subtitle: String?
  /// A freedesktop icon name (`phone`, `avatar-default`, `folder`).
  public var iconName: String?
  /// The type identifiers (or MIME types, `image/*` too) of what it takes, when it takes less
  /// than the extension: every item shared must conform to one of them. Empty: whatever the
  /// extension's activation rule takes.
  public var contentTypes: [String]

  public init(
    identifier: String, title: String, subtitle: String? = nil, iconName: String? = nil,
    contentTypes: [String] = []
  ) {
    self.identifier = identifier
    self.title = title
    self.subtitle = subtitle
    self.iconName = iconName
    self.contentTypes = contentTypes
  }

  init(payload: TargetPayload) {
    self.init(identifier: payload.id, title: payload.title, subtitle: payload.subtitle)
  }
}

/// Publishes a share extension's direct targets, ahead of time: the sheet reads them when it
/// opens, and never starts the extension to ask.
///
/// Call ``publish(_:)`` whenever they change (a device pairs, a chat is used) with all of them;
/// they replace what was published before. From ``ShareExtension/publishTargets()``, which the
/// host calls when something the bundle watches changes (`XDGShareTargetSignals`), or from
/// ``ShareExtension/perform(context:)``, as they are found. They are written to
/// `$XDG_STATE_HOME/xdg-share/targets/<service identifier>.json`, which any program may write
/// in the same format (docs/direct-targets.md); nothing about them leaves the machine.
public enum ShareTargets {
  /// The most targets kept; later ones are left out.
  public static let maximumCount = 32

  /// Replaces the published targets of the service the host is running (`XDG_SHARE_SERVICE_ID`).
  ///
  /// - Throws: ``ShareError`` when the program was not started by the host, or the file cannot
  ///   be written.
  public static func publish(_ targets: [ShareTarget]) throws {
    guard let service = ProcessInfo.processInfo.environment["XDG_SHARE_SERVICE_ID"], !service.isEmpty else {
      throw ShareError(
        "no service to publish targets for: XDG_SHARE_SERVICE_ID is not set (use publish(_:forService:))")
    }
    try publish(targets, forService: service)
  }

  /// Replaces the published targets of the service `identifier` (its `CFBundleIdentifier`): for
  /// an application that keeps its extension's targets current itself.
  public static func publish(_ targets: [ShareTarget], forService identifier: String) throws {
    try publish(
      targets, forService: identifier,
      paths: SearchPaths(
        environment: ProcessInfo.processInfo.environment, inherited: SystemCalls.environmentBytes))
  }

  /// ``publish(_:forService:)`` into the state folder of `paths`.
  static func publish(_ targets: [ShareTarget], forService identifier: String, paths: SearchPaths) throws {
    guard InfoPlistForm.isBundleIdentifier(identifier) else {
      throw ShareError("'\(identifier)' is not a service identifier")
    }
    let entries = targets.prefix(maximumCount).map {
      DirectTarget(
        id: $0.identifier, title: $0.title, subtitle: $0.subtitle, icon: $0.iconName,
        contentTypes: $0.contentTypes)
    }
    let folder = paths.stateHomeLocation.appending(DirectTargetsFile.folder)
    try SystemCalls.makeDirectories(folder, mode: 0o700)
    let file = folder.appending(identifier + ".json")
    // Written beside it, then renamed over it: a sheet reading it meanwhile sees the old file
    // or the new one, whole.
    let temporary = folder.appending(".\(identifier).json.\(ProcessInfo.processInfo.processIdentifier)")
    SystemCalls.remove(temporary)
    guard
      SystemCalls.createFile(
        temporary, contents: Array(DirectTargetsFile.encode(Array(entries)).utf8), mode: 0o600)
    else {
      SystemCalls.remove(temporary)
      throw ShareError.storage("cannot write \(file.text)")
    }
    do {
      try SystemCalls.replace(file, with: temporary)
    } catch {
      SystemCalls.remove(temporary)
      throw error
    }
  }
}
