import Foundation
import ShareCore

/// The activation rules installed services really use, cycled through to make any number of
/// services: Apple's dictionary rules as shipped by known apps, and the predicate strings of
/// `share-systems.md` section 1, verbatim.
enum RuleCatalog {
  enum Rule {
    /// Dictionary entries, each a key and its plist XML value.
    case dictionary([(String, String)])
    case predicate(String)
  }

  static func integer(_ value: Int) -> String { "<integer>\(value)</integer>" }
  static let yes = "<true/>"

  static let maxAttachments = "NSExtensionActivationSupportsAttachmentsWithMaxCount"
  static let minAttachments = "NSExtensionActivationSupportsAttachmentsWithMinCount"
  static let maxFiles = "NSExtensionActivationSupportsFileWithMaxCount"
  static let maxImages = "NSExtensionActivationSupportsImageWithMaxCount"
  static let maxMovies = "NSExtensionActivationSupportsMovieWithMaxCount"
  static let text = "NSExtensionActivationSupportsText"
  static let maxWebURLs = "NSExtensionActivationSupportsWebURLWithMaxCount"
  static let version = "NSExtensionActivationDictionaryVersion"

  /// Signal, `SignalShareExtension/Info.plist`.
  static let signal =
    #"SUBQUERY ( extensionItems, $extensionItem, SUBQUERY ( $extensionItem.attachments, $attachment, ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.data" || ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url" ).@count >= 1 ).@count == 1"#

  /// "Every attachment is a PDF, an image, a text or a spreadsheet; one item" (Stack Overflow 26232773).
  static let everyAttachmentPDFOrImage =
    #"SUBQUERY ( extensionItems, $extensionItem, SUBQUERY ( $extensionItem.attachments, $attachment, ( ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "com.adobe.pdf" || ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image" || ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.plain-text" || ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.png" || ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.jpeg" || ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.jpeg-2000" || ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "com.microsoft.excel.xls" || ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "org.openxmlformats.spreadsheetml.sheet" ) ).@count == $extensionItem.attachments.@count ).@count == 1"#

  /// Exactly one URL (zenn.dev).
  static let exactlyOneURL =
    #"SUBQUERY ( extensionItems, $extensionItem, SUBQUERY ( $extensionItem.attachments, $attachment, ( ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url" ) ).@count == 1 ).@count == 1"#

  /// PSPDFKit's viewer, with the `AND NOT` that hides it in its own app.
  static let pspdfkit =
    #"SUBQUERY ( extensionItems, $extensionItem, SUBQUERY ( $extensionItem.attachments, $attachment, ( ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "com.adobe.pdf" OR ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.file-url" OR ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url" OR ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.jpeg" OR ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.png" ) AND NOT (ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "com.pspdfkit.viewer.document") ).@count == $extensionItem.attachments.@count ).@count == 1"#

  /// Every attachment an image, by MIME wildcard.
  static let everyAttachmentImageMIME =
    #"SUBQUERY(extensionItems, $item, SUBQUERY($item.attachments, $attachment, ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "image/*").@count == $item.attachments.@count).@count == 1"#

  /// At least one video or PDF, by MIME type.
  static let someVideoOrPDFMIME =
    #"SUBQUERY(extensionItems, $item, SUBQUERY($item.attachments, $attachment, ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "video/*" OR ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "application/pdf").@count >= 1).@count == 1"#

  /// Only PDFs, by identity, at most 20.
  static let onlyPDFsUpTo20 =
    #"SUBQUERY(extensionItems, $item, SUBQUERY($item.attachments, $attachment, ANY $attachment.registeredTypeIdentifiers UTI-EQUALS "com.adobe.pdf").@count == $item.attachments.@count AND $item.attachments.@count <= 20).@count == 1"#

  /// The mix, half dictionaries and half predicates; service `n` gets `rules[n % rules.count]`.
  static let rules: [Rule] = [
    // Hoi: one image and one link.
    .dictionary([(maxImages, integer(1)), (maxWebURLs, integer(1))]),
    .predicate(signal),
    // mastodon-ios: text, one link, four images, one movie.
    .dictionary([(text, yes), (maxWebURLs, integer(1)), (maxImages, integer(4)), (maxMovies, integer(1))]),
    .predicate(everyAttachmentPDFOrImage),
    // Any files, at most 1, 10, 100 or 20 000.
    .dictionary([(maxFiles, integer(1))]),
    .predicate(pspdfkit),
    .dictionary([(maxFiles, integer(10))]),
    .predicate("TRUEPREDICATE"),
    // Text only.
    .dictionary([(text, yes)]),
    .predicate(everyAttachmentImageMIME),
    // WordPress: version 2 (fuzzy), text, one link, one image.
    .dictionary([(version, integer(2)), (text, yes), (maxWebURLs, integer(1)), (maxImages, integer(1))]),
    .predicate(exactlyOneURL),
    .dictionary([(maxFiles, integer(100))]),
    .predicate(someVideoOrPDFMIME),
    // Between two and ten attachments of any kind of file.
    .dictionary([(minAttachments, integer(2)), (maxAttachments, integer(10)), (maxFiles, integer(10))]),
    .predicate(onlyPDFsUpTo20),
    .dictionary([(maxFiles, integer(20_000))]),
    .predicate(signal),
  ]
}

/// Writes `*.shareext` bundles as a developer would ship them: an XML Info.plist, an executable
/// script, and for two thirds of them an `InfoPlist.strings` in `de.lproj` or `en.lproj`.
enum BundleWriter {
  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }

  static func ruleXML(_ rule: RuleCatalog.Rule) -> String {
    switch rule {
    case .dictionary(let entries):
      "<dict>\n" + entries.map { "        <key>\($0.0)</key> \($0.1)\n" }.joined() + "      </dict>"
    case .predicate(let source):
      "<string>\(escape(source))</string>"
    }
  }

  static let names = [
    "Hoi", "Signal", "Mastodon", "Mail", "Drive", "PDF Viewer", "Nextcloud", "Print", "Notes",
  ]

  static func infoPlist(number: Int, executable: String) -> String {
    let rule = RuleCatalog.rules[number % RuleCatalog.rules.count]
    var extra = ""
    if number % 4 == 0 {
      extra += "  <key>XDGShareDescription</key> <string>Sends files with service \(number)</string>\n"
    }
    if number % 7 == 3 {
      extra += "  <key>XDGShareRequiredPrograms</key> <array><string>wl-copy|xclip</string></array>\n"
    }
    if number % 11 == 5 { extra += "  <key>XDGShareTimeout</key> <integer>30</integer>\n" }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
        <key>CFBundleIdentifier</key> <string>org.example.bench.service-\(number)</string>
        <key>CFBundleDisplayName</key> <string>\(names[number % names.count]) \(number)</string>
        <key>CFBundleExecutable</key> <string>\(executable)</string>
        <key>CFBundleShortVersionString</key> <string>1.\(number % 10)</string>
        <key>CFBundleIconName</key> <string>mail-send</string>
        <key>CFBundleDevelopmentRegion</key> <string>en</string>
      \(extra)  <key>NSExtension</key>
        <dict>
          <key>NSExtensionPointIdentifier</key> <string>com.apple.share-services</string>
          <key>NSExtensionAttributes</key>
          <dict>
            <key>NSExtensionActivationRule</key>
            \(ruleXML(rule))
          </dict>
        </dict>
      </dict>
      </plist>

      """
  }

  /// Writes `count` bundles into `directory` (created), numbered from 0. Returns each bundle's
  /// folder name with its executable's path inside it.
  @discardableResult
  static func write(count: Int, into directory: String) throws -> [String: String] {
    let files = FileManager.default
    var executables: [String: String] = [:]
    try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for number in 0..<count {
      let folder = "service-\(String(format: "%04d", number)).shareext"
      let bundle = "\(directory)/\(folder)"
      // One bundle in five keeps its program in a subfolder, as larger bundles do.
      let executable = number % 5 == 2 ? "bin/share-service" : "share-service"
      executables[folder] = executable
      try files.createDirectory(atPath: bundle + "/bin", withIntermediateDirectories: true)
      try writeFile(bundle + "/Info.plist", Array(infoPlist(number: number, executable: executable).utf8))
      try writeFile(
        "\(bundle)/\(executable)", Array("#!/bin/sh\nexec /usr/bin/true \"$@\"\n".utf8), mode: 0o755)
      let language = [nil, "de", "en"][number % 3]
      if let language {
        let name = language == "de" ? "Teilen \(number)" : "Share \(number)"
        try files.createDirectory(atPath: "\(bundle)/\(language).lproj", withIntermediateDirectories: true)
        let strings = """
          /* Localized Info.plist keys */
          "CFBundleDisplayName" = "\(name)";
          "XDGShareDescription" = "\(language == "de" ? "Teilt Dateien" : "Shares files") (\(number))";

          """
        try writeFile("\(bundle)/\(language).lproj/InfoPlist.strings", Array(strings.utf8))
      }
    }
    return executables
  }
}

/// Files of the kinds people share, with real content so that detection by content works.
enum SelectionWriter {
  /// A 1×1 PNG.
  static let png: [UInt8] = Array(
    Data(
      base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!)
  /// The start of a JFIF JPEG.
  static let jpeg: [UInt8] =
    [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [
      0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
    ]
    + [0xFF, 0xD9]
  static let pdf: [UInt8] = Array(
    "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".utf8)
  static let text: [UInt8] = Array("Notes for the meeting.\nBring the photos.\n".utf8)
  /// An ISO base media `ftyp` box, as an MP4 starts.
  static let mp4: [UInt8] =
    [0x00, 0x00, 0x00, 0x18] + Array("ftypmp42".utf8) + [0x00, 0x00, 0x00, 0x00] + Array("mp42isom".utf8)
    + [0x00, 0x00, 0x00, 0x08] + Array("free".utf8)

  /// Name suffixes and contents, cycled through: the last is a PNG without an extension, which
  /// GIO can only recognise by its content.
  static let kinds: [(suffix: String, bytes: [UInt8])] = [
    (".png", png), (".jpg", jpeg), (".pdf", pdf), (".txt", text), (".mp4", mp4), ("-scan", png),
  ]

  /// Writes `count` files into `directory` (created) and returns their paths, in order.
  static func write(count: Int, into directory: String) throws -> [String] {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return try (0..<count).map { number in
      let kind = kinds[number % kinds.count]
      let path = "\(directory)/file-\(String(format: "%05d", number))\(kind.suffix)"
      try writeFile(path, kind.bytes)
      return path
    }
  }
}

/// Writes a file with plain system calls: Foundation's `Data.write` syncs every file to disk,
/// which would make writing ten thousand fixtures take longer than measuring them.
func writeFile(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o644) throws {
  let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
  guard descriptor >= 0 else { throw BenchError("cannot create \(path)") }
  defer { close(descriptor) }
  let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  guard written == bytes.count, fchmod(descriptor, mode) == 0 else {
    throw BenchError("cannot write \(path)")
  }
}

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Always true: requirements are not what is measured.
struct EverythingAvailable: RequirementChecker {
  func isProgramAvailable(_ name: String) -> Bool { true }
  func isBusNameAvailable(_ name: String) -> Bool { true }
}
