import FoundationEssentials
import ShareCore

/// What `register` wrote into one data folder: `<data folder>/xdg-share/registered.json`.
///
/// Each file is recorded with a digest of the bytes written. `unregister` removes a file only
/// when it is listed here and still holds those bytes, so a file of the user's, or one the user
/// has edited since, is never removed.
struct Manifest: Codable, Equatable {
  static let currentVersion = 1

  var version = Manifest.currentVersion
  /// The absolute path of the xdg-share that `register` wrote into every Exec line; re-syncs keep it.
  var executable: String
  /// Paths below the data folder, each with the digest of its bytes (``Manifest/digest(_:)``).
  var files: [String: String] = [:]
  /// Folders below the data folder that `register` created, removed again when left empty.
  var folders: [String] = []
  /// What was merged into caja-actions' configuration, to be undone.
  var cajaActions: CajaActionsConfiguration.Record?

  /// FNV-1a, 64 bits, in hex: enough to tell whether a file still holds what was written.
  static func digest(_ bytes: some Sequence<UInt8>) -> String {
    "fnv1a64:" + Checksum.fnv1a64(bytes)
  }

  static func load(from path: FilePath) throws(IntegrationError) -> Manifest? {
    guard DesktopFiles.exists(path) else { return nil }
    guard let bytes = DesktopFiles.contents(of: path) else {
      throw .unreadableManifest(path: path.text, reason: "cannot be read")
    }
    do {
      let manifest = try JSONDecoder().decode(Manifest.self, from: Data(bytes))
      guard manifest.version == currentVersion else {
        throw IntegrationError.unreadableManifest(
          path: path.text, reason: "version \(manifest.version), expected \(currentVersion)")
      }
      return manifest
    } catch let error as IntegrationError {
      throw error
    } catch {
      throw .unreadableManifest(path: path.text, reason: "not a manifest xdg-share wrote")
    }
  }

  func encoded() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
