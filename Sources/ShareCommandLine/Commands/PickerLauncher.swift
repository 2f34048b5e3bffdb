import ShareCore
import ShareHost
import SharePOSIX
import ShareProtocol

/// The share sheet for `xdg-share FILE…` on the desktop: a window of its own program, which
/// links GTK so that this one need not. Its exit status is the share's, as the terminal's
/// picker would have given it, and what the service returned is printed as a share without the
/// sheet prints it.
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
    let sheet: SheetSession
    do {
      sheet = try SheetSession.start(
        SheetRequest(items: items, service: service), environment: context.environment)
    } catch .notInstalled {
      return nil
    } catch {
      context.output.error(Wording.describe(.sheetNotStarted(error)))
      return .failure
    }
    // Ctrl-C or the session ending closes the sheet, which ends what it runs.
    SignalWatcher.onTermination { _ in sheet.cancel() }
    defer { SignalWatcher.onTermination(nil) }
    let end = sheet.wait()
    // The sheet had no display to open on: its words, and what to do instead.
    if let answer = end.answer, answer.exitCode == .noServiceChosen, let message = answer.message {
      context.output.error(Wording.describe(.sheetWithoutDisplay(message)))
    }
    if let returned = end.answer?.returnedItems, !returned.isEmpty {
      for line in Wording.lines(for: [ItemPayload(attachments: returned)]) { context.output.line(line) }
    }
    // The sheet's exit status is the share's; a sheet killed by a signal was stopped.
    switch end.termination {
    case .exited(let status): return ExitCode(rawValue: status) ?? .failure
    case .signalled: return .cancelled
    }
  }
}
