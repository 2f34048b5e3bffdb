import FoundationEssentials
import ShareCore
import ShareGLib
import ShareHost
import SharePOSIX

/// What every command works with: the environment, where things are, and how to speak.
struct ToolContext {
  let environment: [String: String]
  let paths: SearchPaths
  let output: Output
  /// Where secure configuration values (passwords) are kept: the Secret Service, handed in by
  /// the executable.
  let secrets: any SecretStore

  init(environment: [String: String], output: Output, secrets: any SecretStore = UnavailableSecretStore()) {
    self.environment = environment
    self.paths = SearchPaths.system(environment: environment)
    self.output = output
    self.secrets = secrets
  }

  /// The compose step of services that declare a compose sheet: remembered values in
  /// `$XDG_CONFIG_HOME/xdg-share/configuration`, secure ones in ``secrets``.
  var composeStep: ComposeStep {
    ComposeStep(
      configuration: ConfigurationStore(configHome: paths.configHomeLocation), secrets: secrets,
      earlier: EarlierSettings(configHome: paths.configHomeLocation, environment: environment))
  }

  /// The installed services and what is offered, as the D-Bus service sees them. Broken bundles
  /// are reported on standard error and skipped.
  func loadCatalog(reportProblems: Bool = true) -> ServiceCatalog {
    let catalog = ServiceCatalog.desktop(environment: environment)
    if reportProblems {
      for problem in catalog.registry.problems where problem.severity == .error {
        output.diagnostic(Diagnostics.line(for: problem))
      }
      warnWithoutMIMEDatabase()
    }
    return catalog
  }

  /// Without a shared-mime-info database, types cannot be told apart: say so.
  func warnWithoutMIMEDatabase() {
    if !SharedMIMEDatabase.isInstalled() {
      output.error(Wording.noMIMEDatabase(SharedMIMEDatabase.directories()))
    }
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

  /// The services of `catalog` that accept the selection's items, with what was built on the
  /// way; a file that cannot be read is reported and makes the result `nil`.
  func match(_ selection: SelectionArguments, in catalog: ServiceCatalog) -> ServiceMatch? {
    do {
      return try catalog.match(resolve(selection).map { RequestedItem($0) }, inspector: GIOFileInspector())
    } catch {
      for problem in error.problems {
        output.error(Diagnostics.line(for: problem) + commandHint(for: problem, in: selection))
      }
      return nil
    }
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
