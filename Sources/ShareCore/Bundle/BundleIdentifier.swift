import Foundation

extension BundleLoader {
  /// The `CFBundleIdentifier` a bundle's `Info.plist` names, whether or not the bundle is valid;
  /// nil when it names none or cannot be read.
  public static func declaredIdentifier(ofBundleAt path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path + "/Info.plist"),
      let root = try? PropertyListValue.parse(data)
    else { return nil }
    return root.dictionaryValue?[InfoPlistKey.identifier]?.stringValue
  }
}
