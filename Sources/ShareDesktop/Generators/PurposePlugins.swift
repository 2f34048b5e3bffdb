public import ShareCore
import ShareProtocol

/// KDE Purpose's scripted plugins, which every KDE application's Share menu lists (Dolphin's
/// Share submenu, Okular, Gwenview, Spectacle, Kdenlive): `kpackage/Purpose/org.xdgshare.<id>/`
/// per service that takes files or links, and `kpackage/Purpose/xdg-share.picker/`, "Share…",
/// which opens the share sheet.
///
/// Purpose 5.103 (`src/alternativesmodel.cpp`, `src/helper.cpp`) lists every folder there with a
/// `metadata.json`, and runs the first `contents/code/main.*` it finds with `--server SOCKET
/// --pluginType T --pluginPath P`; KDE Frameworks 6 does the same. Each plugin's `main.run` is a
/// `#!` line naming `xdg-share-purpose` and the service, so the kernel starts the job program
/// itself, never a shell. `main` holds the same line, for hosts that name the file so.
enum PurposePlugins {
  static let folder = "kpackage/Purpose"
  /// Every service's plugin folder, and its `KPlugin.Id`: `org.xdgshare.<id>` (``pluginID(for:)``).
  static let idPrefix = "org.xdgshare."
  /// The "Share…" plugin's folder and id: never a service's, whose start with ``idPrefix``.
  static let pickerID = Picker.baseName

  /// The files of the plugins of `entries`, and of "Share…".
  static func files(for entries: [PurposeEntry], setup: PurposeSetup) -> [GeneratedFile] {
    var files = pluginFiles(
      id: pickerID, argument: "--picker", metadata: pickerMetadata(), program: setup.program,
      opensPicker: true)
    for entry in entries {
      files += pluginFiles(
        id: pluginID(for: entry.service.id), argument: entry.service.id,
        metadata: metadata(for: entry, translations: setup.translations[entry.service.id] ?? []),
        program: setup.program, opensPicker: false)
    }
    return files
  }

  /// The plugin folder's name and its `KPlugin.Id` (KPackage takes a plugin's id from its folder,
  /// and Purpose lists it by that id): `org.xdgshare.<id>`, the prefix keeping them apart from
  /// other packages' plugins; a service whose id has it already (the built-in ones,
  /// `org.xdgshare.save-to-folder`) keeps its id, not `org.xdgshare.org.xdgshare.save-to-folder`.
  static func pluginID(for serviceID: String) -> String {
    serviceID.hasPrefix(idPrefix) ? serviceID : idPrefix + serviceID
  }

  /// Whether a `#!` line can name `program`: absolute, without white space (the kernel splits the
  /// line at the first blank) and short enough for Linux's 255 bytes with an identifier after it.
  static func canRun(_ program: String) -> Bool {
    program.hasPrefix("/") && program.utf8.count <= 120
      && !program.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F }
  }

  private static func pluginFiles(
    id: String, argument: String, metadata: String, program: String, opensPicker: Bool
  ) -> [GeneratedFile] {
    let base = "\(folder)/\(id)"
    let main = "#!\(program) \(argument)\n" + header()
    return [
      GeneratedFile(
        path: "\(base)/metadata.json", contents: metadata, family: .purpose, opensPicker: opensPicker),
      GeneratedFile(
        path: "\(base)/contents/code/main.run", contents: main, isExecutable: true, family: .purpose,
        opensPicker: opensPicker),
      GeneratedFile(
        path: "\(base)/contents/code/main", contents: main, isExecutable: true, family: .purpose,
        opensPicker: opensPicker),
    ]
  }

  /// A service's `metadata.json`: its names and descriptions in every language its bundle has,
  /// its icon, the plugin types for what it takes, and the MIME types it takes as Purpose's
  /// constraints.
  static func metadata(for entry: PurposeEntry, translations: [PurposeSetup.Translation]) -> String {
    let service = entry.service
    var plugin: [String: JSONValue] = [
      "Icon": .string(service.icon), "Id": .string(pluginID(for: service.id)),
    ]
    for (key, value) in [("Name", entry.name), ("X-Purpose-ActionDisplay", entry.name)] {
      plugin[key] = .string(value)
      for translation in translations {
        plugin["\(key)[\(translation.locale)]"] = .string(translation.name)
      }
    }
    if let description = entry.description {
      plugin["Description"] = .string(description)
      for translation in translations {
        if let text = translation.description {
          plugin["Description[\(translation.locale)]"] = .string(text)
        }
      }
    }
    var root: [String: JSONValue] = ["KPlugin": .object(plugin)]
    var types: [String] = []
    if entry.coverage != nil { types.append("Export") }
    if entry.takesLinks { types.append("ShareUrl") }
    let constraints = entry.constraints
    if !constraints.isEmpty {
      // One element that is an array: Purpose's OR of its members.
      root["X-Purpose-Constraints"] = .array([.array(constraints.map(JSONValue.string))])
    }
    root["X-Purpose-PluginTypes"] = .array(types.map(JSONValue.string))
    root["X-XDGShare-Service"] = .string(service.id)
    return JSONValue.object(root).text(.file())
  }

  private static func pickerMetadata() -> String {
    let plugin: [String: JSONValue] = [
      "Description": .string("Choose a share service in xdg-share's share sheet"),
      "Description[de]": .string("Einen Dienst im Teilen-Fenster von xdg-share wählen"),
      "Description[fr]": .string("Choisir un service dans la fenêtre de partage de xdg-share"),
      "Icon": .string(ShareService.defaultIcon), "Id": .string(pickerID),
      "Name": .string(Picker.label), "X-Purpose-ActionDisplay": .string(Picker.label),
    ]
    return JSONValue.object([
      "KPlugin": .object(plugin), "X-Purpose-PluginTypes": .array([.string("Export"), .string("ShareUrl")]),
    ]).text(.file())
  }
}

/// A service as its Purpose plugin offers it.
struct PurposeEntry: Equatable, Sendable {
  var service: ShareService
  /// What it takes of files, or nil when it takes none.
  var coverage: FileCoverage?
  /// Whether it takes a link (`ShareUrl`).
  var takesLinks: Bool
  /// Its name and description as its bundle says them in no language (the translations come
  /// apart); the loaded ones when the bundle cannot be read again.
  var name: String
  var description: String?
  /// The MIME types Purpose offers it for: empty for every file. Never narrower than the rule,
  /// which the job checks again.
  var constraints: [String]

  /// `mimeType:[*]/[*]`: what Purpose's Dolphin plugin sends for files of several types
  /// (`*/*`, matched as a wildcard in which `[*]` is a star itself).
  static let mixedFiles = "mimeType:[*]/[*]"
  /// `mimeType:*`: true for a job without a MIME type (a link), and for no MIME type of a file
  /// (Qt's `*` stops at a slash).
  static let noFileType = "mimeType:*"

  /// - Parameter plain: the service as its bundle names it in no language.
  init(service: ShareService, plain: ShareService?, catalog: MIMECatalog) {
    self.service = service
    let rule = service.rule
    coverage = FileCoverage(rule: rule, catalog: catalog).flatMap {
      $0.allFiles || !$0.fileTypes.isEmpty ? $0 : nil
    }
    takesLinks = rule.accepts(
      ActivationSelection(
        attachments: [
          Attachment(item: .webURL("https://example.org/"), typeIdentifiers: TypeSystem.webURLIdentifiers)
        ], types: catalog.types))
    name = plain?.name ?? service.name
    description = plain == nil ? service.description : plain?.description
    var constraints: [String] = []
    if let coverage, !coverage.allFiles {
      constraints = catalog.inheritancePatterns(for: coverage).map { "mimeType:" + $0 }
      // Several files of different types come as `*/*`: the rule decides then.
      if coverage.maximumCount != 1 { constraints.append(Self.mixedFiles) }
      if takesLinks { constraints.append(Self.noFileType) }
    }
    self.constraints = constraints
  }
}

/// What the Purpose plugins need besides the services: found on the system by
/// ``FileManagerIntegration/purposeSetup(executable:services:software:)``.
public struct PurposeSetup: Equatable, Sendable {
  /// `xdg-share-purpose`, which each plugin's `#!` line names.
  public var program: String
  /// Whether Dolphin's Share menu is Purpose's (its `sharefileitemaction` plugin is installed and
  /// not hidden): the services are in it then, and no service menus of files are written.
  public var inDolphin: Bool
  /// Each service's translations, by identifier.
  public var translations: [String: [Translation]]
  /// Each service as its bundle names it in no language, by identifier.
  public var plainServices: [String: ShareService]

  public struct Translation: Equatable, Sendable {
    /// As Qt names locales: `de`, `pt_BR`.
    public var locale: String
    public var name: String
    public var description: String?

    public init(locale: String, name: String, description: String?) {
      self.locale = locale
      self.name = name
      self.description = description
    }
  }

  public init(
    program: String, inDolphin: Bool, translations: [String: [Translation]] = [:],
    plainServices: [String: ShareService] = [:]
  ) {
    self.program = program
    self.inDolphin = inDolphin
    self.translations = translations
    self.plainServices = plainServices
  }
}
