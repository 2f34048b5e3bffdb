import FoundationEssentials

extension BundleLoader {
  /// The `CFBundleIdentifier` a bundle's `Info.plist` names, whether or not the bundle is valid;
  /// nil when it names none or cannot be read.
  public static func declaredIdentifier(ofBundleAt path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path + "/Info.plist"),
      let document = try? PropertyListReader.read(Array(data)),
      case .dictionary(let root) = document.value,
      case .string(let identifier)? = root[InfoPlistKey.identifier]
    else { return nil }
    return identifier
  }

  /// ``declaredIdentifier(ofBundleAt:)`` of a bundle named by bytes, read through `files`.
  public static func declaredIdentifier(ofBundleAt path: FilePath, files: any BundleFiles) -> String? {
    guard
      let data = files.contents(
        of: path.appending("Info.plist"), maximumSize: ManifestReader.maximumPlistSize),
      let document = try? PropertyListReader.read(data),
      case .dictionary(let root) = document.value,
      case .string(let identifier)? = root[InfoPlistKey.identifier]
    else { return nil }
    return identifier
  }
}
