import FoundationEssentials
public import ShareCore
import SharePOSIX

/// What the user chose last for each service's configuration items, the next share's defaults:
/// one JSON object of strings per service, `$XDG_CONFIG_HOME/xdg-share/configuration/<id>.json`,
/// replaced atomically. Secure items are never written here (see ``SecretStore``).
public struct ConfigurationStore: Sendable {
  public let directory: String

  public init(configHome: String) {
    directory = configHome + "/xdg-share/configuration"
  }

  /// The file of the service `serviceID`.
  public func file(for serviceID: String) -> String {
    "\(directory)/\(serviceID).json"
  }

  /// The values remembered for `serviceID`; none when the file is missing or unreadable (it is
  /// only a memory of defaults: a damaged one is replaced on the next save).
  public func values(for serviceID: String) -> [String: String] {
    guard let data = FileManager.default.contents(atPath: file(for: serviceID)),
      let values = try? JSONDecoder().decode([String: String].self, from: data)
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
    let path = file(for: service.id)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let bytes: [UInt8]
    do {
      bytes = Array(try encoder.encode(kept)) + [UInt8(ascii: "\n")]
    } catch {
      throw ConfigurationStoreFailure(file: path, reason: "cannot encode: \(error)")
    }
    do {
      try FileSystem.makeDirectories(Array(directory.utf8), mode: 0o700)
      try FileSystem.writeAtomically(bytes, to: Array(path.utf8), mode: 0o600)
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
