import ShareDaemon

/// `xdg-share daemon`.
enum DaemonCommand {
  static func run(idleTimeout: Double?, context: ToolContext) -> ExitCode {
    let timeout =
      idleTimeout ?? context.environment["XDG_SHARE_IDLE_TIMEOUT"].flatMap(Double.init)
      ?? Usage.defaultIdleTimeout
    let daemon: ShareDaemon
    do {
      daemon = try ShareDaemon(configuration: .init(environment: context.environment, idleTimeout: timeout))
    } catch {
      switch error {
      case .noBus(let reason): context.output.error("cannot connect to the session bus: \(reason)")
      case .nameTaken: context.output.error("\(ShareDaemon.busName) is already owned on this bus")
      case .system(let reason): context.output.error(reason)
      }
      return .failure
    }
    return daemon.run() == 0 ? .success : .failure
  }
}
