import FoundationEssentials
public import ShareCore
import SharePOSIX

/// What the user chose last for each service's configuration items, the next share's defaults:
/// one JSON object of strings per service, `$XDG_CONFIG_HOME/xdg-share/configuration/<id>.json`,
/// replaced atomically. Secure items are never written here (see ``SecretStore``).
public struct ConfigurationStore: Sendable {
  /// The folder, byte for byte (`XDG_CONFIG_HOME` need not be UTF-8).
  public let location: FilePath
  /// The folder as text (``FilePath/text``), for messages.
  public var directory: String { location.text }

  public init(configHome: String) {
    self.init(configHome: FilePath(configHome))
  }

  public init(configHome: FilePath) {
    location = FilePath(bytes: configHome.bytes + Array("/xdg-share/configuration".utf8))
  }

  /// The file of the service `serviceID`, as text.
  public func file(for serviceID: String) -> String {
    fileLocation(for: serviceID).text
  }

  /// The file of the service `serviceID`.
  public func fileLocation(for serviceID: String) -> FilePath {
    location.appending("\(serviceID).json")
  }

  /// The largest file read: a few strings per service.
  static let maximumFileSize = 1 << 20

  /// The values remembered for `serviceID`; none when the file is missing or unreadable (it is
  /// only a memory of defaults: a damaged one is replaced on the next save).
  public func values(for serviceID: String) -> [String: String] {
    guard
      let data = FileSystem.contents(
        ofRegularFile: fileLocation(for: serviceID).bytes, maximumSize: Self.maximumFileSize),
      let values = try? JSONDecoder().decode([String: String].self, from: Data(data))
    else { return [:] }
    return values
  }

  /// Remembers `values` for `service`: those of its declared items that are not secure, replacing
  /// what was remembered. Values of items it no longer declares are dropped.
  public func remember(_ values: [String: String], for service: ShareService)
    throws(ConfigurationStoreFailure)
  {
    let items = service.composeSheet?.configurationItems.filter { !$0.isSecure }.map(\.identifier) ?? []
    let kept = values.filter { items.contains($0.key) }
    let location = fileLocation(for: service.id)
    let path = location.text
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let bytes: [UInt8]
    do {
      bytes = Array(try encoder.encode(kept)) + [UInt8(ascii: "\n")]
    } catch {
      throw ConfigurationStoreFailure(file: path, reason: "cannot encode: \(error)")
    }
    do {
      try FileSystem.makeDirectories(self.location.bytes, mode: 0o700)
      try FileSystem.writeAtomically(bytes, to: location.bytes, mode: 0o600)
    } catch {
      throw ConfigurationStoreFailure(file: path, reason: error.reason)
    }
  }
}

/// Why remembered values could not be written.
public struct ConfigurationStoreFailure: Error, Equatable, Sendable {
  public var file: String
  /// What the system said.
  public var reason: String

  public init(file: String, reason: String) {
    self.file = file
    self.reason = reason
  }
}
