import ShareDaemon
import SharePOSIX

/// `xdg-share daemon`.
enum DaemonCommand {
  static func run(idleTimeout: Double?, context: ToolContext) -> ExitCode {
    var timeout = idleTimeout ?? Usage.defaultIdleTimeout
    if idleTimeout == nil, let text = context.environment["XDG_SHARE_IDLE_TIMEOUT"], !text.isEmpty {
      guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
        context.output.error(
          Usage.message(
            for: .invalidEnvironmentValue(
              variable: "XDG_SHARE_IDLE_TIMEOUT", value: text, expected: "a number of seconds (0: never)")))
        return .usage
      }
      timeout = seconds
    }
    let daemon: ShareDaemon
    do {
      daemon = try ShareDaemon(configuration: .init(environment: context.environment, idleTimeout: timeout))
    } catch {
      switch error {
      case .noBus(let reason): context.output.error(Wording.describe(.noBus(reason)))
      case .nameTaken: context.output.error(Wording.describe(.busNameTaken(ShareDaemon.busName)))
      case .system(let reason): context.output.error(reason)
      }
      return .failure
    }
    // SIGTERM (a session ending) lets the shares in flight end with a Response.
    let stop = daemon.stopHandle
    SignalWatcher.onTermination { _ in stop.stop() }
    defer { SignalWatcher.onTermination(nil) }
    return daemon.run() == 0 ? .success : .failure
  }
}
