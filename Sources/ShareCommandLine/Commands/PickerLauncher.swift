import ShareCore
import ShareHost
import SharePOSIX

/// The share sheet for `xdg-share FILE…` on the desktop: a window of its own program, which
/// links GTK so that this one need not. Its exit status is the share's, as the terminal's
/// picker would have given it.
enum PickerLauncher {
  /// Whether to choose in the sheet: asked for, or a display and no terminal to ask on.
  static func isWanted(_ options: ShareOptions, context: ToolContext) -> Bool {
    if options.picker { return true }
    let display = [context.environment["WAYLAND_DISPLAY"], context.environment["DISPLAY"]].contains {
      !($0 ?? "").isEmpty
    }
    return display && !(Terminal.isTerminal(0) && Terminal.isTerminal(2))
  }

  /// Shows the sheet for `items` (sharing with `service` at once when one is named); nil when
  /// there is no sheet to show (not installed).
  static func run(items: [ShareItem], service: String?, context: ToolContext) -> ExitCode? {
    guard let program = SheetProgram.locate(environment: context.environment) else { return nil }
    let process: ChildProcess
    do {
      process = try ChildProcess.spawn(
        SheetProgram.arguments(
          program: program, items: items, service: service, parent: "", resultDescriptor: nil),
        environment: context.environment, standardInput: .null)
    } catch {
      context.output.error(Wording.describe(.cannotStartSheet(program, reason: error.reason)))
      return .failure
    }
    // Ctrl-C or the session ending closes the sheet, which ends what it runs.
    SignalWatcher.onTermination { _ in process.signal(Signal.terminate) }
    defer { SignalWatcher.onTermination(nil) }
    switch process.wait() {
    case .exited(let status): return ExitCode(rawValue: status) ?? .failure
    case .signalled: return .cancelled
    }
  }
}
