import FoundationEssentials

/// Chooses a bundle's localization the way gettext chooses a catalog.
public enum Localization {
  /// The `.lproj` names to try, most preferred first, from `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and
  /// `LANG`. As in gettext, `LANGUAGE` is honoured only when the locale is not `C`/`POSIX`.
  public static func preferredLanguages(environment: [String: String]) -> [String] {
    func value(_ name: String) -> String? {
      environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
    guard let locale = value("LC_ALL") ?? value("LC_MESSAGES") ?? value("LANG"),
      locale != "C", locale != "POSIX", !locale.hasPrefix("C.")
    else { return [] }
    let requested = value("LANGUAGE").map { $0.split(separator: ":").map(String.init) } ?? [locale]
    var result: [String] = []
    for entry in requested {
      for name in lprojNames(forLocale: entry) where !result.contains(name) {
        result.append(name)
      }
    }
    return result
  }

  /// `pt_BR.UTF-8@euro` → `pt_BR`, `pt-BR`, `pt`, `Portuguese`; Chinese also by script.
  static func lprojNames(forLocale locale: String) -> [String] {
    let base = locale.split(separator: ".", maxSplits: 1)[0].split(separator: "@", maxSplits: 1)[0]
    guard !base.isEmpty, base != "C", base != "POSIX" else { return [] }
    let parts = base.split(separator: "_", maxSplits: 1)
    let language = String(parts[0])
    var names: [String] = []
    if parts.count == 2 {
      let region = String(parts[1])
      if language == "zh" {
        names.append(["TW", "HK", "MO"].contains(region) ? "zh-Hant" : "zh-Hans")
      }
      names += ["\(language)_\(region)", "\(language)-\(region)"]
    }
    names.append(language)
    if let legacy = legacyNames[language] { names.append(legacy) }
    return names
  }

  /// The names older bundles use for their `.lproj` folders.
  private static let legacyNames = [
    "en": "English", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "ja": "Japanese",
    "nl": "Dutch",
  ]

  /// The strings of the first `<language>.lproj/InfoPlist.strings` found in the bundle: a strings
  /// file (UTF-8, or UTF-16 with a byte-order mark), or an XML or binary property list. A file that
  /// cannot be read is skipped, as if it were not there.
  package static func strings(inBundle bundlePath: String, languages: [String]) -> [String: String] {
    strings(inBundle: FilePath(bundlePath), languages: languages)
  }

  /// ``strings(inBundle:languages:)`` of a bundle named by bytes, read through `files`.
  package static func strings(
    inBundle bundle: FilePath, languages: [String], files: any BundleFiles = FoundationBundleFiles()
  ) -> [String: String] {
    for language in languages {
      let path = bundle.appending("\(language).lproj/InfoPlist.strings")
      guard let data = files.contents(of: path, maximumSize: ManifestReader.maximumPlistSize) else {
        continue
      }
      guard case .dictionary(let table)? = try? PropertyListReader.read(data).value else { continue }
      return table.compactMapValues(\.stringValue)
    }
    return [:]
  }

  /// Every localization of a bundle: for each `<language>.lproj/InfoPlist.strings`, its locale as
  /// Qt and gettext name one (`de`, `pt_BR`, `zh_CN`; older folder names such as `German.lproj`
  /// as their language) and its strings, sorted by locale. For files that carry every
  /// translation at once (KDE Purpose's `metadata.json`).
  package static func allStrings(
    inBundle bundle: FilePath, files: any BundleFiles
  ) -> [(locale: String, strings: [String: String])] {
    var found: [String: [String: String]] = [:]
    for entry in files.entries(ofDirectory: bundle) ?? [] {
      let suffix = Array(".lproj".utf8)
      guard entry.count > suffix.count, entry.suffix(suffix.count).elementsEqual(suffix),
        let folder = String(validating: entry.dropLast(suffix.count), as: UTF8.self),
        let locale = locale(ofFolder: folder), found[locale] == nil
      else { continue }
      let strings = Self.strings(inBundle: bundle, languages: [folder], files: files)
      if !strings.isEmpty { found[locale] = strings }
    }
    return found.sorted { $0.key < $1.key }.map { (locale: $0.key, strings: $0.value) }
  }

  /// The locale an `.lproj` folder is for, as Qt names locales; nil for one that is none.
  static func locale(ofFolder folder: String) -> String? {
    if let legacy = legacyNames.first(where: { $0.value == folder }) { return legacy.key }
    switch folder {
    case "zh-Hans": return "zh_CN"
    case "zh-Hant": return "zh_TW"
    case "Base": return nil
    default: break
    }
    let locale = folder.replacing("-", with: "_")
    let valid = locale.utf8.allSatisfy { byte in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        || byte == UInt8(ascii: "_")
    }
    return valid && !locale.isEmpty ? locale : nil
  }
}
