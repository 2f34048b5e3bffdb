import ShareCore
import ShareDesktop

/// `xdg-share register` and `xdg-share unregister`. (Being written.)
enum RegisterCommand {
  static func register(system: Bool, context: ToolContext) -> ExitCode {
    context.output.error("register is not available yet")
    return .failure
  }

  static func unregister(system: Bool, context: ToolContext) -> ExitCode {
    context.output.error("unregister is not available yet")
    return .failure
  }
}
