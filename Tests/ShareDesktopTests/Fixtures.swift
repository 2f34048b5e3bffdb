import Foundation
import ShareCore
import ShareTestSupport
import Testing

@testable import ShareDesktop

/// A small, fixed MIME world, so that golden files do not depend on the machine's
/// shared-mime-info: a few types of each media type with shared-mime-info's relations among them.
enum Fixture {
  static let knownTypes = [
    "image/png", "image/jpeg", "image/gif", "image/svg+xml", "video/mp4", "video/webm", "audio/mpeg",
    "text/plain", "text/markdown", "text/csv", "text/x-python", "application/x-shellscript",
    "application/javascript", "application/json", "application/xml", "application/pdf", "application/zip",
    "application/octet-stream", "inode/directory", "inode/symlink",
  ]

  static let subclasses = """
    text/markdown text/plain
    text/csv text/plain
    text/x-python application/x-executable
    text/x-python text/plain
    application/x-shellscript application/x-executable
    application/x-shellscript text/plain
    application/javascript text/plain
    application/json application/javascript
    application/xml text/plain
    image/svg+xml application/xml
    """

  static let catalog: MIMECatalog = {
    var hierarchy = MIMEHierarchy()
    hierarchy.add(subclasses: subclasses, aliases: "image/jpg image/jpeg\n")
    return MIMECatalog(types: TypeSystem(mime: hierarchy), knownTypes: knownTypes)
  }()

  /// The machine's own catalog, read from `/usr/share/mime` as the command line does.
  static let systemCatalog: MIMECatalog = {
    var hierarchy = MIMEHierarchy()
    let read = { (name: String) in
      (try? String(contentsOfFile: "/usr/share/mime/\(name)", encoding: .utf8)) ?? ""
    }
    hierarchy.add(subclasses: read("subclasses"), aliases: read("aliases"))
    return MIMECatalog.load(types: TypeSystem(mime: hierarchy), mimeDirectories: ["/usr/share/mime"])
  }()

  static let executable = "/usr/bin/xdg-share"

  static func predicate(_ source: String) -> ActivationRule {
    // Fixtures are known to parse.
    .predicate(try! PredicateParser.parse(source))
  }

  static func service(
    _ id: String, _ name: String, rule: ActivationRule, icon: String = ShareService.defaultIcon,
    description: String? = nil
  ) -> ShareService {
    ShareService(
      id: id, name: name, icon: icon, description: description, bundlePath: "/x/\(id).shareext",
      executablePath: "/x/\(id).shareext/run", rule: rule)
  }

  /// Each attachment must conform to `type`, and there are `count` of them.
  static func everyAttachment(conformsTo type: String, _ count: String = ">= 1") -> ActivationRule {
    predicate(
      """
      SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, NOT (ANY $a.registeredTypeIdentifiers \
      UTI-CONFORMS-TO "\(type)")).@count == 0 AND $e.attachments.@count \(count)).@count == 1
      """)
  }

  // Rules and services are made on each use rather than kept in constants: a predicate tree
  // kept until exit is reported by LeakSanitizer (Tests/Scripts/sanitize.sh), which does not
  // see the pointers to an indirect enum's boxes.
  static var signalRule: ActivationRule {
    predicate(
      """
      SUBQUERY (extensionItems, $extensionItem, SUBQUERY ($extensionItem.attachments, $attachment, \
      ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.data" || \
      ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url").@count >= 1).@count == 1
      """)
  }

  /// One of each kind of rule the generators meet.
  static var services: [ShareService] {
    [
      service(
        "org.example.photos", "Photos", rule: .dictionary(DictionaryRule(maxImages: 1)),
        icon: "image-x-generic", description: "Post one photo"),
      service("org.example.files", "Files", rule: .dictionary(DictionaryRule(maxFiles: 5))),
      service(
        "org.signal.share", "Signal", rule: signalRule, icon: "/x/org.signal.share.shareext/signal.png"),
      service("org.example.notes", "Notes", rule: everyAttachment(conformsTo: "public.plain-text", "<= 3")),
      service("org.example.pair", "Compare PDFs", rule: everyAttachment(conformsTo: "com.adobe.pdf", "== 2")),
      service("org.example.clips", "Clips", rule: .dictionary(DictionaryRule(maxMovies: 2, version: 2))),
      service(
        "org.example.text", "Text Only",
        rule: .dictionary(DictionaryRule(supportsText: true, maxWebURLs: 1))),
      service("org.example/evil", "Evil Path", rule: .dictionary(DictionaryRule(maxFiles: 1))),
    ]
  }

  /// A name with every character that could change another key, a list, an Exec line or a
  /// Python string if it were not escaped.
  static let hostileName =
    "Ev\"il' $(touch pwned) `id` %F %% ; a;b \\n \\ [Desktop Entry]\nExec=/bin/rm -rf ~ Ünï 😀"
  static let hostileExecutable = "/opt/Share Tools/50% off/$HOME/\"q\"/xdg-share"

  static let hostileServices: [ShareService] = [
    service(
      "org.example.hostile", hostileName, rule: .dictionary(DictionaryRule(maxFiles: 1)),
      icon: "/x/a b;c\nIcon=evil.png", description: "About " + hostileName),
    service(" spaced id", "Spaced", rule: .dictionary(DictionaryRule(maxFiles: 1))),
    service("-rf", "Dash", rule: .dictionary(DictionaryRule(maxFiles: 1))),
  ]

  /// The Purpose plugins' program, and a translation of one service.
  static let purpose = PurposeSetup(
    program: "/usr/libexec/xdg-share/xdg-share-purpose", inDolphin: false,
    translations: [
      "org.example.photos": [
        .init(locale: "de", name: "Fotos", description: "Ein Foto veröffentlichen"),
        .init(locale: "pt_BR", name: "Fotos", description: nil),
      ]
    ])

  /// The hostile service's name in another language, hostile too: quotes, a newline, a control
  /// character, a line separator and bidi controls.
  static let hostilePurpose = PurposeSetup(
    program: "/usr/libexec/xdg-share/xdg-share-purpose", inDolphin: true,
    translations: [
      "org.example.hostile": [
        .init(locale: "de", name: "Bö\"se\n\u{7}\u{2028}\u{202E}txt.exe", description: "\"}, \"X\": [")
      ]
    ])

  /// All files of a rendering in one text, for a golden file.
  static func transcript(_ files: [GeneratedFile]) -> String {
    files.map { "=== \($0.path) (\($0.isExecutable ? "0755" : "0644"))\n\($0.contents)" }.joined(
      separator: "\n")
  }
}

/// The Exec value of a desktop entry, after key-file unescaping, split into argv the way the
/// specification says (and `g_shell_parse_argv` agrees for such lines), with `%%` made `%`.
func execArguments(_ value: String) -> [String] {
  var arguments: [String] = []
  var current = ""
  var inQuotes = false
  var hasArgument = false
  var iterator = value.makeIterator()
  while let character = iterator.next() {
    switch character {
    case "\"":
      inQuotes.toggle()
      hasArgument = true
    case "\\" where inQuotes:
      if let next = iterator.next() { current.append(next) }
    case " " where !inQuotes:
      if hasArgument { arguments.append(current) }
      current = ""
      hasArgument = false
    default:
      current.append(character)
      hasArgument = true
    }
  }
  if hasArgument { arguments.append(current) }
  return arguments.map { $0 == "%F" ? $0 : $0.replacingOccurrences(of: "%%", with: "%") }
}

/// Runs a program to its end and returns its status and outputs; with `environment`, in that
/// environment alone.
func runProgram(_ arguments: [String], input: String = "", environment: [String: String]? = nil) throws -> (
  status: Int32, output: String, error: String
) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: arguments[0])
  process.arguments = Array(arguments.dropFirst())
  if let environment { process.environment = environment }
  let output = Pipe()
  let error = Pipe()
  let stdin = Pipe()
  process.standardOutput = output
  process.standardError = error
  process.standardInput = stdin
  try process.run()
  stdin.fileHandleForWriting.write(Data(input.utf8))
  try stdin.fileHandleForWriting.close()
  let out = output.fileHandleForReading.readDataToEndOfFile()
  let err = error.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (
    process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self)
  )
}

/// The first of `paths` that is an executable file.
func program(_ paths: String...) -> String? {
  paths.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// A program on PATH.
func programOnPath(_ name: String) -> String? {
  (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}
