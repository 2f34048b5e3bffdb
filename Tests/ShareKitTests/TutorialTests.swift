// Longer than 400 lines on purpose: it follows the tutorial step by step, in the tutorial's order.

import Foundation
import ShareProtocol
import ShareTestSupport
import Testing

/// Follows `docs/writing-a-share-extension.md` as a reader would, in a throw-away home folder:
/// writes every file it shows, runs every command it shows (without a shell) and compares the
/// output it shows.
///
/// The tutorial marks its steps with HTML comments, invisible when it is read:
///
/// - `<!-- tutorial: part NAME -->` starts a part, followed in a desktop of its own;
/// - `<!-- tutorial: file PATH -->` before a code block: write the block to `PATH`;
/// - `<!-- tutorial: run -->` before a code block: run each `$ command`; the lines after a
///   command are its expected standard output (`...` stands for any lines, the home folder is
///   written `/home/you`), and it must exit with status 0; `cd DIR` changes the folder;
/// - `<!-- tutorial: fixture NAME -->`: a picture the reader is asked to provide;
/// - `<!-- tutorial: excerpt PATH -->` before a code block: the block is part of the file `PATH`
///   as it is at that step (a file a command wrote), word for word;
/// - `<!-- tutorial: example -->` before a code block: an illustration, not a step.
///
/// Every code block must carry one of these, so no step goes untested. `/path/to/xdg-share` in
/// a file stands for this repository: a clone of it, tagged with the version `xdg-share
/// --version` prints, as a plugin author's package depends on it by version.
@Suite("The tutorial, followed step by step")
struct TutorialTests {
  @Test("every code block is a step or marked as an example")
  func everyBlockIsMarked() throws {
    let tutorial = try Tutorial.load()
    #expect(tutorial.problems == [])
    #expect(tutorial.parts.map(\.name) == ["python", "shell", "swift", "xcode"])
    for part in tutorial.parts {
      #expect(part.steps.count >= 5, "part \(part.name) has only \(part.steps.count) steps")
    }
  }

  @Test("part 1: a share service in Python")
  func pythonService() throws {
    _ = try Tutorial.load().follow(part: "python")
  }

  @Test("part 2: a share service in sh, from xdg-share new --shell")
  func shellService() throws {
    _ = try Tutorial.load().follow(part: "shell")
  }

  @Test("part 4: porting an iOS share extension with xdg-share new --from-xcode")
  func portedService() throws {
    _ = try Tutorial.load().follow(part: "xcode")
  }

  /// Builds a package depending on this repository in release mode (a minute or two), then runs
  /// the program it made as the host does, to check what `ShareExtension.main()` does.
  @Test("part 3: a share service in Swift, with ShareKit and an App Group", .timeLimit(.minutes(15)))
  func swiftService() throws {
    guard let followed = try Tutorial.load().follow(part: "swift") else { return }
    let program = followed.home + "/stash/.build/release/stash"
    let photo = followed.home + "/stash/photo.png"

    // Without a request: a cancel event that says so, and status 1.
    let alone = try Tutorial.run([program], in: followed.home, environment: followed.environment)
    #expect(alone.status == 1)
    #expect(
      alone.output
        == #"{"cancel":{"error":{"code":2,"message":"no request on standard input; share extensions are started by xdg-share"}}}"#
        + "\n")

    // With one: events alone on standard output, what the extension prints on standard error.
    let request = try requestLine(
      PluginRequest(
        requestId: "r-1", serviceId: "ch.example.hoi.stash",
        inputItems: [
          ItemPayload(attachments: [
            AttachmentPayload(
              typeIdentifiers: ["public.png", "image/png"], url: "file://" + photo, path: photo,
              name: "photo.png")
          ])
        ]))
    var environment = followed.environment
    environment["XDG_SHARE_APPLICATION_GROUPS"] = "group.ch.example.other:group.ch.example.hoi"
    let served = try Tutorial.run([program], in: followed.home, environment: environment, input: request)
    #expect(served.status == 0)
    let events = try served.output.split(separator: "\n").map {
      try JSONDecoder().decode(PluginEvent.self, from: Data($0.utf8))
    }
    #expect(events.first == .progress(fraction: 0, message: "Stashing photo.png"))
    #expect(events.last?.isFinal == true)
    #expect(served.errors.contains("stashed \(photo)\n"))

    // Under a host that grants no App Group, the group is refused and the request cancelled.
    environment["XDG_SHARE_APPLICATION_GROUPS"] = ""
    let refused = try Tutorial.run([program], in: followed.home, environment: environment, input: request)
    #expect(refused.status == 0)
    #expect(
      refused.output.hasPrefix(
        #"{"cancel":{"error":{"code":4,"message":"this share extension does not declare"#))
  }

  @Test(
    "command lines are split into arguments without a shell",
    arguments: [
      ("xdg-share list", ["xdg-share", "list"]),
      (
        #"xdg-share --text "Call Jana back"  --url https://x/"#,
        ["xdg-share", "--text", "Call Jana back", "--url", "https://x/"]
      ),
      (#"echo 'a "b"' "c \"d\" \\" e\ f"#, ["echo", #"a "b""#, #"c "d" \"#, "e f"]),
      ("cd ~/stash", ["cd", "/home/u/stash"]),
      ("ls ~ '~/x' a~b", ["ls", "/home/u", "~/x", "a~b"]),
      (#"echo "" ''"#, ["echo", "", ""]),
    ])
  func splitting(line: String, argv: [String]) throws {
    #expect(try Tutorial.split(line, home: "/home/u") == argv)
  }

  @Test(
    "a command that needs a shell is refused",
    arguments: ["ls | wc", "echo $HOME", "a > b", "a; b", "ls *.png", "echo 'open"])
  func shellSyntax(line: String) {
    #expect(throws: TutorialError.self) { try Tutorial.split(line, home: "/home/u") }
  }

  @Test("expected output: exact lines, with ... for any lines")
  func outputMatching() {
    #expect(Tutorial.matches(["a", "b"], expected: ["a", "b"]))
    #expect(!Tutorial.matches(["a", "b"], expected: ["a"]))
    #expect(!Tutorial.matches([], expected: ["a"]))
    #expect(Tutorial.matches([], expected: []))
    #expect(Tutorial.matches(["x", "y", "z"], expected: ["..."]))
    #expect(Tutorial.matches([], expected: ["..."]))
    #expect(Tutorial.matches(["x", "a", "y", "b"], expected: ["...", "a", "...", "b"]))
    #expect(!Tutorial.matches(["x", "a", "y", "b", "c"], expected: ["...", "a", "...", "b"]))
  }
}

struct TutorialError: Error, CustomStringConvertible {
  var description: String
}

/// The tutorial's steps, read from its markdown.
struct Tutorial {
  struct Command {
    var line: Int
    var text: String
    var expected: [String] = []
  }

  enum Step {
    case file(line: Int, path: String, contents: String)
    case excerpt(line: Int, path: String, contents: String)
    case run(line: Int, commands: [Command])
    case fixture(line: Int, path: String)
  }

  struct Part {
    var name: String
    var steps: [Step] = []
  }

  var parts: [Part] = []
  /// Blocks without a marker, markers without a block: `line N: what`.
  var problems: [String] = []

  static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path
  static let path = repositoryRoot + "/docs/writing-a-share-extension.md"
  /// Stands for the repository in the tutorial's files.
  static let repositoryPlaceholder = "/path/to/xdg-share"
  /// The home folder, as the tutorial's expected output writes it.
  static let shownHome = "/home/you"

  static func load() throws -> Tutorial {
    parse(try String(contentsOfFile: path, encoding: .utf8))
  }

  // MARK: Reading the markdown

  static func parse(_ markdown: String) -> Tutorial {
    var tutorial = Tutorial()
    let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var pending: (kind: String, argument: String, line: Int)?
    var index = 0
    while index < lines.count {
      let line = lines[index]
      let number = index + 1
      index += 1
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("<!-- tutorial:"), trimmed.hasSuffix("-->") {
        let body = trimmed.dropFirst("<!-- tutorial:".count).dropLast("-->".count)
        let words = body.split(separator: " ").map(String.init)
        let kind = words.first ?? ""
        let argument = words.dropFirst().joined(separator: " ")
        switch kind {
        case "part":
          tutorial.parts.append(Part(name: argument))
        case "fixture":
          tutorial.append(.fixture(line: number, path: argument), problemLine: number)
        case "file", "excerpt", "run", "example":
          if let pending {
            tutorial.problems.append("line \(pending.line): '\(pending.kind)' is followed by no code block")
          }
          pending = (kind, argument, number)
        default:
          tutorial.problems.append("line \(number): unknown marker '\(kind)'")
        }
        continue
      }
      if trimmed.hasPrefix("```") {
        var block: [String] = []
        while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
          block.append(lines[index])
          index += 1
        }
        index += 1
        guard let marker = pending else {
          tutorial.problems.append(
            "line \(number): a code block that is neither a step nor marked as an example")
          continue
        }
        pending = nil
        switch marker.kind {
        case "file":
          let contents = block.joined(separator: "\n") + "\n"
          tutorial.append(.file(line: number, path: marker.argument, contents: contents), problemLine: number)
        case "excerpt":
          let contents = block.joined(separator: "\n") + "\n"
          tutorial.append(
            .excerpt(line: number, path: marker.argument, contents: contents), problemLine: number)
        case "run":
          tutorial.append(
            .run(line: number, commands: commands(in: block, from: number + 1, tutorial: &tutorial)),
            problemLine: number)
        default:
          break
        }
        continue
      }
      if !trimmed.isEmpty, let marker = pending {
        tutorial.problems.append("line \(marker.line): '\(marker.kind)' is followed by no code block")
        pending = nil
      }
    }
    if let pending {
      tutorial.problems.append("line \(pending.line): '\(pending.kind)' is followed by no code block")
    }
    return tutorial
  }

  private mutating func append(_ step: Step, problemLine: Int) {
    guard !parts.isEmpty else {
      problems.append("line \(problemLine): a step before the first part")
      return
    }
    parts[parts.count - 1].steps.append(step)
  }

  private static func commands(in block: [String], from firstLine: Int, tutorial: inout Tutorial) -> [Command]
  {
    var commands: [Command] = []
    for (offset, line) in block.enumerated() {
      if line.hasPrefix("$ ") {
        commands.append(Command(line: firstLine + offset, text: String(line.dropFirst(2))))
      } else if commands.isEmpty {
        tutorial.problems.append("line \(firstLine + offset): output before the first command")
      } else {
        commands[commands.count - 1].expected.append(line)
      }
    }
    for index in commands.indices {
      while commands[index].expected.last?.isEmpty == true { commands[index].expected.removeLast() }
    }
    return commands
  }

  // MARK: Following it

  /// Where a part was followed: its desktop (kept while this lives), the home folder and the
  /// environment the commands ran in.
  struct Followed {
    var desktop: TemporaryDesktop
    var home: String
    var environment: [String: String]
  }

  /// Follows the steps of `part` in a new desktop, recording an issue and stopping at the first
  /// step that fails (and then returning `nil`).
  func follow(part name: String) throws -> Followed? {
    guard let part = parts.first(where: { $0.name == name }) else {
      throw TutorialError(description: "the tutorial has no part '\(name)'")
    }
    let desktop = try TemporaryDesktop()
    let home = desktop.root + "/home"
    // The repository under the name the tutorial's Package.swift uses for it, tagged with this
    // xdg-share's version, when a file of the part refers to it.
    let repository = desktop.root + "/xdg-share"
    let usesRepository = part.steps.contains {
      if case .file(_, _, let contents) = $0 { contents.contains(Self.repositoryPlaceholder) } else { false }
    }
    if usesRepository {
      let version = try Self.run([Tool.path, "--version"], in: home, environment: desktop.environment).output
        .dropFirst("xdg-share ".count).trimmingCharacters(in: .whitespacesAndNewlines)
      try TaggedClone.make(at: repository, tag: version, environment: desktop.environment)
    }

    // The reader's defaults: data, state and settings in the home folder, xdg-share on PATH.
    var environment = desktop.environment
    for name in ["XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"] {
      environment[name] = nil
    }
    let toolFolder = URL(fileURLWithPath: Tool.path).deletingLastPathComponent().path
    environment["PATH"] = toolFolder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")

    var folder = home
    for step in part.steps {
      switch step {
      case .file(_, let path, let contents):
        let file = Self.resolve(path, in: folder, home: home)
        try FileManager.default.createDirectory(
          atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try contents.replacingOccurrences(of: Self.repositoryPlaceholder, with: repository)
          .write(toFile: file, atomically: true, encoding: .utf8)
      case .excerpt(let line, let path, let contents):
        let file = Self.resolve(path, in: folder, home: home)
        guard let text = try? String(contentsOfFile: file, encoding: .utf8), text.contains(contents) else {
          Issue.record("line \(line): the block is not part of \(path) as written at this step")
          return nil
        }
      case .fixture(_, let path):
        try Data(tinyPNG).write(to: URL(fileURLWithPath: Self.resolve(path, in: folder, home: home)))
      case .run(_, let commands):
        for command in commands {
          let argv = try Self.split(command.text, home: home)
          if argv.first == "cd" {
            guard argv.count == 2 else {
              throw TutorialError(description: "line \(command.line): cd takes one folder")
            }
            folder = Self.resolve(argv[1], in: folder, home: home)
            continue
          }
          let result = try Self.run(argv, in: folder, environment: environment)
          let output = result.output.replacingOccurrences(of: home, with: Self.shownHome)
          var actual = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
          while actual.last?.isEmpty == true { actual.removeLast() }
          guard result.status == 0, Self.matches(actual, expected: command.expected) else {
            Issue.record(
              """
              line \(command.line): $ \(command.text)
              exit status \(result.status)
              expected output:
              \(command.expected.joined(separator: "\n"))
              actual output:
              \(actual.joined(separator: "\n"))
              standard error:
              \(result.errors)
              """)
            return nil
          }
        }
      }
    }
    return Followed(desktop: desktop, home: home, environment: environment)
  }

  /// A path as the tutorial writes it (`~/x`, relative or absolute), made absolute.
  static func resolve(_ path: String, in folder: String, home: String) -> String {
    if path == "~" { return home }
    if path.hasPrefix("~/") { return home + path.dropFirst(1) }
    return path.hasPrefix("/") ? path : folder + "/" + path
  }

  /// Runs `argv` directly (the program looked up on `PATH`) and returns its exit status, its
  /// standard output and its standard error.
  static func run(
    _ argv: [String], in folder: String, environment: [String: String], input: Data = Data()
  ) throws -> (status: Int32, output: String, errors: String) {
    guard let name = argv.first else { throw TutorialError(description: "an empty command") }
    let program =
      name.contains("/")
      ? resolve(name, in: folder, home: environment["HOME"] ?? "/")
      : (environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(name)" }.first {
        FileManager.default.isExecutableFile(atPath: $0)
      }
    guard let program else { throw TutorialError(description: "\(name) is not on PATH") }
    // Files, not pipes: a build's output can fill a pipe while nobody reads it.
    let capture = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tutorial-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: capture, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: capture) }
    let outputFile = capture.appendingPathComponent("out")
    let errorFile = capture.appendingPathComponent("err")
    let inputFile = capture.appendingPathComponent("in")
    try input.write(to: inputFile)
    _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)

    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = Array(argv.dropFirst())
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    process.environment = environment
    process.standardInput = try FileHandle(forReadingFrom: inputFile)
    process.standardOutput = try FileHandle(forWritingTo: outputFile)
    process.standardError = try FileHandle(forWritingTo: errorFile)
    try process.run()
    process.waitUntilExit()
    return (
      process.terminationStatus, try String(contentsOf: outputFile, encoding: .utf8),
      try String(contentsOf: errorFile, encoding: .utf8)
    )
  }

  /// Splits a command line into arguments with simple quoting: `'…'` is literal, `"…"` allows
  /// `\"` and `\\`, a backslash outside quotes escapes the next character, and an unquoted `~`
  /// at the start of a word is the home folder. Anything only a shell would understand
  /// (pipes, redirections, variables, globs) is refused: the tutorial's commands must work as
  /// they are written, in any shell.
  static func split(_ line: String, home: String) throws -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var characters = line[...]
    while let character = characters.popFirst() {
      switch character {
      case " ", "\t":
        if inWord { words.append(word) }
        word = ""
        inWord = false
      case "'":
        inWord = true
        guard let end = characters.firstIndex(of: "'") else {
          throw TutorialError(description: "unclosed ' in \(line)")
        }
        word += characters[..<end]
        characters = characters[characters.index(after: end)...]
      case "\"":
        inWord = true
        while true {
          guard let next = characters.popFirst() else {
            throw TutorialError(description: "unclosed \" in \(line)")
          }
          if next == "\"" { break }
          if next == "\\", let escaped = characters.first, escaped == "\"" || escaped == "\\" {
            word.append(escaped)
            characters = characters.dropFirst()
          } else if next == "$" || next == "`" {
            throw TutorialError(description: "\(line) needs a shell: \(next) inside double quotes")
          } else {
            word.append(next)
          }
        }
      case "\\":
        inWord = true
        guard let escaped = characters.popFirst() else {
          throw TutorialError(description: "a lone \\ ends \(line)")
        }
        word.append(escaped)
      case "~" where !inWord && (characters.isEmpty || characters.first == "/" || characters.first == " "):
        inWord = true
        word += home
      case "|", "&", ";", "<", ">", "$", "`", "*", "?", "(", ")", "{", "}", "[", "]":
        throw TutorialError(description: "\(line) needs a shell: \(character)")
      default:
        inWord = true
        word.append(character)
      }
    }
    if inWord { words.append(word) }
    return words
  }

  /// Whether `actual` lines are the `expected` ones, where a line `...` stands for any lines.
  static func matches(_ actual: [String], expected: [String]) -> Bool {
    guard let first = expected.first else { return actual.isEmpty }
    if first == "..." {
      return actual.indices.contains { matches(Array(actual[$0...]), expected: Array(expected.dropFirst())) }
        || matches([], expected: Array(expected.dropFirst()))
    }
    guard actual.first == first else { return false }
    return matches(Array(actual.dropFirst()), expected: Array(expected.dropFirst()))
  }
}
