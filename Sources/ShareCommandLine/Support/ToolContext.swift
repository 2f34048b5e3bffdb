import Foundation
import ShareCore
import ShareDBus
import ShareGLib
import SharePOSIX

/// What every command works with: the environment, where things are, and how to speak.
struct ToolContext {
  let environment: [String: String]
  let paths: SearchPaths
  let output: Output

  init(environment: [String: String], output: Output) {
    self.environment = environment
    self.paths = SearchPaths(environment: environment)
    self.output = output
  }

  /// The installed services, with the user's hidden ones marked. Broken bundles are reported on
  /// standard error and skipped.
  func loadRegistry(reportProblems: Bool = true) -> ServiceRegistry {
    let settings = (try? String(contentsOfFile: paths.settingsFile, encoding: .utf8)).map(UserSettings.init(parsing:))
    let registry = ServiceRegistry.load(
      from: paths.extensionDirectories,
      loader: BundleLoader(languages: Localization.preferredLanguages(environment: environment)),
      hiddenServices: settings?.hiddenServices ?? [])
    if reportProblems {
      for problem in registry.problems where problem.severity == .error {
        output.diagnostic(Diagnostics.line(for: problem))
      }
    }
    return registry
  }

  /// The live desktop: programs on `PATH`, names on the session bus (asked once, only when some
  /// service needs one).
  func serviceEnvironment(for services: [ShareService]) -> LiveServiceEnvironment {
    let names = Set(services.flatMap(\.requirements.busNames))
    return LiveServiceEnvironment(
      searchPath: (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init),
      busNames: BusNames.availability(of: names.sorted()))
  }

  /// The selection with relative file paths made absolute (against the working directory's bytes).
  func resolve(_ selection: SelectionArguments) -> [ShareItem] {
    let directory = ShareGLib.currentDirectory()
    return selection.items.map { item in
      if case .file(let path) = item { return .file(path.absolute(in: directory)) }
      return item
    }
  }

  /// Asks on the terminal when there is one, else lists the choices for the caller.
  var picker: any ServicePicker {
    Terminal.isTerminal(0) && Terminal.isTerminal(2) ? TerminalPicker() : ListingPicker()
  }

  /// Turns the selection's items into attachments; a file that cannot be read is reported and
  /// makes the result `nil`.
  func attachments(for selection: SelectionArguments, types: TypeSystem) -> [Attachment]? {
    let items = resolve(selection)
    let (attachments, problems) = types.attachments(for: items, inspector: GIOFileInspector())
    for problem in problems {
      output.error(Wording.describe(problem) + commandHint(for: problem, in: selection))
    }
    return problems.isEmpty ? attachments : nil
  }
}

extension ToolContext {
  /// `xdg-share lst` is the short form of sharing a file named `lst`; when there is no such file
  /// and the word is near a command, the user most likely meant the command.
  fileprivate func commandHint(for problem: FileProblem, in selection: SelectionArguments) -> String {
    guard problem.reason == .notFound, case .file(let first)? = selection.items.first,
      problem.path.lastComponent == first.bytes, let word = first.string,
      let command = Suggestion.nearest(to: word, in: CommandName.allCases.map(\.rawValue))
    else { return "" }
    return " (did you mean the command '\(command)'?)"
  }
}

/// The requirements check against this machine.
struct LiveServiceEnvironment: ServiceEnvironment {
  let searchPath: [String]
  let busNames: [String: Bool]

  func isProgramAvailable(_ name: String) -> Bool {
    searchPath.contains { FileManager.default.isExecutableFile(atPath: $0 + "/" + name) }
  }

  func isBusNameAvailable(_ name: String) -> Bool {
    busNames[name] ?? false
  }
}
