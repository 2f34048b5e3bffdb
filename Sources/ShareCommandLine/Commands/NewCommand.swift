import FoundationEssentials
import ShareCore
import ShareGLib
import ShareHost
import SharePOSIX

/// `xdg-share new`: writes a bundle to start from (`--swift`, `--shell`, `--python`), or ports an
/// Xcode project's share extension (`--from-xcode`), into the current folder.
///
/// Everything is written into a hidden staging folder first and loaded there as `validate` loads
/// a bundle; only a bundle that loads is moved into place, so a failure leaves nothing behind.
enum NewCommand {
  static func run(_ options: NewOptions, context: ToolContext) -> ExitCode {
    let name = options.name
    let bundle = name + ".shareext"
    var outputs = [bundle]
    if options.template == .swift { outputs.append(name) }
    for output in outputs where (try? FileSystem.linkStatus(Array(output.utf8))) != nil {
      context.output.error(Wording.describe(.exists(output)))
      return .failure
    }
    let identifier = options.identifier ?? BuildSettings.defaultIdentifier(for: name)
    var files: [StagedFile] = []
    var report: [String]
    switch options.template {
    case .shell, .python:
      let python = options.template == .python
      files = [
        StagedFile(
          bundle + "/Info.plist",
          NewTemplates.infoPlist(name: name, identifier: identifier, programs: python ? ["python3"] : [])),
        StagedFile(
          bundle + "/" + name, python ? NewTemplates.python(name: name) : NewTemplates.shell(name: name),
          executable: true),
      ]
      report = Wording.wroteTemplate(
        bundle: bundle, id: identifier, program: name, language: python ? "Python" : "POSIX sh")
    case .swift:
      guard let url = options.shareKitURL.map(ShareKitSource.url(given:)) ?? ShareKitSource.defaultURL else {
        context.output.error(Wording.describe(.noShareKitRepository(ShareKitSource.buildRepository)))
        return .failure
      }
      files = swiftPackage(name: name, bundle: bundle, identifier: identifier, shareKitURL: url)
      report = Wording.wroteSwiftPackage(
        bundle: bundle, id: identifier, package: name, url: url, version: Usage.version,
        build: name + "/build.sh")
    case .fromXcode(let source):
      guard let ported = port(source, options: options, bundle: bundle, context: context) else {
        return .failure
      }
      files = ported.files
      report = ported.report
    }
    guard stage(files, outputs: outputs, context: context) else { return .failure }
    for line in report { context.output.line(line) }
    return .success
  }

  // MARK: Swift

  private static func swiftPackage(name: String, bundle: String, identifier: String, shareKitURL: String)
    -> [StagedFile]
  {
    [
      StagedFile(
        bundle + "/Info.plist", NewTemplates.infoPlist(name: name, identifier: identifier, programs: [])),
      StagedFile(bundle + "/" + name, NewTemplates.unbuilt(name: name), executable: true),
      StagedFile(
        name + "/Package.swift",
        NewTemplates.package(
          name: name, url: shareKitURL, identity: ShareKitSource.identity(of: shareKitURL),
          version: Usage.version)),
      StagedFile(
        name + "/Sources/\(name)/\(name).swift",
        NewTemplates.swift(name: name, type: swiftTypeName(name))),
      StagedFile(name + "/build.sh", NewTemplates.buildScript(name: name), executable: true),
      StagedFile(name + "/.gitignore", "/.build\n/.swiftpm\n"),
    ]
  }

  /// The name as a Swift type name: a C identifier starting with a capital.
  static func swiftTypeName(_ name: String) -> String {
    let identifier = BuildSettings.c99Identifier(name)
    return identifier.prefix(1).uppercased() + identifier.dropFirst()
  }

  // MARK: Xcode

  /// The ported bundle's files and what to say once it is written; nil (after saying why) when
  /// it cannot be ported.
  private static func port(
    _ source: FilePath, options: NewOptions, bundle: String, context: ToolContext
  ) -> (files: [StagedFile], report: [String])? {
    let file = source.displayString
    guard let (document, values) = readPropertyList(source, context: context) else { return nil }
    let settings = BuildSettings(
      name: options.name, identifier: options.identifier, definitions: options.definitions)
    let port = XcodePort(values, settings: settings)
    guard say(port.findings, of: file, in: document, bundle: bundle, context: context, refusing: \.isError)
    else { return nil }
    var files: [StagedFile] = []
    if let executable = port.executable {
      files.append(StagedFile(bundle + "/" + executable, NewTemplates.notPorted, executable: true))
    }
    files.append(
      StagedFile(
        bundle + "/Info.plist", PropertyListWriter.xml(.dictionary(port.root), positions: document.positions))
    )
    let id =
      port.root[InfoPlistKey.identifier].flatMap { if case .string(let id) = $0 { id } else { nil } } ?? ""
    var report = Wording.ported(bundle: bundle, id: id, from: file, program: port.executable)
    guard let entitlements = entitlementsFile(options, beside: source, context: context) else { return nil }
    if let entitlements {
      guard let ported = portEntitlements(entitlements, settings: settings, bundle: bundle, context: context)
      else { return nil }
      files += ported.files
      report.insert(contentsOf: ported.report, at: 1)
    }
    return (files, report)
  }

  /// The property list at `source`, its top level a dictionary; nil after saying why not.
  private static func readPropertyList(_ source: FilePath, context: ToolContext)
    -> (PropertyListDocument, [String: PropertyListValue])?
  {
    let file = source.displayString
    let bytes: [UInt8]
    do {
      let status = try FileSystem.status(source.bytes)
      guard status.kind == .regular, status.size <= UInt64(maximumSize) else {
        let problem = BundleProblem(file: file, kind: .unreadable(.notARegularFile(maximumSize: maximumSize)))
        context.output.diagnostic(Diagnostics.line(for: problem))
        return nil
      }
      let descriptor = try FileDescriptor.openForReading(source.bytes)
      defer { descriptor.close() }
      bytes = try descriptor.readToEnd()
    } catch {
      context.output.error(Wording.describe(.cannotRead(file, reason: error.reason)))
      return nil
    }
    let document: PropertyListDocument
    do {
      document = try PropertyListReader.read(bytes)
    } catch {
      context.output.diagnostic(
        Diagnostics.line(
          for: BundleProblem(file: file, kind: .malformedPropertyList(error), position: error.position)))
      return nil
    }
    guard case .dictionary(let values) = document.value else {
      context.output.diagnostic(
        Diagnostics.line(
          for: BundleProblem(file: file, kind: .unreadable(.notADictionary), position: document.positions[[]])
        ))
      return nil
    }
    return (document, values)
  }

  /// The target's `.entitlements` file: `--entitlements`, or the one beside the Info.plist
  /// (`NAME.entitlements` when there are several, as Xcode names a target's). `.some(nil)` when
  /// there is none; nil after saying why none can be chosen.
  private static func entitlementsFile(_ options: NewOptions, beside source: FilePath, context: ToolContext)
    -> FilePath??
  {
    if let given = options.entitlements { return given }
    let slash = source.bytes.lastIndex(of: UInt8(ascii: "/"))
    let folder = slash.map { Array(source.bytes[...$0]) } ?? []
    let names = (FileSystem.entries(ofDirectory: folder.isEmpty ? Array(".".utf8) : folder) ?? [])
      .filter { $0.first != UInt8(ascii: ".") && $0.reversed().starts(with: ".entitlements".utf8.reversed()) }
      .sorted { $0.lexicographicallyPrecedes($1) }
    let named = Array((options.name + ".entitlements").utf8)
    switch names.count {
    case 0: return .some(nil)
    case 1: return FilePath(bytes: folder + names[0])
    default:
      if names.contains(named) { return FilePath(bytes: folder + named) }
      context.output.error(
        Wording.describe(
          .severalEntitlements(source.displayString, names: names.map { FilePath(bytes: $0).displayString })))
      return nil
    }
  }

  /// The bundle's Entitlements.plist from the target's `.entitlements` file at `source` (none when
  /// no key carries over), and what to say of it; nil after saying why it cannot be ported.
  private static func portEntitlements(
    _ source: FilePath, settings: BuildSettings, bundle: String, context: ToolContext
  ) -> (files: [StagedFile], report: [String])? {
    let file = source.displayString
    guard let (document, values) = readPropertyList(source, context: context) else { return nil }
    let port = EntitlementsPort(values, settings: settings, positions: document.positions)
    guard
      say(port.findings, of: file, in: document, bundle: bundle, context: context, refusing: { _ in true })
    else { return nil }
    let written = bundle + "/" + EntitlementKey.fileName
    let files =
      port.kept.isEmpty
      ? []
      : [StagedFile(written, PropertyListWriter.xml(.dictionary(port.kept), positions: document.positions))]
    let kept = EntitlementKey.all.filter { port.kept[$0] != nil }
    return (files, Wording.portedEntitlements(written, from: file, kept: kept, leftOut: port.leftOut))
  }

  /// Says each finding at its place in `file`, in the file's order; when one is `refusing`, says
  /// that nothing was written and returns false.
  private static func say(
    _ findings: [XcodePort.Finding], of file: String, in document: PropertyListDocument, bundle: String,
    context: ToolContext, refusing: (XcodePort.Finding) -> Bool
  ) -> Bool {
    let positions = document.positions
    for finding in findings.sorted(by: { order($0.path, $1.path, positions) }) {
      context.output.diagnostic(
        Wording.describe(
          finding, file: file, position: positions[finding.path] ?? positions[[finding.path[0]]]))
    }
    guard findings.contains(where: refusing) else { return true }
    context.output.error(Wording.nothingWritten(bundle))
    return false
  }

  /// Findings in the order of the file, by where their values begin; then by key path.
  private static func order(_ a: [String], _ b: [String], _ positions: [[String]: TextPosition]) -> Bool {
    switch (positions[a], positions[b]) {
    case (let first?, let second?) where first != second: first < second
    case (.some, nil): true
    case (nil, .some): false
    default: a.lexicographicallyPrecedes(b)
    }
  }

  /// The largest Info.plist read, as the bundle loader's limit.
  private static let maximumSize = 1 << 20

  // MARK: Writing

  /// A file to write, by its path relative to the current folder.
  struct StagedFile {
    var path: String
    var contents: String
    var executable: Bool

    init(_ path: String, _ contents: String, executable: Bool = false) {
      self.path = path
      self.contents = contents
      self.executable = executable
    }
  }

  /// Writes `files` into a staging folder, loads the bundle there, and moves `outputs` (the
  /// bundle first) into the current folder. Returns whether all of it worked; on failure nothing
  /// is left.
  private static func stage(_ files: [StagedFile], outputs: [String], context: ToolContext) -> Bool {
    let staging = ".\(outputs[0]).new-\(ProcessInfo.processInfo.processIdentifier)"
    // One left by a run that was killed, whose process number this one has now, goes first.
    try? FileManager.default.removeItem(atPath: staging)
    defer { try? FileManager.default.removeItem(atPath: staging) }
    do {
      try FileSystem.makeDirectory(Array(staging.utf8), mode: 0o700)
      for file in files {
        let path = Array((staging + "/" + file.path).utf8)
        if let slash = path.lastIndex(of: UInt8(ascii: "/")) {
          try FileSystem.makeDirectories(Array(path[..<slash]))
        }
        try FileSystem.writeAtomically(
          Array(file.contents.utf8), to: path, mode: file.executable ? 0o755 : 0o644)
      }
    } catch {
      context.output.error(Wording.describe(.cannotWrite(outputs[0], reason: Wording.reason(error))))
      return false
    }
    // The bundle must work as written: the loader `validate` and `install` use says so.
    let loader = BundleLoader(languages: Localization.preferredLanguages(environment: context.environment))
    let outcome = loader.load(bundleAt: staging + "/" + outputs[0])
    for var problem in outcome.problems.sorted(by: { $0.severity > $1.severity }) {
      if problem.file.hasPrefix(staging + "/") { problem.file.removeFirst(staging.count + 1) }
      context.output.diagnostic(Diagnostics.line(for: problem))
    }
    guard outcome.service != nil else {
      context.output.error(Wording.nothingWritten(outputs[0]))
      return false
    }
    var moved: [String] = []
    do {
      for output in outputs {
        try FileSystem.rename(Array((staging + "/" + output).utf8), to: Array(output.utf8))
        moved.append(output)
      }
    } catch {
      for output in moved {
        try? FileSystem.rename(Array(output.utf8), to: Array((staging + "/" + output).utf8))
      }
      context.output.error(Wording.describe(.cannotWrite(outputs[0], reason: Wording.reason(error))))
      return false
    }
    return true
  }
}

/// Where a Swift package written by `new --swift` gets ShareKit: a git repository, depended on
/// by version (SwiftPM refuses unsafe flags in such a dependency, so ShareKit stays usable).
///
/// xdg-share has no public address yet, so the default is the repository this xdg-share was
/// built from, as a `file://` URL; `--sharekit-url` gives another (a public one, once there is).
/// Versions are that repository's tags: `Usage.version` must be tagged there.
enum ShareKitSource {
  /// The repository's folder at build time: this file is `Sources/ShareCommandLine/Commands/`
  /// in it.
  static let buildRepository: String = {
    var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    components.removeLast(min(4, components.count))
    return components.joined(separator: "/")
  }()

  /// `buildRepository` as a `file://` URL, when it is still a git repository of xdg-share.
  static var defaultURL: String? {
    let root = buildRepository
    guard !root.isEmpty, (try? FileSystem.status(Array((root + "/Package.swift").utf8))) != nil,
      (try? FileSystem.linkStatus(Array((root + "/.git").utf8))) != nil
    else { return nil }
    return FilePath(root).fileURL
  }

  /// `--sharekit-url` as the package needs it: a URL as given, a path (which the package in its
  /// own folder could not follow if relative) as an absolute `file://` URL.
  static func url(given: String) -> String {
    guard !given.contains("://") else { return given }
    let absolute = FilePath(given).absolute(in: ShareGLib.currentDirectory()).bytes
    // `..` and `.` taken out, as the folder's own URL has none.
    var components: [ArraySlice<UInt8>] = []
    for component in absolute.split(separator: UInt8(ascii: "/")) where component != [UInt8(ascii: ".")] {
      if component.elementsEqual("..".utf8) { _ = components.popLast() } else { components.append(component) }
    }
    let joined = components.map { [UInt8(ascii: "/")] + $0 }.joined()
    return FilePath(bytes: components.isEmpty ? [UInt8(ascii: "/")] : Array(joined)).fileURL
  }

  /// The package identity SwiftPM gives the repository at `url`: its last path component, without
  /// `.git`, lowercased; `.product(name:package:)` names it.
  static func identity(of url: String) -> String {
    var last = url.split(separator: "/").last.map(String.init) ?? url
    if last.hasSuffix(".git") { last.removeLast(4) }
    return last.lowercased()
  }
}
