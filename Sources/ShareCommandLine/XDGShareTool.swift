import ShareCore
public import ShareHost

/// The `xdg-share` program: parses argv and runs one command.
public enum XDGShareTool {
  /// Runs the command line `arguments` (without the program name) and returns the exit code.
  ///
  /// - Parameters:
  ///   - daemon: starts the D-Bus service for `xdg-share daemon`.
  ///   - secrets: where secure configuration values are kept (the Secret Service); without one,
  ///     they are asked for each time and never kept.
  public static func run(
    arguments: [[UInt8]], environment: [String: String], output: Output = .standard, daemon: DaemonLauncher,
    secrets: any SecretStore = UnavailableSecretStore()
  ) -> Int32 {
    let context = ToolContext(environment: environment, output: output, secrets: secrets)
    let command: Command
    do {
      command = try Parser.parse(arguments)
    } catch {
      output.error(Usage.message(for: error))
      return ExitCode.usage.rawValue
    }
    let code: ExitCode
    switch command {
    case .help(let topic):
      output.line(Usage.help(for: topic))
      code = .success
    case .version:
      output.line("xdg-share \(Usage.version)")
      code = .success
    case .list(let options):
      code = ListCommand.run(options, context: context)
    case .validate(let paths):
      code = ValidateCommand.run(paths: paths, context: context)
    case .share(let options):
      code = ShareCommand.run(options, context: context)
    case .install(let path, let allowUnconfined):
      code = InstallCommands.install(path, allowUnconfined: allowUnconfined, context: context)
    case .uninstall(let id):
      code = InstallCommands.uninstall(id, context: context)
    case .history(let json):
      code = HistoryCommands.history(json: json, context: context)
    case .retry(let id, let json, let again):
      code = HistoryCommands.retry(id: id, json: json, again: again, context: context)
    case .groupPath(let group):
      code = HistoryCommands.groupPath(group, context: context)
    case .daemon(let idleTimeout):
      code = DaemonCommand.run(idleTimeout: idleTimeout, launcher: daemon, context: context)
    case .register(let system):
      code = RegisterCommand.register(system: system, context: context)
    case .unregister(let system):
      code = RegisterCommand.unregister(system: system, context: context)
    case .completion(let shell):
      output.line(CompletionScript.render(for: shell))
      code = .success
    case .manual:
      output.line(ManualPage.render())
      code = .success
    case .new(let options):
      code = NewCommand.run(options, context: context)
    case .configure(let id, let settings):
      code = ConfigureCommand.run(id: id, settings: settings, context: context)
    case .why(let options):
      code = WhyCommand.run(options, context: context)
    case .doctor(let json):
      code = DoctorCommand.run(json: json, context: context)
    }
    return code.rawValue
  }
}
