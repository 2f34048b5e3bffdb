import ShareHost
import SharePOSIX

/// How `xdg-share daemon` starts the D-Bus service. The service lives in its own module, which
/// the command line does not link; the `xdg-share` executable hands it in.
public struct DaemonLauncher: Sendable {
  /// Why the service could not start.
  public enum Failure: Error, Sendable {
    case noBus(String)
    case nameTaken(String)
    case system(String)
  }

  /// Serves until idle with the given environment and idle timeout (seconds; 0 never); true when
  /// it ended cleanly.
  public var serve:
    @Sendable (_ environment: [String: String], _ idleTimeout: Double) -> Result<Bool, Failure>

  public init(serve: @escaping @Sendable ([String: String], Double) -> Result<Bool, Failure>) {
    self.serve = serve
  }
}

/// `xdg-share daemon`.
enum DaemonCommand {
  static func run(idleTimeout: Double?, launcher: DaemonLauncher, context: ToolContext) -> ExitCode {
    var timeout = idleTimeout ?? Usage.defaultIdleTimeout
    if idleTimeout == nil, let text = context.environment["XDG_SHARE_IDLE_TIMEOUT"], !text.isEmpty {
      guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
        context.output.error(
          Usage.message(
            for: .invalidEnvironmentValue(
              variable: "XDG_SHARE_IDLE_TIMEOUT", value: text, expected: .secondsOrNever)))
        return .usage
      }
      timeout = seconds
    }
    switch launcher.serve(context.environment, timeout) {
    case .success(let clean):
      return clean ? .success : .failure
    case .failure(.noBus(let reason)):
      context.output.error(Wording.describe(.noBus(reason)))
    case .failure(.nameTaken(let name)):
      context.output.error(Wording.describe(.busNameTaken(name)))
    case .failure(.system(let reason)):
      context.output.error(reason)
    }
    return .failure
  }
}
