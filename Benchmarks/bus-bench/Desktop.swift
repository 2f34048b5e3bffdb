import Foundation
import Glibc

/// A throw-away home and XDG tree (`mkdtemp`), filled with generated share bundles and files.
///
/// `XDG_DATA_DIRS` holds one folder whose `mime` links to the system's shared-mime-info database:
/// content detection is real, while no system-wide share service can leak in.
final class BenchDesktop {
  let root: String
  /// Where the generated bundles go (`$XDG_DATA_HOME/xdg-share/extensions`).
  let extensions: String
  /// Complete bundles are made here, then renamed into ``extensions`` (same file system).
  let staging: String
  let files: String
  private(set) var bundleCount = 0

  init() throws {
    let temporary =
      NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
    var template = Array("\(temporary)xdg-share-bus-bench-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      throw BenchError("mkdtemp: \(String(cString: strerror(errno)))")
    }
    root = String(cString: made)
    extensions = "\(root)/data/xdg-share/extensions"
    staging = "\(root)/staging"
    files = "\(root)/files"
    let manager = FileManager.default
    for folder in ["home", "data", "system", "config", "state", "cache", "runtime", "staging", "files"] {
      try manager.createDirectory(atPath: "\(root)/\(folder)", withIntermediateDirectories: true)
    }
    try manager.createDirectory(atPath: extensions, withIntermediateDirectories: true)
    try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: "\(root)/runtime")
    try manager.createSymbolicLink(atPath: "\(root)/system/mime", withDestinationPath: "/usr/share/mime")
  }

  /// The environment of the bus and the service: only the temporary tree, never the user's.
  func environment(busAddress: String?) -> [String: String] {
    var environment = [
      "HOME": "\(root)/home",
      "XDG_DATA_HOME": "\(root)/data",
      "XDG_DATA_DIRS": "\(root)/system",
      "XDG_CONFIG_HOME": "\(root)/config",
      "XDG_STATE_HOME": "\(root)/state",
      "XDG_CACHE_HOME": "\(root)/cache",
      "XDG_RUNTIME_DIR": "\(root)/runtime",
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "LANG": "C.UTF-8",
    ]
    environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress ?? "unix:path=\(root)/runtime/no-bus"
    return environment
  }

  // MARK: Bundles

  /// Adds generated bundles to the extensions folder until there are `count`.
  func fillBundles(upTo count: Int) throws {
    while bundleCount < count {
      try GeneratedBundle(index: bundleCount).write(into: extensions)
      bundleCount += 1
    }
  }

  /// Makes a complete bundle in the staging folder and returns its path, ready to be renamed in.
  func stageBundle(named name: String, index: Int) throws -> String {
    try GeneratedBundle(index: index, id: "org.bench.late.\(name)").write(into: staging, folder: name)
  }

  // MARK: Files

  /// A real PNG on disk.
  func writePNG(named name: String) throws -> String {
    let path = "\(files)/\(name)"
    try Data(tinyPNG).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// `count` files of a photo-and-documents folder: PNG, JPEG, PDF and plain text, with real
  /// leading bytes, in the order 6:2:1:1.
  func writeMixedFiles(count: Int) throws -> [String] {
    let folder = "\(files)/mixed"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return try (0..<count).map { index in
      let (suffix, contents): (String, [UInt8])
      switch index % 10 {
      case 0...5: (suffix, contents) = ("png", tinyPNG)
      case 6...7:
        (suffix, contents) = (
          "jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\0".utf8) + [0xFF, 0xD9]
        )
      case 8: (suffix, contents) = ("pdf", Array("%PDF-1.4\n%%EOF\n".utf8))
      default: (suffix, contents) = ("txt", Array("notes \(index)\n".utf8))
      }
      let path = "\(folder)/file-\(index).\(suffix)"
      try Data(contents).write(to: URL(fileURLWithPath: path))
      return path
    }
  }
}

/// One generated share service. Eight kinds, in turn, so that half of them accept one PNG:
///
/// | index % 8 | rule | one PNG | 1,000 mixed files |
/// |---|---|---|---|
/// | 0 | Signal's predicate (any file or link) | yes | yes |
/// | 1 | Hoi's dictionary (one image, one link) | yes | no |
/// | 2 | dictionary: text only | no | no |
/// | 3 | dictionary: at most 10 files | yes | no |
/// | 4 | predicate: some attachment is an image | yes | yes |
/// | 5 | predicate: some attachment is a PDF | no | yes |
/// | 6 | dictionary: at most 5 movies | no | no |
/// | 7 | dictionary: one web page, fuzzy | no | no |
struct GeneratedBundle {
  var index: Int
  var id: String

  init(index: Int, id: String? = nil) {
    self.index = index
    self.id = id ?? "org.bench.service\(index)"
  }

  static let signalPredicate = """
    SUBQUERY (extensionItems, $extensionItem, SUBQUERY ($extensionItem.attachments, $attachment,
      ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.data" ||
      ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url").@count >= 1).@count == 1
    """

  static func conformingPredicate(_ type: String) -> String {
    """
    SUBQUERY (extensionItems, $extensionItem, SUBQUERY ($extensionItem.attachments, $attachment,
      ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "\(type)").@count >= 1).@count == 1
    """
  }

  static func dictionary(_ entries: [(String, String)]) -> String {
    "<dict>" + entries.map { "<key>NSExtensionActivation\($0.0)</key>\($0.1)" }.joined() + "</dict>"
  }

  var ruleXML: String {
    func predicate(_ source: String) -> String { "<string>\(Self.escape(source))</string>" }
    func integer(_ value: Int) -> String { "<integer>\(value)</integer>" }
    switch index % 8 {
    case 0: return predicate(Self.signalPredicate)
    case 1:
      return Self.dictionary([
        ("SupportsImageWithMaxCount", integer(1)), ("SupportsWebURLWithMaxCount", integer(1)),
      ])
    case 2: return Self.dictionary([("SupportsText", "<true/>")])
    case 3: return Self.dictionary([("SupportsFileWithMaxCount", integer(10))])
    case 4: return predicate(Self.conformingPredicate("public.image"))
    case 5: return predicate(Self.conformingPredicate("com.adobe.pdf"))
    case 6: return Self.dictionary([("SupportsMovieWithMaxCount", integer(5))])
    default:
      return Self.dictionary([("DictionaryVersion", integer(2)), ("SupportsWebPageWithMaxCount", integer(1))])
    }
  }

  var infoPlist: String {
    let description =
      index % 2 == 0
      ? "<key>XDGShareDescription</key><string>Sends things to service number \(index)</string>" : ""
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
        <key>CFBundleIdentifier</key><string>\(id)</string>
        <key>CFBundleDisplayName</key><string>Service \(index)</string>
        <key>CFBundleExecutable</key><string>share</string>
        <key>CFBundleShortVersionString</key><string>1.\(index % 10)</string>
        <key>CFBundleIconName</key><string>mail-send</string>
        \(description)
        <key>NSExtension</key>
        <dict>
          <key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string>
          <key>NSExtensionAttributes</key>
          <dict><key>NSExtensionActivationRule</key>\(ruleXML)</dict>
        </dict>
      </dict>
      </plist>
      """
  }

  /// Writes `directory/<folder>.shareext` with its `Info.plist` and an executable (0755).
  @discardableResult
  func write(into directory: String, folder: String? = nil) throws -> String {
    let bundle = "\(directory)/\(folder ?? id).shareext"
    try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
    try Data(infoPlist.utf8).write(to: URL(fileURLWithPath: "\(bundle)/Info.plist"))
    let executable = "\(bundle)/share"
    try Data("#!/bin/sh\nexit 0\n".utf8).write(to: URL(fileURLWithPath: executable))
    guard chmod(executable, 0o755) == 0 else { throw BenchError("chmod \(executable)") }
    return bundle
  }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}

/// A 1×1 PNG.
let tinyPNG: [UInt8] = [
  0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
  0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00,
  0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0x0F, 0x00, 0x01, 0x01, 0x01, 0x00, 0x18, 0xDD, 0x8D,
  0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
]

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
